"""Re-index the open library with the default embedder on the store worker, then open the new one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.core.api import reindex_folder
from app.gui.app_controller import AppController
from app.gui.ingest_controller import EtaEstimator
from app.gui.tasks import Resource, TaskContext, TaskHandle

if TYPE_CHECKING:
    from app.core.api import IngestProgress, IngestReport, RereadAdvice


class ReindexController(QObject):
    """Asks the library whether it should be re-indexed (or the documents an earlier Folio read,
    read again) once its embedder is loaded, and runs the re-index when the user says so: every
    document read again into a folder beside the library, which then takes the library's place (the
    old one is kept beside it). Signals arrive on the GUI thread; the GUI thread never waits."""

    advised = Signal(object)  # ReindexAdvice or RereadAdvice: the library should be re-indexed, and why
    reread_requested = Signal(object)  # tuple[int, ...]: the documents to read again in place
    progress = Signal(float, object)  # fraction done, seconds left (None until known)
    finished = Signal(str, bool)  # what happened, for the user; whether the library was re-indexed
    running_changed = Signal(bool)

    def __init__(self, app: AppController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.handle: TaskHandle | None = None
        self._eta = EtaEstimator()
        app.embedder_warm.connect(self.check)

    @property
    def running(self) -> bool:
        return self.handle is not None

    def check(self) -> None:
        folio = self.app.folio
        if folio is None or self.running:
            return
        self.app.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.library.reindex_advice() or folio.library.reread_advice(),
            name="reindex advice",
            on_success=lambda advice: self.advised.emit(advice) if advice is not None else None,
        )

    def reread(self, advice: RereadAdvice) -> bool:
        """Read the advice's documents again in place, as the library panel's Re-index does (the
        ingest queue shows the progress; each keeps its passages until its new ones are stored).
        False while the library re-index runs (it reads every document again anyway)."""
        if self.running:
            return False
        self.reread_requested.emit(advice.documents)
        return True

    def start(self) -> None:
        folio = self.app.folio
        if folio is None or self.running:
            return
        self._eta = EtaEstimator()

        def run(ctx: TaskContext) -> tuple[Path, IngestReport]:
            into = reindex_folder(folio.library_dir)  # emptied of an earlier, unfinished try
            return into, folio.library.reindex_library(into, progress=ctx.progress, cancel=ctx.cancel)

        self.handle = self.app.runner.submit(
            Resource.STORE,
            run,
            name="reindex library",
            on_progress=self._on_progress,
            on_success=self._on_done,
            on_failure=self._on_failed,
            on_cancelled=self._on_cancelled,
        )
        self.app.reindexing = True
        self.running_changed.emit(True)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()

    def _on_progress(self, value: IngestProgress) -> None:
        self._eta.update(value.file_index, value.file_count, value.file_fraction)
        self.progress.emit(self._eta.fraction, self._eta.eta_seconds())

    def _end(self) -> None:
        self.handle = None
        self.app.reindexing = False
        self.running_changed.emit(False)

    def _on_done(self, result: tuple[Path, IngestReport]) -> None:
        into, report = result
        self._end()
        if report.cancelled:
            self._on_cancelled()
            return
        if report.failed:
            names = ", ".join(Path(f.path).name for f in report.failed[:3])
            self.finished.emit(
                self.tr(
                    "Re-index stopped: {0} could not be read again (moved or deleted?). "
                    "The library is unchanged."
                ).format(names),
                False,
            )
            return
        self.finished.emit(
            self.tr("Re-indexed %n document(s); opening the re-indexed library…", "", len(report.files)), True
        )
        self.app.replace_library(into)

    def _on_failed(self, error: BaseException, details: str) -> None:
        self._end()
        self.finished.emit(self.tr("Re-index failed; the library is unchanged."), False)
        self.app.reporter.report(error, details)

    def _on_cancelled(self) -> None:
        self._end()
        self.finished.emit(self.tr("Re-index cancelled; the library is unchanged."), False)
