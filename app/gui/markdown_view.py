"""The answer's text: streamed Markdown rendered once per settled block, citations as links Tab reaches."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSizeF, Qt, QUrl, Signal
from PySide6.QtGui import QCursor, QTextCursor, QTextDocumentFragment
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QToolTip, QWidget

from app.core.api import SentenceCheck
from app.gui.answer_marks import annotated_markdown, mark_unsupported
from app.gui.markdown_stream import MarkdownStream, link_citations

ZWSP = "\u200b"  # merges into the previous block when a settled fragment is appended


class MarkdownView(QTextBrowser):
    """Read-only Markdown that grows to fit its text; [n] links emit `citation_clicked(n, sentence)`
    (sentence -1 while streaming); hovering a link says who cited it."""

    citation_clicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.setAcceptDrops(False)
        self.setTabChangesFocus(False)  # Tab walks the citation links, then leaves; Enter opens one
        self.setAccessibleName(self.tr("Answer"))
        self.setAccessibleDescription(self.tr("Tab moves through the citations; Enter opens the cited page"))
        self.anchorClicked.connect(self._anchor)
        self.highlighted.connect(self._hover)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._stream = MarkdownStream()
        self._tail_start = 0
        self.setFixedHeight(24)

    def _fit(self, size: QSizeF) -> None:
        margins = self.contentsMargins()
        self.setFixedHeight(int(size.height()) + margins.top() + margins.bottom() + 2)

    def _anchor(self, url: QUrl) -> None:
        target = _citation_target(url)
        if target is not None:
            self.citation_clicked.emit(*target)

    def _hover(self, url: QUrl) -> None:
        target = _citation_target(url)
        if target is None:
            QToolTip.hideText()
            return
        n = target[0]
        if url.scheme() == "match":
            tip = self.tr("Found by Folio: the model did not cite this sentence; passage [{0}] supports it")
        else:
            tip = self.tr("Cited by the model, and passage [{0}] supports the sentence")
        QToolTip.showText(QCursor.pos(), tip.format(n), self)

    def append_streamed(self, text: str) -> None:
        """Render newly settled blocks once and re-render only the unfinished tail."""
        settled, tail = self._stream.feed(text)
        document = self.document()
        cursor = QTextCursor(document)
        cursor.setPosition(self._tail_start)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        if settled:
            self._insert(cursor, settled)
            self._tail_start = cursor.position()
        if tail:
            self._insert(cursor, tail)

    def _insert(self, cursor: QTextCursor, markdown: str) -> None:
        prefix = "" if cursor.position() == 0 else ZWSP + "\n\n"
        cursor.insertFragment(QTextDocumentFragment.fromMarkdown(prefix + link_citations(markdown)))

    def set_final(
        self, markdown: str, valid: set[int] | None, sentences: Sequence[SentenceCheck] = ()
    ) -> None:
        """The finished answer: one full render, citations checked sentence by sentence when the
        sentences were verified, unsupported sentences underlined."""
        self._stream = MarkdownStream()
        self._tail_start = 0
        if not sentences:
            self.setMarkdown(link_citations(markdown, valid))
            return
        self.setMarkdown(annotated_markdown(markdown, sentences))
        mark_unsupported(
            self.document(),
            sentences,
            self.tr("Not found in the cited passages"),
            self.tr("In the passages, but not about what you asked"),
        )


def _citation_target(url: QUrl) -> tuple[int, int] | None:
    """(passage, sentence) of a `cite:n`, `cite:n-i` or `match:n-i` link; sentence -1 if none."""
    if url.scheme() not in ("cite", "match"):
        return None
    number, _, sentence = url.path().partition("-")
    if not number.isdigit() or (sentence and not sentence.isdigit()):
        return None
    return int(number), int(sentence) if sentence else -1
