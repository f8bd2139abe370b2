"""The question row: a text box (Enter sends, Shift+Enter new line), the thinking switch, where the
answer reads (automatic, passages, each file, one whole document), Send/Stop."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMimeData, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.gui.language import is_language_change


def has_local_files(mime: QMimeData) -> bool:
    return mime.hasUrls() and any(url.isLocalFile() for url in mime.urls())


class QuestionEdit(QPlainTextEdit):
    """Plain-text question editor; file drops are left to the window (they add documents)."""

    submitted = Signal()
    stop_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
            else:
                self.submitted.emit()
            return
        if key == Qt.Key.Key_Escape:
            self.stop_requested.emit()
            return
        super().keyPressEvent(event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if has_local_files(event.mimeData()):
            event.ignore()  # let the main window take files
            return
        super().dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        if has_local_files(event.mimeData()):
            event.ignore()
            return
        super().dropEvent(event)


class QuestionBox(QWidget):
    """Emits `ask(question, thinking)` and `stop()`; the chat controller drives its busy state."""

    ask = Signal(str, bool)
    stop = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QuestionEdit(self)
        self.edit.setFixedHeight(72)
        self.edit.setObjectName("questionEdit")
        self.edit.setTabChangesFocus(True)  # Tab moves on; a question never needs a tab character
        self.thinking = QCheckBox(self)
        self.thinking.setObjectName("thinkingSwitch")
        self.thinking.setEnabled(False)
        self._thinking_reason: str | None = None  # why the loaded model cannot switch thinking
        self.scope = QComboBox(self)
        self.scope.setObjectName("scopeChoice")
        self._document_names: list[str] = []
        self.set_documents([])
        self.send = QPushButton(self)
        self.send.setObjectName("sendButton")
        self.send.setDefault(True)
        self.send.setMinimumWidth(88)
        self._busy = False

        side = QVBoxLayout()
        side.addWidget(self.thinking)
        side.addWidget(self.scope)
        side.addStretch(1)
        side.addWidget(self.send)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addLayout(side)

        self.edit.submitted.connect(self.submit)
        self.edit.stop_requested.connect(self._stop)
        self.send.clicked.connect(self._clicked)
        self.retranslate()

    def retranslate(self) -> None:
        self.edit.setPlaceholderText(
            self.tr("Ask a question about your documents…  (Enter sends, Shift+Enter new line)")
        )
        self.thinking.setText(self.tr("Thinking"))
        self.scope.setToolTip(
            self.tr(
                "Where the answer reads: chosen from the question, a few passages, one passage of "
                "each file, or a whole document (summarised in cited points)"
            )
        )
        self.scope.setAccessibleName(self.tr("Where the answer reads"))
        self.set_documents(self._document_names)
        self.edit.setAccessibleName(self.tr("Question"))
        self.edit.setAccessibleDescription(self.tr("Enter sends the question, Shift+Enter starts a new line"))
        self._thinking_tip()
        self.set_busy(self._busy)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def set_documents(self, names: list[str]) -> None:
        """The scope choices for a library of these documents; the current choice stays if it can."""
        current = self.scope.currentData() or "auto"
        self._document_names = list(names)
        self.scope.clear()
        self.scope.addItem(self.tr("Automatic"), "auto")
        self.scope.addItem(self.tr("Passages"), "passages")
        self.scope.addItem(self.tr("Each file"), "each-file")
        for name in sorted(names, key=str.lower):
            self.scope.addItem(self.tr("Whole: {0}").format(name), f"document:{name}")
        index = self.scope.findData(current)
        self.scope.setCurrentIndex(max(0, index))

    def scope_value(self) -> str:
        """The chosen scope, as AskOptions.scope takes it: auto, passages, each-file, document:NAME."""
        return str(self.scope.currentData() or "auto")

    @property
    def busy(self) -> bool:
        return self._busy

    def set_busy(self, busy: bool) -> None:
        """While an answer is generating the button reads Stop (Esc stops too)."""
        self._busy = busy
        self.send.setText(self.tr("Stop") if busy else self.tr("Send"))
        self.send.setToolTip(
            self.tr("Stop generating (Esc)") if busy else self.tr("Send the question (Enter)")
        )

    def set_thinking_support(self, supported: bool, reason: str) -> None:
        """Enable the switch only when the loaded model can switch thinking; say why otherwise."""
        self.thinking.setEnabled(supported)
        self._thinking_reason = None if supported else reason
        if not supported:
            self.thinking.setChecked(False)
        self._thinking_tip()

    def _thinking_tip(self) -> None:
        if self._thinking_reason is not None:  # a loaded model that cannot switch thinking
            self.thinking.setToolTip(
                self._thinking_reason or self.tr("The loaded model cannot switch thinking on or off.")
            )
        else:
            self.thinking.setToolTip(self.tr("Let the model reason before answering (this question only)"))

    def _clicked(self) -> None:
        if self._busy:
            self._stop()
        else:
            self.submit()

    def submit(self) -> None:
        """Send the typed question (nothing while an answer is generating or the box is empty)."""
        if self._busy:
            return
        question = self.edit.toPlainText().strip()
        if not question:
            return
        self.edit.clear()
        self.ask.emit(question, self.thinking.isChecked())

    def _stop(self) -> None:
        if self._busy:
            self.stop.emit()
