"""Hand-made passages and a search callable over them, for the answering tests."""

from __future__ import annotations

from collections.abc import Callable

from app.core.passage import Hit, SearchResult


def make_hit(
    chunk_id: int, text: str, *, document: str = "guide.pdf", page: int = 1, similarity: float = 0.6
) -> Hit:
    return Hit(
        chunk_id=chunk_id,
        document_id=1,
        document=document,
        path=f"/library/{document}",
        page=page,
        page_end=page,
        char_start=0,
        char_end=len(text),
        text=text,
        score=1.0 / (60 + chunk_id),
        similarity=similarity,
    )


def fixed_search(hits: list[Hit]) -> Callable[[str, int], SearchResult]:
    """A search callable over hand-made hits (the retriever is tested on its own)."""

    def search(query: str, k: int) -> SearchResult:
        return SearchResult(query=query, hits=hits[:k], retrieval_ms=1.5)

    return search
