"""The library panel: documents (name, pages, chunks, status) and failed files with their reason."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.api import SECTION_KINDS
from app.gui.core_text import core_text
from app.gui.i18n import QT_TRANSLATE_NOOP
from app.gui.language import is_language_change

if TYPE_CHECKING:
    from app.core.api import DocumentInfo, IngestReport

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Failure:
    """A file that could not be ingested, kept in the list until dismissed."""

    path: str
    reason: str


class LibraryModel(QAbstractTableModel):
    """Rows: the library's documents, then failed files (until dismissed)."""

    COLUMNS = (
        QT_TRANSLATE_NOOP("LibraryModel", "Name"),
        QT_TRANSLATE_NOOP("LibraryModel", "Pages"),
        QT_TRANSLATE_NOOP("LibraryModel", "Chunks"),
        QT_TRANSLATE_NOOP("LibraryModel", "Status"),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.documents: list[DocumentInfo] = []
        self.failures: list[Failure] = []

    def set_documents(self, documents: list[DocumentInfo]) -> None:
        self.beginResetModel()
        self.documents = sorted(documents, key=lambda d: d.name.lower())
        paths = {d.path for d in documents}
        self.failures = [f for f in self.failures if f.path not in paths]
        self.endResetModel()

    def add_failures(self, report: IngestReport) -> None:
        new = [Failure(f.path, core_text(f.error) or self.tr("unknown error")) for f in report.failed]
        if not new:
            return
        self.beginResetModel()
        known = {f.path for f in new}
        self.failures = [f for f in self.failures if f.path not in known] + new
        self.endResetModel()

    def retranslate(self) -> None:
        """Headers and status texts are read through tr() when drawn: tell the views to draw again."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.COLUMNS) - 1)
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, len(self.COLUMNS) - 1))

    def dismiss(self, row: int) -> None:
        index = row - len(self.documents)
        if 0 <= index < len(self.failures):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self.failures[index]
            self.endRemoveRows()

    def row_kind(self, row: int) -> tuple[str, Any]:
        if row < len(self.documents):
            return "document", self.documents[row]
        return "failure", self.failures[row - len(self.documents)]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.documents) + len(self.failures)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.tr(self.COLUMNS[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        kind, item = self.row_kind(index.row())
        column = index.column()
        if kind == "document":
            return self._document_data(item, column, role)
        failure: Failure = item
        if role == Qt.ItemDataRole.DisplayRole:
            return (Path(failure.path).name, "", "", self.tr("failed: {0}").format(failure.reason))[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{failure.path}\n{failure.reason}"
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor("#b3261e"))
        return None

    def _status(self, document: DocumentInfo) -> str:
        status = self.tr("indexed") if document.status == "ready" else document.status
        if document.ocr_pages == 1:
            status += " · " + self.tr("1 page read by OCR")
        elif document.ocr_pages:
            status += " · " + self.tr("{0} pages read by OCR").format(document.ocr_pages)
        return status

    def _document_data(self, document: DocumentInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (document.name, document.pages, document.chunks, self._status(document))[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            if document.kind in SECTION_KINDS:
                size = self.tr("{0} sections").format(document.pages)
            else:
                size = self.tr("{0} pages").format(document.pages)
            tip = self.tr("{0}\n{1} · {2} chunks · {3:.1f} MB").format(
                document.path, size, document.chunks, document.size / 1_000_000
            )
            if document.ocr_pages:
                tip += "\n" + self.tr("{0} of them had no text layer and were read by OCR").format(
                    document.ocr_pages
                )
            return tip
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (1, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class LibraryPanel(QWidget):
    """The list plus its actions; emits requests, the main window wires them to controllers."""

    add_requested = Signal()
    remove_requested = Signal(int)  # document id
    reindex_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LibraryModel(self)
        self.table = QTableView(self)
        self.table.setAccessibleName(self.tr("Documents in the library"))
        self.table.setObjectName("libraryTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.add_button = QPushButton(self)
        self.remove_button = QPushButton(self)
        self.reindex_button = QPushButton(self)
        self.dismiss_button = QPushButton(self)
        self.retranslate()
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        buttons.addWidget(self.reindex_button)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.dismiss_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.add_button.clicked.connect(self.add_requested)
        self.remove_button.clicked.connect(self._remove)
        self.reindex_button.clicked.connect(self._reindex)
        self.dismiss_button.clicked.connect(self._dismiss)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.model.modelReset.connect(self._update_buttons)
        self.model.rowsRemoved.connect(self._update_buttons)
        self._update_buttons()

    def retranslate(self) -> None:
        self.add_button.setText(self.tr("Add documents…"))
        self.add_button.setToolTip(
            self.tr("Add PDF (scanned too), Word, EPUB, web page, text or Markdown files (Ctrl+O)")
        )
        self.remove_button.setText(self.tr("Remove"))
        self.reindex_button.setText(self.tr("Re-index"))
        self.dismiss_button.setText(self.tr("Dismiss"))
        self.dismiss_button.setToolTip(self.tr("Remove this failure from the list"))
        self.model.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def selected_row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def select_row(self, row: int) -> None:
        self.table.selectRow(row)

    def _update_buttons(self) -> None:
        row = self.selected_row()
        kind = self.model.row_kind(row)[0] if row is not None and row < self.model.rowCount() else None
        self.remove_button.setVisible(kind != "failure")
        self.reindex_button.setVisible(kind != "failure")
        self.remove_button.setEnabled(kind == "document")
        self.reindex_button.setEnabled(kind == "document")
        self.dismiss_button.setVisible(kind == "failure")

    def selected_name(self) -> str:
        """The file name of the selected document ("" when none is selected)."""
        document = self._selected_document()
        return document.name if document is not None else ""

    def _selected_document(self) -> DocumentInfo | None:
        row = self.selected_row()
        if row is None:
            return None
        kind, item = self.model.row_kind(row)
        return item if kind == "document" else None

    def _remove(self) -> None:
        document = self._selected_document()
        if document is not None:
            self.remove_requested.emit(document.id)

    def _reindex(self) -> None:
        document = self._selected_document()
        if document is not None:
            self.reindex_requested.emit(document.id)

    def _dismiss(self) -> None:
        row = self.selected_row()
        if row is not None and self.model.row_kind(row)[0] == "failure":
            self.model.dismiss(row)
