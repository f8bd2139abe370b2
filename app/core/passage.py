"""A retrieved passage with its page provenance: what search returns and prompts cite."""

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
