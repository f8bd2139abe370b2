"""One answer in the chat: thinking section, streamed Markdown, readout, banner and sources."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.api import Citation, bound_sentence, shown_heading, verdict_line
from app.gui.answer_state import DONE, FAILED, AnswerState
from app.gui.found_line import FoundLine
from app.gui.language import is_language_change
from app.gui.markdown_view import MarkdownView
from app.gui.readout import breakdown, final_readout, live_readout
from app.gui.step_line import StepLine

# a label whose links Tab reaches and Enter opens (and the mouse clicks)
LINKS = Qt.TextInteractionFlag.LinksAccessibleByKeyboard | Qt.TextInteractionFlag.LinksAccessibleByMouse


class AnswerView(QFrame):
    """Subscribes to one AnswerState; re-renders only itself, only when the state flushes."""

    citation_activated = Signal(object, str)  # Citation, the passage text that supports the sentence
    continue_requested = Signal(object)  # AnswerState
    budget_requested = Signal(object)  # AnswerState
    copy_requested = Signal(object)  # AnswerState

    def __init__(self, state: AnswerState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.setObjectName("answer")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(4)

        self._add_thinking(layout)

        self.found = FoundLine(self)
        self.found.sentence_activated.connect(self.citation_activated)
        layout.addWidget(self.found)
        self.steps = StepLine(self)
        layout.addWidget(self.steps)

        self.body = MarkdownView(self)
        self.body.setObjectName("answerBody")
        self.body.citation_clicked.connect(self._citation_number)
        layout.addWidget(self.body)

        self._add_banner(layout)

        self.support = QLabel(self)
        self.support.setObjectName("supportLine")
        self.support.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # Tab reads the verdict after the answer
        self.support.setVisible(False)
        layout.addWidget(self.support)

        self._add_figures(layout)
        self._add_sources(layout)

        self._set_fixed_texts()
        state.located_changed.connect(self._show_found)
        state.progress_changed.connect(self._show_step)
        state.text_flushed.connect(self._on_text)
        state.replaced.connect(self._on_replaced)
        state.figures_changed.connect(self._on_figures)
        state.finished.connect(self._on_finished)
        if state.located or (state.final is not None and state.final.located):
            self._show_found()
        if state.phase in (DONE, FAILED):
            self._on_finished()
        else:
            self._on_figures()

    def _add_thinking(self, layout: QVBoxLayout) -> None:
        """The collapsed thinking section: its toggle and its text, hidden until thinking streams."""
        self.thinking_toggle = QToolButton(self)
        self.thinking_toggle.setObjectName("thinkingToggle")
        self.thinking_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.thinking_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.thinking_toggle.setCheckable(True)
        self.thinking_toggle.setAutoRaise(True)
        self.thinking_toggle.toggled.connect(self._toggle_thinking)
        self.thinking_text = QPlainTextEdit(self)
        self.thinking_text.setObjectName("thinkingText")
        self.thinking_text.setReadOnly(True)
        self.thinking_text.setMaximumHeight(160)
        self.thinking_text.setVisible(False)
        self.thinking_toggle.setVisible(False)
        layout.addWidget(self.thinking_toggle)
        layout.addWidget(self.thinking_text)

    def _add_banner(self, layout: QVBoxLayout) -> None:
        """The cut-off banner with its Continue button, hidden until an answer is cut off."""
        self.banner = QFrame(self)
        self.banner.setObjectName("cutOffBanner")
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(8, 4, 8, 4)
        self.banner_label = QLabel(self.banner)
        self.banner_label.setWordWrap(True)
        self.continue_button = QPushButton(self.banner)
        self.continue_button.clicked.connect(lambda: self.continue_requested.emit(self.state))
        banner_layout.addWidget(self.banner_label, 1)
        banner_layout.addWidget(self.continue_button)
        self.banner.setVisible(False)
        layout.addWidget(self.banner)

    def _add_figures(self, layout: QVBoxLayout) -> None:
        """The live readout, the time breakdown, the token-budget link and the copy button."""
        self.readout = QLabel(self)
        self.readout.setObjectName("readout")
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.readout)
        details = QHBoxLayout()
        self.breakdown = QLabel(self)
        self.breakdown.setObjectName("breakdown")
        self.budget_link = QLabel(self)
        self.budget_link.setTextInteractionFlags(LINKS)
        self.budget_link.linkActivated.connect(lambda _link: self.budget_requested.emit(self.state))
        self.budget_link.setVisible(False)
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("copyAnswer")
        self.copy_button.clicked.connect(lambda: self.copy_requested.emit(self.state))
        self.copy_button.setVisible(False)
        details.addWidget(self.breakdown, 1)
        details.addWidget(self.budget_link)
        details.addWidget(self.copy_button)
        layout.addLayout(details)

    def _add_sources(self, layout: QVBoxLayout) -> None:
        """The sources line: the cited passages as links, hidden until the answer has sources."""
        self.sources = QLabel(self)
        self.sources.setObjectName("sources")
        self.sources.setWordWrap(True)
        self.sources.setTextFormat(Qt.TextFormat.RichText)
        self.sources.setTextInteractionFlags(LINKS)
        self.sources.linkActivated.connect(self._source_link)
        self.sources.setVisible(False)
        layout.addWidget(self.sources)

    def _set_fixed_texts(self) -> None:
        self.continue_button.setText(self.tr("Continue"))
        self.continue_button.setToolTip(self.tr("Let the model go on from where the answer was cut off"))
        budget = html.escape(self.tr("Token budget…"))  # outside the f-string: lupdate reads it
        self.budget_link.setText(f'<a href="budget">{budget}</a>')
        self.budget_link.setAccessibleName(self.tr("Token budget…"))
        self.copy_button.setText(self.tr("Copy answer with sources"))
        self.copy_button.setToolTip(self.tr("Copy the answer, its verdict and its sources as Markdown"))
        self.support.setAccessibleDescription(
            self.tr("The verdict: how much of the answer your documents support")
        )
        self.readout.setAccessibleName(self.tr("Answer figures"))
        self.breakdown.setAccessibleName(self.tr("Time spent per stage"))
        self.sources.setAccessibleName(self.tr("Sources"))
        self.sources.setAccessibleDescription(self.tr("Tab moves through the sources; Enter opens the page"))

    def retranslate(self) -> None:
        """Every text of this answer in the current language; the answer's own words stay."""
        self._set_fixed_texts()
        if self.state.phase in (DONE, FAILED):
            self._on_finished()
        else:
            self._on_figures()
            if self.state.thinking_text and self.state.answer_text:
                self._label_thinking()
            elif self.state.thinking_text:
                self.thinking_toggle.setText(self.tr("Thinking…"))

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    # -- streaming ------------------------------------------------------------------------------
    def _on_text(self, thinking: str, answer: str) -> None:
        if thinking:
            if not self.thinking_toggle.isVisible():
                self.thinking_toggle.setVisible(True)
            self.thinking_text.moveCursor(QTextCursor.MoveOperation.End)
            self.thinking_text.insertPlainText(thinking)
            self.thinking_toggle.setText(self.tr("Thinking…"))
        if answer:
            self.body.append_streamed(answer)
            if self.state.thinking_tokens:
                self._label_thinking()

    def _on_replaced(self) -> None:
        """The answer so far goes (it stated nothing, or gave a figure no passage states), and the
        banner says why, and what streams next."""
        self.body.set_final("", None)
        self._show_banner(self._replacement_text(), False)

    def _replacement_text(self) -> str:
        if self.state.withdrawn:  # answering/judge/invented.py
            return self.tr(
                "The model's answer gave a figure ({0}) that none of the passages Folio found states "
                "for this question; Folio withdrew it."
            ).format(self.state.withdrawn)
        # the same words for both ways of asking again (answering/pipeline/reask.py): from the
        # restatement's frame, or with the sentences Folio found
        return self.tr(
            "The first answer only repeated the question; Folio asked the model again for the answer."
        )

    def _on_figures(self) -> None:
        self.readout.setText(live_readout(self.state))

    def _toggle_thinking(self, shown: bool) -> None:
        self.thinking_text.setVisible(shown)
        self.thinking_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _label_thinking(self) -> None:
        seconds = self.state.thinking_seconds()
        if seconds is not None:
            self.thinking_toggle.setText(self.tr("Thought for {0} s").format(max(1, round(seconds))))
        else:
            self.thinking_toggle.setText(self.tr("Thinking"))

    # -- finished -------------------------------------------------------------------------------
    def _verdict_line(self) -> tuple[str, str]:
        """The line under the answer, in words, and its style (verdict_text.verdict_line)."""
        final = self.state.final
        if final is None:
            return "", ""
        return verdict_line(final.verdict, *final.support_counts(), QCoreApplication.translate)

    def _on_finished(self) -> None:
        state = self.state
        if state.thinking_text:
            self.thinking_toggle.setVisible(True)
            self.thinking_text.setPlainText(state.thinking_text)
            self._label_thinking()
        valid = {c.n for c in state.citations}
        sentences = state.final.sentences if state.final is not None else ()
        self.body.set_final(state.answer_text or "", valid, sentences)
        line, kind = self._verdict_line()
        self.support.setVisible(bool(line))
        self.support.setText(line)
        self.support.setProperty("kind", kind)
        self.support.setAccessibleName(line or self.tr("Verdict"))
        self.readout.setText(final_readout(state))
        self.readout.setAccessibleDescription(final_readout(state))
        self.breakdown.setText(breakdown(state))
        self.budget_link.setVisible(bool(state.budget))
        self.copy_button.setVisible(state.final is not None)
        reason = state.finish_reason
        if reason == "length":
            self._show_banner(self.tr("This answer was cut off: it reached the maximum answer length."), True)
        elif reason == "cancelled":
            self._show_banner(self.tr("Stopped: this answer is incomplete."), False)
        elif reason == "error" or state.phase == FAILED:
            self._show_banner(self.tr("The answer failed: {0}").format(state.error or reason), False)
        elif state.reasked_from:
            self._show_banner(self._replacement_text(), False)
        self._show_sources()
        self.steps.show_done(reason == "cancelled" or state.stopped)
        QTimer.singleShot(0, self.updateGeometry)

    def focus_order(self) -> list[QWidget]:
        """The widgets Tab visits in this answer, in reading order: the answer (its citations), the
        verdict, the sources, then the actions."""
        return [
            self.thinking_toggle,
            self.found,
            self.body,
            self.support,
            self.sources,
            self.continue_button,
            self.copy_button,
            self.budget_link,
        ]

    def _show_step(self) -> None:
        if self.state.progress is not None:
            self.steps.show_progress(self.state.progress)

    def _show_banner(self, text: str, can_continue: bool) -> None:
        self.banner_label.setText(text)
        self.continue_button.setVisible(can_continue)
        self.banner.setProperty("kind", "cutoff" if can_continue else "stopped")
        self.banner.setVisible(True)

    def _show_sources(self) -> None:
        citations = self.state.citations
        invalid = self.state.invalid_citations
        rows: list[str] = []
        if citations or invalid:
            sources = html.escape(self.tr("Sources"))
            rows.append(f"<b>{sources}</b>")
            for citation in sorted(citations, key=lambda c: c.n):
                rows.append(self._source_row(citation, "source"))
            not_a_passage = html.escape(self.tr("not one of the passages given to the model"))
            for n in invalid:
                rows.append(f'<span style="color:#b3261e">[{n}] {not_a_passage}</span>')
        elif self.state.passages_given and self.state.finish_reason != "cancelled":
            # nothing cited: say so, and still let the user check what the answer was based on
            rows.append(
                "<b>"
                + html.escape(self.tr("No sources cited."))
                + "</b> "
                + html.escape(self.tr("Passages given to the model:"))
            )
            for passage in self.state.passages_given:
                rows.append(self._source_row(passage, "passage"))
        self.sources.setText("<br>".join(rows))
        self.sources.setVisible(bool(rows))

    def _source_row(self, citation: Citation, scheme: str) -> str:
        page, page_end = citation.page, max(citation.page, citation.page_end)
        pages = (
            self.tr("p. {0}").format(page)
            if page_end == page
            else self.tr("pp. {0}–{1}").format(page, page_end)
        )
        final = self.state.final
        bound = bound_sentence(final, citation) if final is not None else ""
        snippet = " ".join((bound or citation.text).split())
        if len(snippet) > 140:
            snippet = snippet[:140].rsplit(" ", 1)[0] + "…"
        n = citation.n
        found = ""
        if scheme == "source" and citation.source == "matched":
            by_folio = html.escape(self.tr("found by Folio"))
            found = f' <span style="color:#666">({by_folio})</span>'
        heading = shown_heading(citation)
        under = f" · {html.escape(heading)}" if heading else ""
        return (
            f'<a href="{scheme}:{n}">[{n}] {html.escape(citation.document)}, {pages}{under}</a>{found}'
            f' — <span style="color:#666">“{html.escape(snippet)}”</span>'
        )

    def _show_found(self) -> None:
        final = self.state.final
        self.found.show_found(
            list(final.located) if final is not None and final.located else self.state.located
        )

    def _source_link(self, link: str) -> None:
        scheme, _, number = link.partition(":")
        if scheme == "source":
            self._citation_number(int(number))
        elif scheme == "passage":
            for passage in self.state.passages_given:
                if passage.n == int(number):
                    self.citation_activated.emit(passage, "")

    def _citation_number(self, n: int, sentence: int = -1) -> None:
        for citation in self.state.citations:
            if citation.n == n:
                self.citation_activated.emit(citation, self._evidence(citation, sentence))
                return

    def _evidence(self, citation: Citation, sentence: int) -> str:
        """The passage's own sentence(s) that support answer sentence `sentence` ("" if unknown)."""
        final = self.state.final
        if final is None or not 0 <= sentence < len(final.sentences):
            return ""
        spans = final.sentences[sentence].evidence.get(citation.n, ())
        return " ".join(citation.text[start:end].strip() for start, end in spans)


class QuestionView(QLabel):
    """The user's question, shown as a right-aligned bubble."""

    def __init__(self, question: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("question")
        self.setText(question)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
