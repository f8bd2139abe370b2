"""The built-in viewer: a cited PDF page (QtPdf) with the passage found and selected; text otherwise."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtPdf import QPdfDocument, QPdfSearchModel
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.passage import Citation

SEARCH_WORDS = 6  # how many words of the passage to search for on the page


def search_phrase(passage: str, page_text: str) -> str:
    """Words from as near the passage's start as possible (up to SEARCH_WORDS, at least 3) that
    appear verbatim on one line of the page: what the PDF search can find and select."""
    words = passage.split()
    lines = [" ".join(line.split()) for line in page_text.splitlines()]
    for minimum in (3, 1):
        for start in range(len(words)):
            for size in range(min(SEARCH_WORDS, len(words) - start), minimum - 1, -1):
                phrase = " ".join(words[start : start + size])
                if len(phrase) >= 4 and any(phrase in line for line in lines):
                    return phrase
    return ""


def shared_words(passage: str, page_text: str) -> int:
    """How many 4-word runs of the passage occur on the page (which page holds most of it)."""
    words = passage.split()
    page = " ".join(page_text.split())
    return sum(1 for i in range(max(1, len(words) - 3)) if " ".join(words[i : i + 4]) in page)


class PdfViewer(QWidget):
    """A top-level window: QPdfView at the cited page, the passage highlighted, its text beside."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("pdfViewer")
        self.resize(980, 760)
        self.document = QPdfDocument(self)
        self.search = QPdfSearchModel(self)
        self.search.setDocument(self.document)
        self.view = QPdfView(self)
        self.view.setObjectName("pdfView")
        self.view.setDocument(self.document)
        self.view.setSearchModel(self.search)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.title = QLabel(self)
        self.title.setObjectName("viewerTitle")
        self.page_label = QLabel(self)
        self.previous = QPushButton(self.tr("◀ Previous page"), self)
        self.next = QPushButton(self.tr("Next page ▶"), self)
        self.previous.clicked.connect(lambda: self.go_to_page(self.current_page() - 1))
        self.next.clicked.connect(lambda: self.go_to_page(self.current_page() + 1))
        self.passage = QPlainTextEdit(self)
        self.passage.setObjectName("viewerPassage")
        self.passage.setReadOnly(True)
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.previous)
        header.addWidget(self.page_label)
        header.addWidget(self.next)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(QLabel(self.tr("Passage"), side))
        side_layout.addWidget(self.passage)
        self.splitter = QSplitter(self)
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(side)
        self.splitter.setSizes([700, 260])
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.splitter, 1)
        self.path = ""
        self.target_page = 0  # 0-based
        self.phrase = ""
        self.highlighted = False
        self.search.rowsInserted.connect(self._search_results)
        self.view.pageNavigator().currentPageChanged.connect(self._page_changed)

    # -- showing a citation --------------------------------------------------------------------
    def show_citation(self, citation: Citation, evidence: str = "") -> None:
        """Open the cited document at its page and select the passage there (PDF), or show the text;
        `evidence`, the passage's sentence(s) that support the answer, is what gets highlighted."""
        path = citation.path
        page = max(1, citation.page)
        text = citation.text
        document = citation.document or Path(path).name
        self.passage.setPlainText(text)
        self.highlighted = False
        is_pdf = path.lower().endswith(".pdf") and Path(path).is_file()
        self.view.setVisible(is_pdf)
        for button in (self.previous, self.next, self.page_label):
            button.setVisible(is_pdf)
        if not is_pdf:
            self.title.setText(self.tr("{0}, p. {1} — the passage as indexed").format(document, page))
            self.setWindowTitle(self.tr("{0} — Folio").format(document))
            return
        if path != self.path:
            self.search.setSearchString("")
            self.document.load(path)
            self.path = path
        self.setWindowTitle(self.tr("{0} — Folio").format(document))
        last = max(1, self.document.pageCount())
        page_end = min(max(page, citation.page_end), last)
        page = min(page, last)
        if page_end > page:  # a passage across a page break: show the page holding most of it
            page = max(
                range(page, page_end + 1),
                key=lambda p: (shared_words(text, self.document.getAllText(p - 1).text()), -p),
            )
        self.target_page = page - 1
        self.title.setText(self.tr("{0}, page {1}").format(document, page))
        self.go_to_page(self.target_page)
        # the view lays pages out when shown; jump again once it has
        QTimer.singleShot(0, lambda: self.go_to_page(self.target_page))
        page_text = self.document.getAllText(self.target_page).text()
        self.phrase = search_phrase(evidence, page_text) if evidence else ""
        self.phrase = self.phrase or search_phrase(text, page_text)
        if self.phrase:
            if self.search.searchString() == self.phrase:
                self._search_results()
            else:
                self.search.setSearchString(self.phrase)

    def current_page(self) -> int:
        return int(self.view.pageNavigator().currentPage())

    def go_to_page(self, page: int) -> None:
        if 0 <= page < self.document.pageCount():
            self.view.pageNavigator().jump(page, QPointF(), self.view.zoomFactor())
            self._page_changed(page)

    def _page_changed(self, page: int) -> None:
        self.page_label.setText(self.tr("{0} / {1}").format(page + 1, self.document.pageCount()))
        self.previous.setEnabled(page > 0)
        self.next.setEnabled(page + 1 < self.document.pageCount())

    def _search_results(self) -> None:
        """Select the first match of the passage on the cited page (results arrive in batches)."""
        if self.highlighted or not self.phrase:
            return
        for row in range(self.search.count()):
            link = self.search.resultAtIndex(row)
            if link.page() == self.target_page:
                self.view.setCurrentSearchResultIndex(row)
                self.highlighted = True
                QTimer.singleShot(0, lambda found=link: self.view.pageNavigator().jump(found))
                return

    def selected_text(self) -> str:
        """The text of the highlighted match (empty if none): what the user sees selected."""
        index = self.view.currentSearchResultIndex()
        if not self.highlighted or index < 0:
            return ""
        link = self.search.resultAtIndex(index)
        rects = link.rectangles()
        if not rects:
            return ""
        selection = self.document.getSelection(link.page(), rects[0].topLeft(), rects[-1].bottomRight())
        return re.sub(r"\s+", " ", selection.text()).strip()
