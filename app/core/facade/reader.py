"""One library's search side: the embedder bound to it, its vector index opened lazily, and the
reads the answering pipeline makes through its `LibraryReader` port."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.config import SettingsOwner
from app.core.embed.binding import bind_library_embedder
from app.core.embed.embedder import Embedder
from app.core.index.scripts import ScriptPartition
from app.core.index.sync import open_vector_index, refresh_index
from app.core.index.vector_index import VectorIndex
from app.core.passage import Hit, SearchResult
from app.core.retrieve import Retriever, document_passages
from app.core.store.library import LibraryStore
from app.core.store.records import DocumentInfo

log = logging.getLogger("folio")


class LibrarySearch:
    """Search, passages by chunk id and a document's passages over one library; the embedder
    loads and the index opens at the first search (or `ready()`), never at construction."""

    def __init__(
        self,
        settings: SettingsOwner,
        store: LibraryStore,
        embedder: Embedder,
        index_path: Path,
    ) -> None:
        self._owner = settings
        self.store = store
        self.embedder = embedder
        self.index_path = index_path
        self.notices: list[str] = []  # for the user: e.g. a damaged index rebuilt
        self._index: VectorIndex | None = None
        self._embedder_bound = False
        self.scripts = ScriptPartition(store)  # which chunks are CJK, read as they come
        self._lock = threading.RLock()

    def _notify(self, message: str) -> None:
        self.notices.append(message)
        log.warning("%s", message)

    def ready(self) -> VectorIndex:
        """Embedder loaded and bound to the library, index open and in agreement with the store."""
        with self._lock:
            if not self._embedder_bound:
                # A write, so it waits for the store's writer; done once, so searches never wait
                # for a long ingestion to finish.
                bind_library_embedder(self.store, self.embedder)
                self._embedder_bound = True
            return self.index()

    def index(self) -> VectorIndex:
        """The vector index, opened (and checked against the store) on first use."""
        with self._lock:
            if self._index is None:
                stored = self.store.meta("embed_dim")
                dimension = int(stored) if stored else self.embedder.dimension
                self._index = open_vector_index(self.store, dimension, self.index_path, self._notify)
            return self._index

    def replace_index(self, index: VectorIndex) -> None:
        """Use `index` from now on (one `verify --repair` rebuilt)."""
        with self._lock:
            self._index = index

    def _retriever(self, index: VectorIndex) -> Retriever:
        return Retriever(self.store, index, self.embedder, scripts=self.scripts)

    def search(self, query: str, k: int | None = None, translated: str = "") -> SearchResult:
        """The best `k` passages (else the settings' `passages_k`) for `query`, dense and keyword."""
        index = self.ready()
        refresh_index(index, self.store)  # another process may have written since
        return self._retriever(index).search(query, k or self._owner.current.passages_k, translated)

    def passages(self, query: str, chunk_ids: Sequence[int]) -> SearchResult:
        """The named chunks as hits of `query`, in that order (Retriever.passages)."""
        return self._retriever(self.ready()).passages(query, chunk_ids)

    def documents(self) -> list[DocumentInfo]:
        return self.store.documents()

    def document_passages(self, document_id: int) -> tuple[list[Hit], npt.NDArray[np.float32]]:
        """A document's chunks in reading order, as passages (no query: similarity 0), with their
        stored vectors, one row each."""
        return document_passages(self.store, document_id, self.embedder.dimension)

    def search_document(self, query: str, document_id: int, k: int) -> SearchResult:
        """The best `k` passages for `query` within one document (the across-files path)."""
        self.ready()
        return self._retriever(self.index()).search_document(query, document_id, k)
