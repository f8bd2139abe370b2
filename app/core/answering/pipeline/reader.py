"""The answering pipeline's port to the library: only what it reads (search, passages, documents)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from app.core.answering.whole.whole import WholeLibrary
from app.core.passage import SearchResult


class LibraryReader(WholeLibrary, Protocol):
    """What the `Answerer` reads of a library: a question's passages, a chat's earlier passages by
    chunk id (carry.py), and for whole-document answers the documents and their passages
    (`WholeLibrary`). The composition root hands it the library's `LibrarySearch`."""

    def search(self, query: str, k: int) -> SearchResult: ...

    def passages(self, query: str, chunk_ids: Sequence[int]) -> SearchResult: ...
