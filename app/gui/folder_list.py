"""The watched folders above the library's documents (watched or offline), and the deleted-files notice."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.folder_watcher import FolderWatcher
from app.gui.language import is_language_change

if TYPE_CHECKING:
    from app.core.api import DocumentInfo, FolderState

OFFLINE_COLOUR = "#8a6d00"
ROWS_SHOWN = 3  # the list's height in rows before it scrolls


class FolderList(QWidget):
    """One row per watched folder: its name, its state and how many documents it holds."""

    watch_requested = Signal(list)  # [Path]
    unwatch_requested = Signal(str)

    def __init__(self, watcher: FolderWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(self)
        self.title.setStyleSheet("font-weight: 600;")
        self.list = QListWidget(self)
        self.list.setObjectName("watchedFolders")
        self.list.setAlternatingRowColors(True)
        row = self.list.fontMetrics().height() + 4
        self.list.setMaximumHeight(row * ROWS_SHOWN + 2 * self.list.frameWidth() + 4)
        self.empty = QLabel(self)
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet("color: palette(mid);")
        self.add_button = QPushButton(self)
        self.add_button.setObjectName("addFolder")
        self.remove_button = QPushButton(self)
        header = QHBoxLayout()
        header.addWidget(self.title)
        header.addStretch(1)
        header.addWidget(self.add_button)
        header.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.list)
        layout.addWidget(self.empty)
        self.add_button.clicked.connect(self._choose)
        self.remove_button.clicked.connect(self._unwatch)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.watch_requested.connect(watcher.watch)
        self.unwatch_requested.connect(watcher.unwatch)
        watcher.states_changed.connect(self.set_states)
        self._states: list[FolderState] = []
        self.retranslate()

    def retranslate(self) -> None:
        """Every text in the current language (at start and on LanguageChange)."""
        self.title.setText(self.tr("Watched folders"))
        self.empty.setText(
            self.tr("None yet: add a folder, or drop one here, and its new and changed files are added.")
        )
        self.add_button.setText(self.tr("Add folder…"))
        self.add_button.setToolTip(self.tr("Watch a folder: its files are added and kept up to date"))
        self.remove_button.setText(self.tr("Stop watching"))
        self.remove_button.setToolTip(self.tr("The folder's documents stay in the library"))
        self.set_states(self._states)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def set_states(self, states: list[FolderState]) -> None:
        self._states = list(states)
        selected = self._selected()
        self.list.clear()
        for state in states:
            name = Path(state.path).name or state.path
            if state.offline:
                text = self.tr("{0} — offline, {1} documents kept").format(name, state.documents)
            else:
                text = self.tr("{0} — watched, {1} documents").format(name, state.documents)
            item = QListWidgetItem(text, self.list)
            item.setData(Qt.ItemDataRole.UserRole, state.path)
            tip = state.path + (f"\n{state.reason}" if state.offline else "")
            item.setToolTip(tip)
            if state.offline:
                item.setForeground(QBrush(QColor(OFFLINE_COLOUR)))
            if state.path == selected:
                item.setSelected(True)
        self.list.setVisible(bool(states))
        self.empty.setVisible(not states)
        self._update_buttons()

    def _selected(self) -> str | None:
        items = self.list.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else None

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(self._selected() is not None)

    def _choose(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Watch a folder"))
        if path:
            self.watch_requested.emit([Path(path)])

    def _unwatch(self) -> None:
        selected = self._selected()
        if selected is not None:
            self.unwatch_requested.emit(selected)


class DeletionNotice(QFrame):
    """Files deleted from watched folders: remove their documents? Asked here, in the window,
    while everything else goes on (the `folder_deletions` setting "ask")."""

    def __init__(self, watcher: FolderWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deletionNotice")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#deletionNotice { background: #fff4ce; border: 1px solid #e0c36a; }")
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.remove_button = QPushButton(self)
        self.remove_button.setObjectName("removeDeleted")
        self.keep_button = QPushButton(self)
        self.keep_button.setObjectName("keepDeleted")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        self.remove_button.clicked.connect(watcher.confirm_deletions)
        self.keep_button.clicked.connect(watcher.keep_deletions)
        watcher.deletions_pending.connect(self.show_deleted)
        self._documents: list[DocumentInfo] = []
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        """Every text in the current language (at start and on LanguageChange)."""
        self.remove_button.setText(self.tr("Remove"))
        self.keep_button.setText(self.tr("Keep"))
        if self._documents:
            self._say(self._documents)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def show_deleted(self, documents: list[DocumentInfo]) -> None:
        self._documents = list(documents)
        if not documents:
            self.hide()
            return
        self._say(documents)
        self.show()

    def _say(self, documents: list[DocumentInfo]) -> None:
        names = ", ".join(d.name for d in documents[:3]) + ("…" if len(documents) > 3 else "")
        self.text.setText(
            self.tr(
                "%n file(s) were deleted from watched folders ({0}). Remove their documents from "
                "the library? Their answers in chats stay.",
                "",
                len(documents),
            ).format(names)
        )
