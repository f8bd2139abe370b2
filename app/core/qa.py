"""The facade the GUI and the CLI both use: ingest, search, documents, verify, ask, and chats."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from app.core.cancel import CancelToken
from app.core.config import Settings, SettingsOwner
from app.core.embed.binding import bind_library_embedder
from app.core.embed.embedder import Embedder
from app.core.embed.reindex import ReindexAdvice, check_reindex_target, reindex_advice
from app.core.errors import UsageError
from app.core.index.consistency import VerifyReport, verify_library
from app.core.index.scripts import ScriptPartition
from app.core.index.sync import apply_change, open_vector_index, refresh_index
from app.core.index.vector_index import INDEX_FILE, VectorIndex
from app.core.ingest.folder_scan import FolderScan, scan_folder
from app.core.ingest.pipeline import Ingester, IngestReport, ProgressCallback
from app.core.passage import Hit, SearchResult
from app.core.retrieve import Retriever, document_passages, stored_vectors
from app.core.store.conversations import ChatSummary, ConversationStore
from app.core.store.folders import FolderInfo
from app.core.store.layers import PageLayerInfo
from app.core.store.library import LibraryStore
from app.core.store.records import DocumentInfo

if TYPE_CHECKING:
    from app.core.answering.pipeline.model_slot import ModelSlot
    from app.core.answering.pipeline.pipeline import Answerer
    from app.core.answering.types import Answer, AnswerEvent, AskOptions, Delta
    from app.core.generate.engine import Engine
    from app.core.generate.model import ModelInfo

log = logging.getLogger("folio")

__all__ = ["Folio", "VerifyReport", "build_services"]


class Folio:
    """One library (store + vector index) with its embedder and answering engine."""

    def __init__(
        self,
        settings: Settings | SettingsOwner,
        library_dir: Path,
        embedder: Embedder | None = None,
        engine: Engine | None = None,
        embedder_for: Callable[[Path], Embedder] | None = None,
    ) -> None:
        """Without an `embedder`, the library's own (its recorded model, when installed) or, for a
        new library, the settings' one; `embedder_for` makes it from the folder (a cache may)."""
        self.settings_owner = settings if isinstance(settings, SettingsOwner) else SettingsOwner(settings)
        self.library_dir = library_dir
        self.store = LibraryStore(library_dir)
        if embedder is None:
            folder = self.settings.embed_model_path(self.store.meta("embed_model"))
            precision = self.settings.embed_precision
            embedder = embedder_for(folder) if embedder_for else Embedder(folder, precision=precision)
        self.embedder = embedder
        self.conversations = ConversationStore(self.store.sessions)
        self.index_path = library_dir / INDEX_FILE
        self.notices: list[str] = []
        self._engine = engine
        self._index: VectorIndex | None = None
        self._ingester: Ingester | None = None
        self._answerer: Answerer | None = None
        self._slot: ModelSlot | None = None
        self._embedder_bound = False
        self._scripts = ScriptPartition(self.store)  # which chunks are CJK, read as they come
        self._lock = threading.RLock()

    @property
    def settings(self) -> Settings:
        """The current settings (read-only: change them with `apply_settings`)."""
        return self.settings_owner.current

    def apply_settings(self, settings: Settings) -> bool:
        """The one way settings change (UsageError or ModelError: nothing changes). Fields other
        than the model's apply at once; a changed model or context is checked now and loads at its
        next use (`load_model` or the next question); a model that then fails to load puts the
        previous model settings back. Listeners of `settings_owner` hear each change once.
        Returns whether a model load is pending."""
        return self.model_slot.apply(settings)

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
                bind_library_embedder(self.store, self.embedder)
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
    def model_slot(self) -> ModelSlot:
        """The chat model in use and the one pending after a settings change (built at first use)."""
        with self._lock:
            if self._slot is None:
                from app.core.answering.pipeline.model_slot import ModelSlot

                self._slot = ModelSlot(self.settings_owner, self._engine)
            return self._slot

    @property
    def answerer(self) -> Answerer:
        """The answering pipeline (built at first use). The GUI and the CLI use the methods below."""
        with self._lock:
            if self._answerer is None:
                from app.core.answering.judge.checking import embedding_verifier
                from app.core.answering.judge.policy import policy_for
                from app.core.answering.pipeline.pipeline import Answerer
                from app.core.embed.recent import RecentVectors

                scales = self.embedder.scales
                embed = RecentVectors(self.embedder.embed)  # the check and the judge embed once
                verifier = embedding_verifier(partial(stored_vectors, self.store), embed, scales)
                self._answerer = Answerer(
                    self.settings_owner,
                    self.conversations,
                    self.search,
                    self.model_slot,
                    verifier,
                    embed,
                    scales,
                    self.passages,
                    library=self,
                    policy=policy_for(self.embedder.name),
                )
            return self._answerer

    # -- library -------------------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[Path],
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport:
        return self._the_ingester().ingest(paths, progress, cancel)

    def _the_ingester(self) -> Ingester:
        index = self._ready()
        with self._lock:
            if self._ingester is None:
                self._ingester = Ingester(
                    self.store, index, self.index_path, self.embedder, self.settings_owner
                )
            return self._ingester

    def reindex(
        self, document: str | int, progress: ProgressCallback | None = None, cancel: CancelToken | None = None
    ) -> IngestReport:
        """Read a document's file again from scratch. The new version is read and chunked first and
        replaces the old chunks in one transaction; a failure or a cancel leaves the old version
        in place and searchable."""
        info = self.store.find_document(document)
        return self._the_ingester().ingest([Path(info.path)], progress, cancel, reread=True)

    def reindex_advice(self) -> ReindexAdvice | None:
        """Advice to re-index when the library's embedder is English-only, the settings name none
        (the library keeps its own) and the default of new libraries is multilingual; else None."""
        return reindex_advice(self.settings, self.embedder, self.documents())

    def reindex_library(
        self,
        into: Path,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        embedder: Embedder | None = None,
    ) -> IngestReport:
        """Read every document of this library again into the new library `into`, with `embedder`
        (else the settings' one: the default of new libraries unless one is set), and copy the
        chats over. This library is only read; vectors of two models never meet in one library."""
        check_reindex_target(into, self.library_dir)
        new = Folio(self.settings_owner.current, into, embedder=embedder)
        try:
            report = new.ingest([Path(info.path) for info in self.documents()], progress, cancel)
            if not report.cancelled:
                new.conversations.copy_from(self.conversations)
            return report
        finally:
            new.close()

    def search(self, query: str, k: int | None = None, translated: str = "") -> SearchResult:
        index = self._ready()
        refresh_index(index, self.store)  # another process may have written since
        retriever = Retriever(self.store, index, self.embedder, scripts=self._scripts)
        return retriever.search(query, k or self.settings.passages_k, translated)

    def passages(self, query: str, chunk_ids: Sequence[int]) -> SearchResult:
        """The named chunks as hits of `query`, in that order (Retriever.passages)."""
        index = self._ready()
        return Retriever(self.store, index, self.embedder, scripts=self._scripts).passages(query, chunk_ids)

    def documents(self) -> list[DocumentInfo]:
        return self.store.documents()

    def document_passages(self, document_id: int) -> tuple[list[Hit], npt.NDArray[np.float32]]:
        """A document's chunks in reading order, as passages (no query: similarity 0), with their
        stored vectors, one row each."""
        return document_passages(self.store, document_id, self.embedder.dimension)

    def search_document(self, query: str, document_id: int, k: int) -> SearchResult:
        """The best `k` passages for `query` within one document (the across-files path)."""
        self._ready()
        return Retriever(
            self.store, self._vector_index(), self.embedder, scripts=self._scripts
        ).search_document(query, document_id, k)

    def page_layer(self, path: str, page: int) -> PageLayerInfo | None:
        """The stored text of an OCR'd page (with its line boxes) or of a section, for the viewer."""
        return self.store.page_layer(path, page)

    def remove(self, document: str | int) -> DocumentInfo:
        """Remove a document with its chunks, keyword rows and vectors."""
        info = self.store.find_document(document)
        index = self._vector_index()
        self.store.delete_document(
            info.id, on_commit=lambda change: apply_change(index, self.store, change, self.index_path)
        )
        return info

    # -- watched folders ------------------------------------------------------------------------

    def watched_folders(self) -> list[FolderInfo]:
        """The folders kept in step with the library (stored in it: they survive restarts)."""
        return self.store.folders.list()

    def watch_folder(self, folder: Path) -> FolderInfo:
        """Watch a folder (its files are then ingested by `scan_folder` + `ingest`)."""
        path = folder.expanduser().resolve()
        if not path.is_dir():
            raise UsageError(f"{folder} is not a folder")
        return self.store.folders.add(str(path))

    def unwatch_folder(self, folder: str) -> bool:
        """Stop watching a folder; its documents stay in the library."""
        return self.store.folders.remove(folder)

    def scan_folder(self, folder: str) -> FolderScan:
        """What changed in a watched folder; a moved file (same bytes) gets its new path at once,
        keeping its document. New and changed files are left to `ingest`, deleted ones to
        `remove` (the caller asks the user first, or not, by `Settings.folder_deletions`)."""
        scan = scan_folder(Path(folder), self.store.documents())
        for move in scan.moved:
            self.store.folders.move_document(move.document_id, move.new_path)
        return scan

    def verify(self, repair: bool = False) -> VerifyReport:
        """Check store ↔ index ↔ keyword tables; with `repair`, rebuild what disagrees."""
        with self.store.write_lock:  # the store and the index file stand still while compared
            outcome = verify_library(self.store, self.index_path, repair)
        if outcome.rebuilt_index is not None:
            with self._lock:
                self._index = outcome.rebuilt_index
                self._ingester = None
        return outcome.report

    # -- answering -----------------------------------------------------------------------------

    def load_model(self) -> ModelInfo:
        """Load the configured chat model (slow the first time); a failed new model keeps the old."""
        return self.model_slot.load()

    def model_info(self) -> ModelInfo | None:
        return self._slot.info() if self._slot is not None else None

    def ask_stream(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterator[AnswerEvent]:
        """Validate now (UsageError), then stream the events of one answer: Retrieved, Delta…,
        Metrics…, Finished. The answer is saved in its chat (a new chat when `chat_id` is None)."""
        return self.answerer.ask_stream(question, options, chat_id, cancel)

    def ask(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
        on_delta: Callable[[Delta], None] | None = None,
    ) -> Answer:
        """Answer and return the finished Answer; `on_delta` sees the text as it streams."""
        from app.core.answering.pipeline.pipeline import answer_of

        return answer_of(self.ask_stream(question, options, chat_id, cancel), on_delta)

    # -- chats ---------------------------------------------------------------------------------

    def chats(self) -> list[ChatSummary]:
        return self.conversations.summaries()

    def chat(self, chat_id: int) -> list[Answer]:
        """The answers of a chat, oldest first, each with its question, citations and figures."""
        from app.core.answering.types import chat_answers

        return chat_answers(self.conversations.messages(chat_id))

    def export_chat(
        self, chat_id: int, fmt: str = "md", translate: Callable[[str, str], str] | None = None
    ) -> str:
        """The chat as Markdown ("md") or one self-contained HTML file ("html"): every answer with
        its question's date, model, verdict and sources (answering/presentation/export.py); its words through
        `translate` (the front end's language; English without one)."""
        from app.core.answering.presentation.export import check_format, render_chat
        from app.core.answering.presentation.export_rows import as_written

        fmt = check_format(fmt)
        return render_chat(
            self.conversations.title(chat_id), self.chat(chat_id), fmt, translate or as_written
        )

    def new_chat(self, title: str = "") -> int:
        return self.conversations.create(title)

    def delete_chat(self, chat_id: int) -> None:
        self.conversations.delete(chat_id)

    def close(self) -> None:
        with self._lock:
            if self._ingester is not None:
                self._ingester.close()
            if self._slot is not None:
                self._slot.close()
            self.store.close()


def build_services(
    settings: Settings,
    library_dir: Path,
    *,
    embedder: Embedder | None = None,
    engine: Engine | None = None,
    embedder_for: Callable[[Path], Embedder] | None = None,
) -> Folio:
    """The composition root: the CLI, the GUI and the tests build Folio here. The embedder is the
    one given, else the library's own or the settings' (Folio)."""
    settings.validate()
    return Folio(settings, library_dir, embedder, engine, embedder_for)
