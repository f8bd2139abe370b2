"""The facade the GUI and the CLI both use: ingest, search, documents, verify, and answering."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.index.sync import index_disagreement, open_vector_index, rebuild_index
from app.core.index.vector_index import INDEX_FILE, VectorIndex
from app.core.ingest.pipeline import Ingester, IngestReport, ProgressCallback
from app.core.passage import SearchResult
from app.core.retrieve import Retriever
from app.core.store.library import DocumentInfo, LibraryStore

if TYPE_CHECKING:
    from app.core.answer import Answerer
    from app.core.generate.engine import Engine

log = logging.getLogger("folio")


@dataclass
class VerifyReport:
    """Store ↔ index ↔ keyword-table consistency; `repaired` lists what --repair fixed."""

    ok: bool
    documents: int
    chunks: int
    vectors: int
    problems: list[str] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "documents": self.documents,
            "chunks": self.chunks,
            "vectors": self.vectors,
            "problems": self.problems,
            "repaired": self.repaired,
        }


class Folio:
    """One library (store + vector index) with its embedder and answering engine."""

    def __init__(
        self, settings: Settings, library_dir: Path, embedder: Embedder, engine: Engine | None = None
    ) -> None:
        self.settings = settings
        self.library_dir = library_dir
        self.embedder = embedder
        self.store = LibraryStore(library_dir)
        self.index_path = library_dir / INDEX_FILE
        self.notices: list[str] = []
        self._engine = engine
        self._index: VectorIndex | None = None
        self._ingester: Ingester | None = None
        self._answerer: Answerer | None = None
        self._embedder_bound = False
        self._lock = threading.RLock()

    # -- set-up --------------------------------------------------------------------------------

    def _notify(self, message: str) -> None:
        self.notices.append(message)
        log.warning("%s", message)

    def warm_up(self) -> None:
        """Load the embedder and open the index (slow the first time: imports torch)."""
        self._ready()

    def _ready(self) -> VectorIndex:
        """Embedder loaded and bound to the library, index open and in agreement with the store."""
        with self._lock:
            if not self._embedder_bound:
                # A write, so it waits for the store's writer; done once, so searches never wait
                # for a long ingestion to finish.
                self.store.bind_embedder(self.embedder.name, self.embedder.dimension)
                self._embedder_bound = True
            return self._vector_index()

    def _vector_index(self) -> VectorIndex:
        with self._lock:
            if self._index is None:
                stored = self.store.meta("embed_dim")
                dimension = int(stored) if stored else self.embedder.dimension
                self._index = open_vector_index(self.store, dimension, self.index_path, self._notify)
            return self._index

    @property
    def answerer(self) -> Answerer:
        with self._lock:
            if self._answerer is None:
                from app.core.answer import Answerer

                self._answerer = Answerer(self.settings, self.store.sessions, self.search, self._engine)
            return self._answerer

    # -- library -------------------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[Path],
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport:
        index = self._ready()
        with self._lock:
            if self._ingester is None:
                self._ingester = Ingester(self.store, index, self.index_path, self.embedder, self.settings)
            ingester = self._ingester
        return ingester.ingest(paths, progress, cancel)

    def reindex(
        self, document: str | int, progress: ProgressCallback | None = None, cancel: CancelToken | None = None
    ) -> IngestReport:
        """Read a document's file again from scratch (its chunks are replaced in one transaction)."""
        info = self.store.find_document(document)
        index = self._ready()
        with self.store.write_lock:
            ids = self.store.delete_document(info.id)
            index.remove(ids)
            index.save(self.index_path)
        return self.ingest([Path(info.path)], progress, cancel)

    def search(self, query: str, k: int | None = None) -> SearchResult:
        index = self._ready()
        return Retriever(self.store, index, self.embedder).search(query, k or self.settings.passages_k)

    def documents(self) -> list[DocumentInfo]:
        return self.store.documents()

    def remove(self, document: str | int) -> DocumentInfo:
        """Remove a document with its chunks, keyword rows and vectors."""
        info = self.store.find_document(document)
        index = self._vector_index()
        with self.store.write_lock:
            ids = self.store.delete_document(info.id)
            index.remove(ids)
            index.save(self.index_path)
        return info

    def verify(self, repair: bool = False) -> VerifyReport:
        """Check store ↔ index ↔ keyword tables; with `repair`, rebuild what disagrees."""
        problems = self.store.integrity_problems()
        repaired: list[str] = []
        chunk_ids = self.store.all_chunk_ids()
        stored = self.store.meta("embed_dim")
        dimension = int(stored) if stored else None
        index: VectorIndex | None = None
        if dimension is not None:
            try:
                index = VectorIndex.load(self.index_path, dimension) if self.index_path.exists() else None
            except ValueError as exc:
                problems.append(f"vector index unreadable: {exc}")
            if index is None and len(chunk_ids) and self.index_path.exists() is False:
                problems.append("vector index file is missing")
            if index is not None:
                mismatch = index_disagreement(index, self.store)
                if mismatch:
                    problems.append(f"vector index disagrees with the store: {mismatch}")
        for table in ("chunks_terms", "chunks_trigram"):
            rows = self.store.keyword_row_ids(table)
            if len(rows) != len(chunk_ids) or (rows != chunk_ids).any():
                counts = f"{len(rows)} rows, {len(chunk_ids)} chunks"
                problems.append(f"keyword table {table} disagrees with the store ({counts})")
        if repair and problems:
            if any(p.startswith("keyword table") for p in problems):
                self.store.rebuild_keyword_tables()
                repaired.append("keyword tables rebuilt")
            if dimension is not None and any(p.startswith("vector index") for p in problems):
                with self._lock:
                    self._index = rebuild_index(self.store, dimension, self.index_path)
                    self._ingester = None
                index = self._index
                repaired.append("vector index rebuilt")
        vectors = index.count if index is not None else 0
        remaining = (
            problems
            if not repair
            else [p for p in problems if p.startswith("SQLite") or p.startswith("document")]
        )
        return VerifyReport(
            ok=not remaining,
            documents=len(self.store.documents()),
            chunks=len(chunk_ids),
            vectors=vectors,
            problems=problems,
            repaired=repaired,
        )

    def close(self) -> None:
        with self._lock:
            if self._ingester is not None:
                self._ingester.close()
            if self._answerer is not None:
                self._answerer.close()
            self.store.close()


def build_services(
    settings: Settings,
    library_dir: Path,
    *,
    embedder: Embedder | None = None,
    engine: Engine | None = None,
) -> Folio:
    """The composition root: the CLI, the GUI and the tests build Folio here."""
    settings.validate()
    return Folio(settings, library_dir, embedder or Embedder(settings.embed_model_path()), engine)
