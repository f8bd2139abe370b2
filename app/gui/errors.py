"""Show failures: a plain message for the user's environment, copyable details for a bug."""

from __future__ import annotations

import logging
import platform
import sys

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.api import FolioError
from app.gui.core_text import error_text

log = logging.getLogger(__name__)


class BugDialog(QDialog):
    """An unexpected error: what happened, and details the user can copy into a report."""

    def __init__(self, parent: QWidget | None, summary: str, details: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Folio: unexpected error"))
        self.details = details
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Something went wrong inside Folio. This is a bug; please report it with the details below."
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        message = QLabel(summary)
        message.setWordWrap(True)
        message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(message)
        text = QPlainTextEdit(details)
        text.setReadOnly(True)
        text.setMinimumSize(560, 220)
        layout.addWidget(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton(self.tr("Copy details"))
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        copy.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details)


class ErrorReporter(QObject):
    """The one place failures are shown; emits `shown` so tests and logs can see every dialog."""

    shown = Signal(str, str)  # kind ("problem" | "bug"), message

    def __init__(self, parent_widget: QWidget | None = None) -> None:
        super().__init__(parent_widget)
        self._parent_widget = parent_widget
        self.history: list[tuple[str, str]] = []

    def report(self, error: BaseException | object, details: str = "") -> None:
        """Show `error`: FolioError as a plain message, anything else as a bug with details."""
        if isinstance(error, FolioError):
            self.problem(error_text(error))
            return
        summary = f"{type(error).__name__}: {error}"
        log.error("unexpected error: %s\n%s", summary, details)
        full = f"{summary}\n\n{details}\nPython {sys.version.split()[0]} on {platform.platform()}"
        self.history.append(("bug", summary))
        self.shown.emit("bug", summary)
        dialog = BugDialog(self._parent_widget, summary, full)
        dialog.setModal(True)
        dialog.open()

    def problem(self, message: str, title: str = "") -> None:
        """A known problem the user can act on, shown as is."""
        self.history.append(("problem", message))
        self.shown.emit("problem", message)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            title or self.tr("Folio"),
            message,
            QMessageBox.StandardButton.Ok,
            self._parent_widget,
        )
        box.setModal(True)
        box.open()
