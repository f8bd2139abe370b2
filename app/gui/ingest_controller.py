"""Background ingestion: queue dropped paths on the store worker, report per-file and overall progress."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.gui.app_controller import AppController
from app.gui.tasks import Resource, TaskContext, TaskHandle

if TYPE_CHECKING:
    from app.core.api import IngestProgress, IngestReport


@dataclass
class EtaEstimator:
    """Overall fraction done and time left, from file counts and the current file's pages."""

    started_at: float = field(default_factory=time.monotonic)
    fraction: float = 0.0

    def update(self, file_index: int, file_count: int, within: float) -> None:
        """`within`: how far into file `file_index` (0..1), pages weighed by their cost (a page to
        OCR weighs many text pages: IngestProgress.file_fraction), so the time left says so."""
        if file_count <= 0:
            return
        self.fraction = min(1.0, max(self.fraction, (file_index + within) / file_count))

    def eta_seconds(self, now: float | None = None) -> float | None:
        """Seconds left at the rate so far; None until there is enough to go on."""
        elapsed = (now if now is not None else time.monotonic()) - self.started_at
        if self.fraction <= 0.02 or elapsed < 1.0:
            return None
        return elapsed * (1.0 - self.fraction) / self.fraction


@dataclass
class Batch:
    """One ingestion run: the paths asked for, and where it is."""

    paths: list[Path]
    eta: EtaEstimator = field(default_factory=EtaEstimator)
    handle: TaskHandle | None = None
    files_done: int = 0
    file_count: int = 0
    pages_done: int = 0  # over finished files plus the current one
    finished_pages: int = 0
    ocr_page: int | None = None  # the page being read by OCR right now


class IngestController(QObject):
    """Runs `folio.library.ingest` on the store worker; all signals arrive on the GUI thread."""

    busy_changed = Signal(bool)
    file_progress = Signal(object)  # IngestProgress
    overall_progress = Signal(object)  # Batch
    batch_finished = Signal(object)  # IngestReport
    batch_cancelled = Signal()
    message = Signal(str)

    def __init__(self, app: AppController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.batches: list[Batch] = []

    @property
    def busy(self) -> bool:
        return bool(self.batches)

    @property
    def current(self) -> Batch | None:
        return self.batches[0] if self.batches else None

    def add(self, paths: list[Path]) -> None:
        """Queue `paths` (files or folders) for ingestion behind any run in progress."""
        folio = self.app.folio
        if not paths:
            return
        if folio is None:
            self.message.emit(self.tr("The library is still opening; try again in a moment."))
            return
        if self.app.reindexing:  # it would be missing from the re-indexed library
            self.message.emit(self.tr("The library is being re-indexed; add documents when it is done."))
            return
        batch = Batch(list(paths))

        def run(ctx: TaskContext) -> IngestReport:
            return folio.library.ingest(batch.paths, progress=ctx.progress, cancel=ctx.cancel)

        def started_or_progress(value: Any) -> None:
            self._on_progress(batch, value)

        batch.handle = self.app.runner.submit(
            Resource.STORE,
            run,
            name="ingest",
            on_progress=started_or_progress,
            on_success=lambda report: self._on_done(batch, report),
            on_failure=lambda error, details: self._on_failed(batch, error, details),
            on_cancelled=lambda: self._on_cancelled(batch),
        )
        self.batches.append(batch)
        if len(self.batches) == 1:
            self.busy_changed.emit(True)

    def reindex(self, *document_ids: int) -> None:
        """Read these documents again in place, as one run of the queue."""
        folio = self.app.folio
        if folio is None or not document_ids:
            return
        batch = Batch([])
        batch.handle = self.app.runner.submit(
            Resource.STORE,
            lambda ctx: folio.library.reindex(*document_ids, progress=ctx.progress, cancel=ctx.cancel),
            name="reindex",
            on_progress=lambda value: self._on_progress(batch, value),
            on_success=lambda report: self._on_done(batch, report),
            on_failure=lambda error, details: self._on_failed(batch, error, details),
            on_cancelled=lambda: self._on_cancelled(batch),
        )
        self.batches.append(batch)
        if len(self.batches) == 1:
            self.busy_changed.emit(True)

    def cancel(self) -> None:
        """Stop the run in progress (the current file is rolled back) and drop queued runs."""
        for batch in self.batches:
            if batch.handle is not None:
                batch.handle.cancel()

    def _on_progress(self, batch: Batch, progress: IngestProgress) -> None:
        finished = progress.stage in ("done", "failed", "unchanged")
        batch.file_count = progress.file_count
        if finished:
            batch.files_done = max(batch.files_done, progress.file_index + 1)
        batch.eta.update(progress.file_index, progress.file_count, progress.file_fraction)
        batch.ocr_page = progress.pages_done + 1 if progress.stage == "ocr" else None
        if finished:
            batch.finished_pages += progress.pages_done
            batch.pages_done = batch.finished_pages
        else:
            batch.pages_done = batch.finished_pages + progress.pages_done
        self.file_progress.emit(progress)
        self.overall_progress.emit(batch)

    def _end(self, batch: Batch) -> None:
        if batch in self.batches:
            self.batches.remove(batch)
        if not self.batches:
            self.busy_changed.emit(False)
        self.app.refresh_documents()

    def _on_done(self, batch: Batch, report: IngestReport) -> None:
        self._end(batch)
        unchanged = [f for f in report.files if f.status == "unchanged"]
        changed = [f for f in report.files if f.status in ("added", "updated")]
        parts: list[str] = []
        if changed:
            parts.append(self.tr("%n document(s) indexed", "", len(changed)))
        if unchanged:
            names = ", ".join(f.document or Path(f.path).name for f in unchanged[:3])
            more = "…" if len(unchanged) > 3 else ""
            parts.append(self.tr("already indexed: {0}{1}").format(names, more))
        if report.failed:
            parts.append(self.tr("%n file(s) failed", "", len(report.failed)))
        if report.cancelled:
            parts.append(self.tr("cancelled"))
        if parts:
            self.message.emit("; ".join(parts))
        self.batch_finished.emit(report)

    def _on_failed(self, batch: Batch, error: BaseException, details: str) -> None:
        self._end(batch)
        self.app.reporter.report(error, details)

    def _on_cancelled(self, batch: Batch) -> None:
        self._end(batch)
        self.message.emit(self.tr("Ingestion cancelled"))
        self.batch_cancelled.emit()
