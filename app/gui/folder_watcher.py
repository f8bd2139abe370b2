"""Watched folders in the window: file-system events, debounced, become scans on the store worker."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from app.core.api import FolioError
from app.gui.app_controller import AppController
from app.gui.ingest_controller import IngestController
from app.gui.tasks import Resource, TaskContext

if TYPE_CHECKING:
    from app.core.api import DocumentInfo, FolderScan, FolderState

# Events come in bursts (a copy writes a file in many steps, a folder of files arrives at once):
# one scan when they have stopped for this long.
DEBOUNCE_MS = 1500
# Whether each folder is reachable is looked at this often: a drive removed or unmounted does not
# always reach the watcher as an event (an offline folder's nearest existing parent is watched too).
REACHABLE_POLL_MS = 5000
Scanned = tuple["list[FolderScan]", "list[FolderState]", set[str]]  # a scan's result, for the GUI thread


class FolderWatcher(QObject):
    """Keeps the library in step with its watched folders. The Qt side only watches: every scan,
    move, ingestion and removal runs on the store worker (scans through `Folio.scan_folder`, new
    and changed files through the IngestController, so they show their progress as any other)."""

    states_changed = Signal(list)  # list[FolderState]
    deletions_pending = Signal(list)  # list[DocumentInfo]: deleted files awaiting the user's answer
    message = Signal(str)

    def __init__(self, app: AppController, ingest: IngestController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.ingest = ingest
        self.states: list[FolderState] = []
        self.pending: dict[int, DocumentInfo] = {}  # deleted files awaiting confirmation, by document
        self._kept: set[int] = set()  # documents the user chose to keep (asked again next session)
        self._scanning = False
        self._again = False  # events arrived during a scan: scan once more after it
        self._polling = False
        self._refused: set[str] = set()  # folders the system would not watch (said once)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._changed)
        self.watcher.fileChanged.connect(self._changed)
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(DEBOUNCE_MS)
        self.debounce.timeout.connect(self.rescan)
        self.reachable_poll = QTimer(self)
        self.reachable_poll.setInterval(REACHABLE_POLL_MS)
        self.reachable_poll.timeout.connect(self._poll_reachable)
        app.services_ready.connect(self.rescan)  # at start-up: changes made while Folio was closed
        app.documents_changed.connect(self._recount)

    # -- requests from the window ------------------------------------------------------------------
    def watch(self, paths: list[Path]) -> None:
        """Watch the folders among `paths` from now on (stored in the library; files among them
        are left alone) and bring them in step. Which paths are folders is asked on the worker."""
        folio = self.app.folio
        if folio is None or not paths:
            return

        def watch(_ctx: TaskContext) -> list[str]:
            refused: list[str] = []
            for path in paths:
                if path.is_dir():
                    try:
                        folio.library.watch_folder(path)
                    except FolioError as error:  # e.g. inside a watched folder: ingested, not watched
                        refused.append(str(error))
            return refused

        def watched(refused: list[str]) -> None:
            for reason in refused:
                self.message.emit(self.tr("Not watched: {0}").format(reason))
            self.rescan()

        self.app.runner.submit(
            Resource.STORE,
            watch,
            name="watch folders",
            on_success=watched,
            on_failure=self.app.reporter.report,
        )

    def unwatch(self, folder: str) -> None:
        """Stop watching `folder`; its documents stay in the library."""
        folio = self.app.folio
        if folio is None:
            return
        self.app.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.library.unwatch_folder(folder),
            name="stop watching",
            on_success=lambda _done: self.rescan(),
            on_failure=self.app.reporter.report,
        )

    def confirm_deletions(self) -> None:
        """Remove the documents of the deleted files awaiting an answer."""
        for document_id in list(self.pending):
            self.app.remove_document(document_id)
        self.pending.clear()
        self.deletions_pending.emit([])

    def keep_deletions(self) -> None:
        """Keep those documents (not asked again until Folio starts again)."""
        self._kept.update(self.pending)
        self.pending.clear()
        self.deletions_pending.emit([])

    def _recount(self, documents: list[DocumentInfo]) -> None:
        from app.core.api import recount

        if self.states:
            self.states = recount(self.states, documents)
            self.states_changed.emit(self.states)

    # -- scanning --------------------------------------------------------------------------------------
    def _changed(self, _path: str) -> None:
        self.debounce.start()

    def _poll_reachable(self) -> None:
        """On the store worker (a removed drive can make a stat slow): a folder that went offline
        or came back is scanned at once."""
        if self.app.folio is None:  # closed (or being re-opened): nothing to look at
            self.reachable_poll.stop()
            return
        if self._polling or self._scanning or not self.states:
            return
        self._polling = True
        known = [(state.path, state.documents > 0, state.offline) for state in self.states]

        def look(_ctx: TaskContext) -> bool:
            from app.core.api import offline_reason

            return any(bool(offline_reason(Path(path), held)) != was for path, held, was in known)

        def looked(moved: bool) -> None:
            self._polling = False
            if moved:
                self.rescan()

        def failed(error: BaseException, details: str) -> None:
            self._polling = False
            self.app.reporter.report(error, details)

        self.app.runner.submit(
            Resource.STORE, look, name="look at folders", on_success=looked, on_failure=failed
        )

    def rescan(self) -> None:
        """Scan every watched folder on the store worker and act on what changed."""
        folio = self.app.folio
        if folio is None or self.app.reindexing:
            return
        if self._scanning:
            self._again = True
            return
        self._scanning = True

        def scan(_ctx: TaskContext) -> Scanned:
            from app.core.api import folder_states

            scans = [folio.library.scan_folder(folder.path) for folder in folio.library.watched_folders()]
            states = folder_states(folio.library.watched_folders(), folio.library.documents())
            return scans, states, _paths_to_watch(scans)

        self.app.runner.submit(
            Resource.STORE, scan, name="scan folders", on_success=self._scanned, on_failure=self._failed
        )

    def _failed(self, error: BaseException, details: str) -> None:
        self._scanning = False
        self.app.reporter.report(error, details)

    def _scanned(self, result: Scanned) -> None:
        scans, states, wanted = result
        self._scanning = False
        self.states = states
        self._watch(wanted)
        if states:
            self.reachable_poll.start()
        else:
            self.reachable_poll.stop()
        self.states_changed.emit(states)
        if any(scan.moved for scan in scans):
            self.app.refresh_documents()
        paths = [path for scan in scans for path in scan.to_ingest]
        if paths:
            self.ingest.add(paths)
        problems = [problem for scan in scans for problem in scan.unreadable]
        if problems:
            first = problems[0]
            text = self.tr("%n file(s) in watched folders could not be read; {0}: {1}", "", len(problems))
            self.message.emit(text.format(Path(first.path).name, first.reason))
        self._deleted([document for scan in scans for document in scan.deleted])
        if self._again:
            self._again = False
            self.rescan()

    def _deleted(self, documents: list[DocumentInfo]) -> None:
        policy = self.app.settings.folder_deletions
        gone = [d for d in documents if d.id not in self._kept]
        if policy == "never":  # kept, and not asked about
            gone = []
        elif policy == "always":
            for document in gone:
                self.app.remove_document(document.id)
            gone = []
        # every folder was scanned: a file that came back (or whose folder went offline) is no
        # longer asked about
        pending = {d.id: d for d in gone}
        if pending.keys() != self.pending.keys():
            self.pending = pending
            self.deletions_pending.emit(list(pending.values()))

    def _watch(self, wanted: set[str]) -> None:
        current = set(self.watcher.directories())
        if current - wanted:
            self.watcher.removePaths(sorted(current - wanted))
        if wanted - current:
            refused = set(self.watcher.addPaths(sorted(wanted - current))) - self._refused
            self._refused |= refused
            if refused:  # the system's limit of watches (inotify: max_user_watches) reached
                text = self.tr(
                    "%n folder(s) cannot be watched (a system limit); their changes are seen at the "
                    "next start or the next change elsewhere in the folder",
                    "",
                    len(refused),
                )
                self.message.emit(text)


def _paths_to_watch(scans: list[FolderScan]) -> set[str]:
    """Each folder and its subfolders; for an offline folder, its nearest existing parent (so its
    return is seen at once where the system tells). Run on the store worker: it touches the disk."""
    wanted: set[str] = set()
    for scan in scans:
        if not scan.offline:
            wanted.update(scan.directories)
            continue
        parent = Path(scan.folder).parent
        while not parent.is_dir() and parent != parent.parent:
            parent = parent.parent
        wanted.add(str(parent))
    return wanted
