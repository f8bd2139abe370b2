"""Library tables: documents, their chunks (with embeddings) and library-wide metadata."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.store.base import Base, utcnow


class Meta(Base):
    """Key/value facts about the library (schema version, embedding model, dimension)."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Document(Base):
    """One ingested file, identified by the SHA-256 of its bytes."""

    __tablename__ = "documents"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True, index=True)
    name: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(8))  # pdf | txt | md | docx | html | epub
    pages: Mapped[int] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="ready")
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # the version of Folio's reading it was read with (app/core/ingest/reader_version.py); 0: unknown
    reader_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    chunks: Mapped[list[Chunk]] = relationship(
        back_populates="document", cascade="all, delete-orphan", passive_deletes=True
    )


class Chunk(Base):
    """A passage of a document, page-aware, with its float32 embedding."""

    __tablename__ = "chunks"
    # Ids are never reused: a stale FAISS file can then never match a newer chunk under an old id.
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    ordinal: Mapped[int] = mapped_column(Integer)  # position in the document
    text: Mapped[str] = mapped_column(Text)
    page_start: Mapped[int] = mapped_column(Integer)  # 1-based
    page_end: Mapped[int] = mapped_column(Integer)
    char_start: Mapped[int] = mapped_column(Integer)  # offset in page_start's normalised text
    char_end: Mapped[int] = mapped_column(Integer)  # offset in page_end's normalised text
    n_tokens: Mapped[int] = mapped_column(Integer)  # embedder tokens
    embedding: Mapped[bytes] = mapped_column(LargeBinary)  # float32, L2-normalised
    # Where the passage sits in a document without pages (DOCX, HTML, EPUB): heading path and
    # paragraph, "Guide › Install, ¶ 2"; "" for PDF and text pages. Added in schema version 2.
    section: Mapped[str] = mapped_column(Text, default="", server_default="")
    # The heading path the passage sits under, "Guide › Networking › Proxy settings" ("" for none);
    # what the embedder and the keyword tables saw is this path, a line break, then `text`.
    # Added in schema version 3 (store/schema.py), as is:
    heading: Mapped[str] = mapped_column(Text, default="", server_default="")
    # The passage is mostly table-of-contents, index or dotted-leader lines (app/core/contents.py)
    contents: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")

    document: Mapped[Document] = relationship(back_populates="chunks")


class PageLayer(Base):
    """The stored text of a page that the viewer cannot get from the file itself: a page read by
    OCR (with each line's box, so the passage can be highlighted on the scan) or a section of a
    document without pages (with its heading path and paragraph offsets)."""

    __tablename__ = "page_layers"
    __table_args__ = (UniqueConstraint("document_id", "page"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    page: Mapped[int] = mapped_column(Integer)  # 1-based page, or section number
    ocr: Mapped[bool] = mapped_column(Boolean, default=False)  # the text was recognised by OCR
    section: Mapped[str] = mapped_column(Text, default="")  # heading path
    text: Mapped[str] = mapped_column(Text)  # the page's normalised text (chunk offsets point here)
    paragraphs: Mapped[str] = mapped_column(Text, default="[]")  # JSON: paragraph start offsets
    boxes: Mapped[str] = mapped_column(Text, default="[]")  # JSON: [start, end, x0, y0, x1, y1] in points
