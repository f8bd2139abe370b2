"""Library tables: documents, their chunks (with embeddings) and library-wide metadata."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, LargeBinary, String, Text
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
    kind: Mapped[str] = mapped_column(String(8))  # pdf | txt | md
    pages: Mapped[int] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="ready")
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

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

    document: Mapped[Document] = relationship(back_populates="chunks")
