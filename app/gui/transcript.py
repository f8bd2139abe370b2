"""The chat pane: questions and answers stacked in a scroll area that follows the newest text."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.core.api import FORMATS
from app.gui.answer_state import AnswerState
from app.gui.answer_view import AnswerView, QuestionView
from app.gui.core_text import core_text
from app.gui.language import is_language_change


class Transcript(QScrollArea):
    """Holds one widget per message; an update touches only the streaming answer's widget."""

    citation_activated = Signal(object, str)  # Citation, supporting text
    continue_requested = Signal(object)
    budget_requested = Signal(object)
    copy_requested = Signal(object)  # AnswerState

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the answers' own widgets
        self.setAccessibleName(self.tr("Chat"))
        self._content = QWidget(self)
        self._content.setObjectName("transcriptContent")
        self._layout = QVBoxLayout(self._content)
        self._layout.setContentsMargins(16, 16, 16, 16)
        self._layout.setSpacing(10)
        self._empty = QLabel(self._content)
        self._empty.setObjectName("emptyHint")
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty.setWordWrap(True)
        self.retranslate()
        self._layout.addWidget(self._empty, 1)
        self._layout.addStretch(0)
        self.setWidget(self._content)
        self._follow = True
        self.verticalScrollBar().rangeChanged.connect(self._range_changed)
        self.verticalScrollBar().valueChanged.connect(self._value_changed)
        self.answer_views: list[AnswerView] = []

    def retranslate(self) -> None:
        """The empty chat's hint; each answer re-sets its own texts (AnswerView.retranslate)."""
        self._empty.setText(
            self.tr(
                "<h2>Ask your documents</h2>"
                "<p>Drop files (or whole folders) anywhere on this window, or use <b>Add documents…</b>"
                " (Ctrl+O). Then ask a question below.</p>"
                "<p>Folio reads %1 files.</p>"
                "<p>Answers cite their sources as [1], [2]… — click one to open the page.</p>"
            ).replace("%1", self.format_names())
        )

    def format_names(self) -> str:
        """'PDF, Word, … and text' in the window's language (app/core/formats.py's list)."""
        names = [core_text(f.name) for f in FORMATS]
        return self.tr("{0} and {1}").format(self.tr(", ").join(names[:-1]), names[-1])

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def clear(self) -> None:
        while self._layout.count() > 2:
            item = self._layout.takeAt(1)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.answer_views.clear()
        self._empty.setVisible(True)
        self._layout.setStretch(0, 1)
        self._follow = True

    def add_question(self, question: str) -> QuestionView:
        view = QuestionView(question, self._content)
        self._append(view)
        return view

    def add_answer(self, state: AnswerState) -> AnswerView:
        view = AnswerView(state, self._content)
        view.citation_activated.connect(self.citation_activated)
        view.continue_requested.connect(self.continue_requested)
        view.budget_requested.connect(self.budget_requested)
        view.copy_requested.connect(self.copy_requested)
        self.answer_views.append(view)
        self._append(view)
        self._follow = True
        return view

    def current_answer(self) -> AnswerState | None:
        """The answer holding the keyboard focus, else the newest finished one."""
        focus = QApplication.focusWidget()
        for view in self.answer_views:
            if focus is not None and (focus is view or view.isAncestorOf(focus)):
                return view.state
        finished = [view.state for view in self.answer_views if view.state.final is not None]
        return finished[-1] if finished else None

    def focus_order(self) -> list[QWidget]:
        return [widget for view in self.answer_views for widget in view.focus_order()]

    def _append(self, widget: QWidget) -> None:
        self._empty.setVisible(False)
        self._layout.setStretch(0, 0)
        self._layout.insertWidget(self._layout.count() - 1, widget)

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        if self._follow:
            self.verticalScrollBar().setValue(maximum)

    def _value_changed(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._follow = value >= bar.maximum() - 4
