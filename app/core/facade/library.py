"""The library facade: ingest, re-index, search, documents, page layers, remove, watched folders, verify."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from app.core.cancel import CancelToken
from app.core.config import Settings, SettingsOwner
from app.core.embed.embedder import Embedder
from app.core.embed.reindex import ReindexAdvice, check_reindex_target, reindex_advice
from app.core.errors import UsageError
from app.core.facade.lazy import Lazy
from app.core.facade.reader import LibrarySearch
from app.core.index.consistency import VerifyReport, verify_library
from app.core.index.sync import apply_change
from app.core.index.vector_index import INDEX_FILE
from app.core.ingest.folder_scan import FolderScan, scan_folder
from app.core.ingest.pipeline import Ingester, IngestReport, ProgressCallback
from app.core.ingest.reread import RereadAdvice, reread_advice
from app.core.passage import SearchResult
from app.core.store.conversations import ConversationStore
from app.core.store.folders import FolderInfo
from app.core.store.layers import PageLayerInfo
from app.core.store.library import LibraryStore
from app.core.store.records import DocumentInfo

EmbedderFor = Callable[[Path], Embedder]


class Library:
    """One library's documents: what goes in (ingest, re-index, watched folders), what comes out
    (search, documents, page layers) and its upkeep (remove, verify). Its search side, the
    `LibrarySearch`, is what the answering pipeline reads."""

    def __init__(self, settings: SettingsOwner, library_dir: Path, search: LibrarySearch) -> None:
        self._owner = settings
        self.library_dir = library_dir
        self.reader = search
        self.store = search.store
        self.embedder = search.embedder
        self.index_path = search.index_path
        self.notices = search.notices  # for the user: e.g. a damaged index rebuilt
        self._ingester = Lazy(
            lambda: Ingester(self.store, self.reader.ready(), self.index_path, self.embedder, self._owner)
        )

    def warm_up(self) -> None:
        """Load the embedder and open the index (slow the first time: imports torch)."""
        self.reader.ready()

    # -- what goes in --------------------------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[Path],
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport:
        return self._the_ingester().ingest(paths, progress, cancel)

    def _the_ingester(self) -> Ingester:
        self.reader.ready()
        return self._ingester.get()

    def reindex(
        self,
        *documents: str | int,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport:
        """Read documents' files again from scratch (by name, path or id). Each new version is read
        and chunked first and replaces the old chunks in one transaction; a failure or a cancel
        leaves the old version in place and searchable."""
        paths = [Path(self.store.find_document(document).path) for document in documents]
        return self._the_ingester().ingest(paths, progress, cancel, reread=True)

    def reread_advice(self) -> RereadAdvice | None:
        """Advice to read again the documents an earlier version of Folio's reading read."""
        return reread_advice(self.documents())

    def reindex_advice(self) -> ReindexAdvice | None:
        """Advice to re-index when the library's embedder is English-only, the settings name none
        (the library keeps its own) and the default of new libraries is multilingual; else None."""
        return reindex_advice(self._owner.current, self.embedder, self.documents())

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
        new = open_library(SettingsOwner(self._owner.current), into, embedder)
        try:
            report = new.ingest([Path(info.path) for info in self.documents()], progress, cancel)
            if not report.cancelled:
                ConversationStore(new.store.sessions).copy_from(ConversationStore(self.store.sessions))
            return report
        finally:
            new.close()

    # -- what comes out ------------------------------------------------------------------------

    def search(self, query: str, k: int | None = None, translated: str = "") -> SearchResult:
        return self.reader.search(query, k, translated)

    def documents(self) -> list[DocumentInfo]:
        return self.store.documents()

    def page_layer(self, path: str, page: int) -> PageLayerInfo | None:
        """The stored text of an OCR'd page (with its line boxes) or of a section, for the viewer."""
        return self.store.page_layer(path, page)

    # -- upkeep --------------------------------------------------------------------------------

    def remove(self, document: str | int) -> DocumentInfo:
        """Remove a document with its chunks, keyword rows and vectors."""
        info = self.store.find_document(document)
        index = self.reader.index()
        self.store.delete_document(
            info.id, on_commit=lambda change: apply_change(index, self.store, change, self.index_path)
        )
        return info

    def verify(self, repair: bool = False) -> VerifyReport:
        """Check store ↔ index ↔ keyword tables; with `repair`, rebuild what disagrees."""
        with self.store.write_lock:  # the store and the index file stand still while compared
            outcome = verify_library(self.store, self.index_path, repair)
        if outcome.rebuilt_index is not None:
            self.reader.replace_index(outcome.rebuilt_index)
            self._ingester.reset()  # the next ingest writes into the rebuilt index
        return outcome.report

    # -- watched folders -----------------------------------------------------------------------

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

    def close(self) -> None:
        ingester = self._ingester.peek()
        if ingester is not None:
            ingester.close()
        self.store.close()


def library_embedder(
    settings: Settings, store: LibraryStore, embedder_for: EmbedderFor | None = None
) -> Embedder:
    """The library's own embedder (its recorded model, when installed) or, for a new library, the
    settings' one; `embedder_for` makes it from the folder (a cache may). Built, not loaded."""
    folder = settings.embed_model_path(store.meta("embed_model"))
    return embedder_for(folder) if embedder_for else Embedder(folder, precision=settings.embed_precision)


def open_library(
    settings: SettingsOwner,
    library_dir: Path,
    embedder: Embedder | None = None,
    embedder_for: EmbedderFor | None = None,
) -> Library:
    """The store in `library_dir`, its embedder (`library_embedder` unless one is given) and its
    search side, lazy: nothing heavy is imported or loaded until the first search or ingest."""
    store = LibraryStore(library_dir)
    embedder = embedder or library_embedder(settings.current, store, embedder_for)
    return Library(settings, library_dir, LibrarySearch(settings, store, embedder, library_dir / INDEX_FILE))
