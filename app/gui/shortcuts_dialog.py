"""Help › Keyboard shortcuts: each menu action's shortcut, read from the actions, and the views' keys."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.gui.i18n import QT_TRANSLATE_NOOP

# keys the views handle themselves (no menu action to read them from)
VIEW_KEYS = (
    (
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Send the question (in the question box)"),
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Enter"),
    ),
    (
        QT_TRANSLATE_NOOP("ShortcutsDialog", "New line in the question"),
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Shift+Enter"),
    ),
    (
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Next / previous control, citation or source"),
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Tab / Shift+Tab"),
    ),
    (
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Open the focused citation or source"),
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Enter"),
    ),
    (
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Press the focused button"),
        QT_TRANSLATE_NOOP("ShortcutsDialog", "Space"),
    ),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ShortcutsDialog", text)


def action_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(what it does, its keys) of every action with a shortcut, in menu order."""
    rows = []
    for action in actions:
        keys = [key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()]
        if keys:
            rows.append((action.text().replace("&", "").rstrip("…").rstrip("."), " / ".join(keys)))
    return rows


class ShortcutsDialog(QDialog):
    """A read-only two-column table; Esc or Close closes it."""

    def __init__(self, actions: Iterable[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        rows = action_rows(actions) + [(_tr(text), _tr(keys)) for text, keys in VIEW_KEYS]
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setObjectName("shortcutsTable")
        self.table.setAccessibleName(self.tr("Keyboard shortcuts"))
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table for the Close button
        for row, (text, keys) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(text))
            self.table.setItem(row, 1, QTableWidgetItem(keys))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.rows = rows
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(560, 600)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
