"""The question pipeline as the composition root builds it, with the tests' overrides: a search
over hand-made hits instead of the library, checking by words alone, and the shared model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.answering.pipeline.pipeline import Answerer, answer_of
from app.core.answering.pipeline.stages import Search
from app.core.answering.types import Answer, AskOptions, Delta
from app.core.config import Settings
from app.core.generate.chat_engine import ChatEngine
from app.core.passage import Hit, SearchResult
from app.core.services import build_services, words_only
from app.core.store.records import DocumentInfo


class SearchReader:
    """The pipeline's `LibraryReader` over one search callable (the retriever is tested on its
    own): the library lists no documents and looks up no chunk by id, so no question reads a
    document whole and a chat never carries its previous passages."""

    def __init__(self, search: Search) -> None:
        self._search = search

    def search(self, query: str, k: int) -> SearchResult:
        return self._search(query, k)

    def passages(self, query: str, chunk_ids: Sequence[int]) -> SearchResult:
        return SearchResult(query=query, hits=[], retrieval_ms=0.0)

    def documents(self) -> list[DocumentInfo]:
        return []

    def document_passages(self, document_id: int) -> tuple[list[Hit], npt.NDArray[np.float32]]:
        return [], np.zeros((0, 0), dtype=np.float32)

    def search_document(self, query: str, document_id: int, k: int) -> SearchResult:
        return SearchResult(query=query, hits=[], retrieval_ms=0.0)


def make_answerer(
    settings: Settings, library_dir: Path, search: Search, engine: ChatEngine | None = None
) -> Answerer:
    """The Answerer of `build_services` over the library in `library_dir` (its chats are saved
    there: two answerers over one folder share them), reading `search` instead of the library."""
    folio = build_services(
        settings, library_dir, engine=engine, reader=SearchReader(search), checking=words_only()
    )
    return folio.answering.answerer


def ask(
    answerer: Answerer,
    question: str,
    options: AskOptions | None = None,
    chat_id: int | None = None,
    on_delta: Callable[[Delta], None] | None = None,
) -> Answer:
    """The finished answer of one question (folio.answering.ask's collection of the event stream)."""
    return answer_of(answerer.ask_stream(question, options, chat_id), on_delta)
