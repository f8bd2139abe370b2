"""Passages with their page provenance: chunks before embedding, search hits, and citations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Hit:
    """One chunk found for a query, with where it lives in its document."""

    chunk_id: int
    document_id: int
    document: str  # file name, as shown to the user
    path: str
    page: int  # 1-based first page of the chunk
    page_end: int  # 1-based last page (== page unless the chunk crosses a page break)
    char_start: int  # offset in the normalised text of `page`
    char_end: int  # offset in the normalised text of `page_end`
    text: str
    score: float  # fused rank score (reciprocal rank fusion), higher is better
    similarity: float  # cosine similarity of query and chunk embeddings, in [-1, 1]
    # Documents without pages (DOCX, HTML, EPUB): heading path and paragraph, "Guide › Install, ¶ 2";
    # `page` is then the 1-based section number. "" for PDF and text pages.
    section: str = ""
    # The headings the passage sits under, "Guide › Networking › Proxy settings" (a PDF's
    # bookmarks, numbered headings, a section's path); "" when the document shows none.
    heading: str = ""
    # The passage is mostly a table of contents, an index or dotted-leader lines (app/core/contents.py):
    # it lists where things are, so it is never shown as found evidence.
    contents: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "path": self.path,
            "page": self.page,
            "page_end": self.page_end,
            "score": round(self.score, 6),
            "similarity": round(self.similarity, 4),
            "text": self.text,
            "chunk_id": self.chunk_id,
            "section": self.section,
            "heading": self.heading,
            "contents": self.contents,
        }


@dataclass(frozen=True)
class SearchResult:
    """The hits for one query, best first, and how long retrieval took."""

    query: str
    hits: list[Hit]
    retrieval_ms: float

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [hit.to_json() for hit in self.hits],
            "retrieval_ms": round(self.retrieval_ms, 2),
        }


@dataclass(frozen=True)
class Citation:
    """A marker that points to a passage that was in the prompt; page is a page holding it."""

    n: int
    chunk_id: int
    document: str
    path: str
    page: int
    page_end: int
    char_start: int
    char_end: int
    text: str
    # "model": the model wrote this marker and the passage supports its sentence; "matched": Folio
    # found the passage that supports a sentence the model left uncited (or cited wrongly).
    source: str = "model"
    section: str = ""  # heading path and paragraph for documents without pages (see Hit.section)
    heading: str = ""  # the headings the passage sits under (see Hit.heading)

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "document": self.document,
            "page": self.page,
            "page_end": self.page_end,
            "path": self.path,
            "char_start": self.char_start,
            "char_end": self.char_end,
            "text": self.text,
            "chunk_id": self.chunk_id,
            "source": self.source,
            "section": self.section,
            "heading": self.heading,
        }

    @classmethod
    def from_hit(cls, n: int, hit: Hit, source: str = "model") -> Citation:
        """Passage `n` of a prompt (or of a list of retrieved passages) as a citation."""
        return cls(
            n=n,
            chunk_id=hit.chunk_id,
            document=hit.document,
            path=hit.path,
            page=hit.page,
            page_end=hit.page_end,
            char_start=hit.char_start,
            char_end=hit.char_end,
            text=hit.text,
            source=source,
            section=hit.section,
            heading=hit.heading,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Citation:
        return cls(
            n=int(data["n"]),
            chunk_id=int(data["chunk_id"]),
            document=str(data["document"]),
            path=str(data.get("path", "")),
            page=int(data["page"]),
            page_end=int(data.get("page_end", data["page"])),
            char_start=int(data.get("char_start", 0)),
            char_end=int(data.get("char_end", 0)),
            text=str(data.get("text", "")),
            source=str(data.get("source", "model")),
            section=str(data.get("section", "")),
            heading=str(data.get("heading", "")),
        )


def shown_heading(place: Hit | Citation) -> str:
    """The heading path a source label shows after the page ("Guide › Networking › Proxy"), or ""
    when there is none or the label's section already names it (documents without pages)."""
    return "" if place.section else place.heading


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk before embedding: its text and where it starts and ends."""

    text: str
    page_start: int
    char_start: int
    page_end: int
    char_end: int
    n_tokens: int
    section: str = ""  # where it sits in a document without pages: "Guide › Install, ¶ 2"
    heading: str = ""  # the headings it sits under (see Hit.heading)
    contents: bool = False  # mostly table-of-contents or index lines (see Hit.contents)


def with_heading(heading: str, text: str) -> str:
    """What the embedder and the keyword tables see of a passage: its heading path, then its text."""
    return f"{heading}\n{text}" if heading else text
