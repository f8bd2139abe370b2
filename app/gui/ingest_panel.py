"""Ingestion progress: a bar per file and overall, pages done / total, time left, Cancel."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.ingest_controller import Batch, IngestController
from app.gui.language import is_language_change
from app.gui.readout import duration

if TYPE_CHECKING:
    from app.core.api import IngestProgress

MAX_ROWS = 200  # keep the most recent files; a folder of thousands should not build thousands of bars


class IngestPanel(QFrame):
    """Subscribes to the ingest controller; hidden while nothing is being ingested."""

    def __init__(self, controller: IngestController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ingestPanel")
        self.controller = controller
        self.title = QLabel(self)
        self.title.setObjectName("ingestTitle")
        self.overall = QProgressBar(self)
        self.overall.setObjectName("overallProgress")
        self.overall.setRange(0, 1000)
        self.overall.setTextVisible(False)
        self.detail = QLabel(self)
        self.detail.setObjectName("ingestDetail")
        self.cancel = QPushButton(self)
        self.cancel.setObjectName("cancelIngest")
        self.files = QTreeWidget(self)
        self.files.setObjectName("ingestFiles")
        self.files.setRootIsDecorated(False)
        self.files.setMaximumHeight(150)
        self.files.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.files.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(2, 90)
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addStretch(1)
        top.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.overall)
        layout.addWidget(self.detail)
        layout.addWidget(self.files)
        self.rows: dict[str, tuple[QTreeWidgetItem, QProgressBar]] = {}
        self.setVisible(False)
        controller.busy_changed.connect(self._busy)
        controller.file_progress.connect(self._file)
        controller.overall_progress.connect(self._overall)
        self.cancel.clicked.connect(controller.cancel)
        self.retranslate()

    def retranslate(self) -> None:
        """The fixed texts; the progress lines are re-written by the next progress report."""
        self.title.setText(self.tr("Indexing…"))
        self.cancel.setText(self.tr("Cancel"))
        self.files.setHeaderLabels([self.tr("File"), self.tr("Pages"), self.tr("Progress")])

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def _busy(self, busy: bool) -> None:
        if busy:
            self.files.clear()
            self.rows.clear()
            self.overall.setValue(0)
            self.detail.setText(self.tr("Starting…"))
        self.setVisible(busy)

    def _file(self, progress: IngestProgress) -> None:
        row = self.rows.get(progress.path)
        if row is None:
            item = QTreeWidgetItem([Path(progress.path).name, "", ""])
            item.setToolTip(0, progress.path)
            self.files.addTopLevelItem(item)
            bar = QProgressBar(self.files)
            bar.setMaximumHeight(14)
            bar.setTextVisible(False)
            self.files.setItemWidget(item, 2, bar)
            row = (item, bar)
            self.rows[progress.path] = row
            while self.files.topLevelItemCount() > MAX_ROWS:
                old = self.files.takeTopLevelItem(0)
                if old is not None:
                    self.rows.pop(old.toolTip(0), None)
            self.files.scrollToItem(item)
        item, bar = row
        total = max(progress.pages_total, 1)
        bar.setRange(0, total)
        bar.setValue(min(progress.pages_done, total) if progress.stage == "parsing" else total)
        if progress.stage == "unchanged":
            item.setText(1, self.tr("already indexed"))
        elif progress.stage == "failed":
            item.setText(1, self.tr("failed"))
        elif progress.stage == "ocr":
            item.setText(1, self.tr("{0}/{1} · OCR").format(progress.pages_done, progress.pages_total))
        else:
            item.setText(1, f"{progress.pages_done}/{progress.pages_total}")

    def _overall(self, batch: Batch) -> None:
        self.overall.setValue(round(batch.eta.fraction * 1000))
        parts = [
            self.tr("file {0} of {1}").format(min(batch.files_done + 1, batch.file_count), batch.file_count),
            self.tr("{0} pages done").format(batch.pages_done),
        ]
        if batch.ocr_page is not None:
            parts.append(self.tr("reading page {0} by OCR (a few seconds a page)").format(batch.ocr_page))
        eta = batch.eta.eta_seconds()
        if eta is not None:
            parts.append(self.tr("about {0} left").format(duration(eta * 1000)))
        queued = len(self.controller.batches) - 1
        if queued > 0:
            parts.append(self.tr("%n more batch(es) queued", "", queued))
        self.detail.setText(" · ".join(parts))
