"""The built-in viewer: a cited PDF page (QtPdf) with the passage selected, or marked from its
OCR boxes on a scanned page; a cited section of a DOCX/HTML/EPUB as text with the passage marked."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtPdf import QPdfDocument, QPdfSearchModel
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.core.api import Citation
from app.gui.language import is_language_change
from app.gui.page_marks import MarkedPdfView

if TYPE_CHECKING:
    from app.core.api import PageLayerInfo

SEARCH_WORDS = 6  # how many words of the passage to search for on the page
MARK_BACKGROUND = QColor(255, 214, 77)
# (document path, 1-based page or section) -> its stored text, OCR boxes and paragraphs, if any.
LayerLookup = Callable[[str, int], "PageLayerInfo | None"]


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


def paragraph_display(text: str, paragraphs: tuple[int, ...]) -> tuple[str, Callable[[int], int]]:
    """A section's text with its paragraphs on lines of their own (blank line between), and a
    map from offsets in `text` to offsets in that display text."""
    starts = [0, *[p for p in paragraphs if 0 < p <= len(text)]]
    pieces: list[str] = []
    bases: list[int] = []
    position = 0
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        piece = text[start:end].rstrip()
        if pieces:
            position += 2
        bases.append(position)
        pieces.append(piece)
        position += len(piece)

    def to_display(offset: int) -> int:
        index = max(0, bisect_right(starts, offset) - 1)
        return bases[index] + min(max(0, offset - starts[index]), len(pieces[index]))

    return "\n\n".join(pieces), to_display


def utf16_offset(text: str, offset: int) -> int:
    """A Python string offset as a QString (UTF-16) position."""
    return len(text[:offset].encode("utf-16-le")) // 2


class PdfViewer(QWidget):
    """A top-level window: QPdfView at the cited page, the passage highlighted, its text beside.
    `layers` looks up the stored text of OCR'd pages and sections (see LayerLookup)."""

    def __init__(self, parent: QWidget | None = None, layers: LayerLookup | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("pdfViewer")
        self.resize(980, 760)
        self.layers = layers
        self.document = QPdfDocument(self)
        self.search = QPdfSearchModel(self)
        self.search.setDocument(self.document)
        self.view = MarkedPdfView(self)
        self.view.setObjectName("pdfView")
        self.view.setDocument(self.document)
        self.view.setSearchModel(self.search)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.title = QLabel(self)
        self.title.setObjectName("viewerTitle")
        self.page_label = QLabel(self)
        self.previous = QPushButton(self)
        self.next = QPushButton(self)
        self.previous.clicked.connect(lambda: self.go_to_page(self.current_page() - 1))
        self.next.clicked.connect(lambda: self.go_to_page(self.current_page() + 1))
        self.passage = QPlainTextEdit(self)
        self.passage.setObjectName("viewerPassage")
        self.passage.setReadOnly(True)
        self.section_text = QTextEdit(self)
        self.section_text.setObjectName("viewerSectionText")
        self.section_text.setReadOnly(True)
        self.section_text.setVisible(False)
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.previous)
        header.addWidget(self.page_label)
        header.addWidget(self.next)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        self.passage_label = QLabel(side)
        side_layout.addWidget(self.passage_label)
        self._set_fixed_texts()
        side_layout.addWidget(self.passage)
        main = QWidget(self)
        main_layout = QVBoxLayout(main)
        main_layout.setContentsMargins(0, 0, 0, 0)
        main_layout.addWidget(self.view)
        main_layout.addWidget(self.section_text)
        self.splitter = QSplitter(self)
        self.splitter.addWidget(main)
        self.splitter.addWidget(side)
        self.splitter.setSizes([700, 260])
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.splitter, 1)
        self.path = ""
        self.target_page = 0  # 0-based
        self.phrase = ""
        self.highlighted = False
        self.marked_text = ""  # the passage as marked on a scanned page or in a section's text
        self.search.rowsInserted.connect(self._search_results)
        self.view.pageNavigator().currentPageChanged.connect(self._page_changed)

    def _set_fixed_texts(self) -> None:
        """The buttons' and labels' texts; the title says the shown page until the next citation."""
        self.previous.setText(self.tr("◀ Previous page"))
        self.next.setText(self.tr("Next page ▶"))
        self.passage_label.setText(self.tr("Passage"))

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self._set_fixed_texts()
        super().changeEvent(event)

    # -- showing a citation --------------------------------------------------------------------

    def _layer(self, path: str, page: int) -> PageLayerInfo | None:
        return self.layers(path, page) if self.layers is not None and path else None

    def show_citation(self, citation: Citation, evidence: str = "") -> None:
        """Open the cited document at its page and select the passage there (PDF; marked from the
        OCR boxes on a scanned page), or show the cited section with the passage marked;
        `evidence`, the passage's sentence(s) that support the answer, is what gets highlighted."""
        path = citation.path
        page = max(1, citation.page)
        text = citation.text
        document = citation.document or Path(path).name
        self.passage.setPlainText(text)
        self.highlighted = False
        self.marked_text = ""
        self.view.clear_marks()
        is_pdf = path.lower().endswith(".pdf") and Path(path).is_file()
        self.view.setVisible(is_pdf)
        for button in (self.previous, self.next, self.page_label):
            button.setVisible(is_pdf)
        self.setWindowTitle(self.tr("{0} — Folio").format(document))
        if not is_pdf:
            layer = self._layer(path, page)
            self.section_text.setVisible(layer is not None)
            if layer is not None:
                self._show_section(citation, layer, document)
            else:
                self.title.setText(self.tr("{0}, p. {1} — the passage as indexed").format(document, page))
            return
        self.section_text.setVisible(False)
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
        layer = self._layer(path, page)
        if layer is not None and layer.ocr:
            self._mark_ocr(citation, layer, document)
            return
        page_text = self.document.getAllText(self.target_page).text()
        self.phrase = search_phrase(evidence, page_text) if evidence else ""
        self.phrase = self.phrase or search_phrase(text, page_text)
        if self.phrase:
            if self.search.searchString() == self.phrase:
                self._search_results()
            else:
                self.search.setSearchString(self.phrase)

    def _mark_ocr(self, citation: Citation, layer: PageLayerInfo, document: str) -> None:
        """Mark the passage's lines on a page read by OCR (the PDF has no text there to search)."""
        first, last = citation.page, max(citation.page, citation.page_end)
        start = citation.char_start if layer.page == first else 0
        end = citation.char_end if layer.page == last else len(layer.text)
        boxes = layer.boxes_between(start, max(end, start + 1))
        self.view.set_marks(self.target_page, boxes)
        self.marked_text = layer.text[start:end]
        self.highlighted = bool(boxes)
        self.title.setText(self.tr("{0}, page {1} (read by OCR)").format(document, layer.page))
        if boxes:
            top = min(box[1] for box in boxes)
            QTimer.singleShot(0, lambda: self.view.pageNavigator().jump(self.target_page, QPointF(0, top)))

    def _show_section(self, citation: Citation, layer: PageLayerInfo, document: str) -> None:
        """The cited section's text, paragraph by paragraph, with the passage marked."""
        display, to_display = paragraph_display(layer.text, layer.paragraphs)
        start = citation.char_start
        end = max(start, citation.char_end)
        first, last = to_display(start), to_display(max(end, start))
        self.section_text.setPlainText(display)
        cursor = QTextCursor(self.section_text.document())
        cursor.setPosition(utf16_offset(display, first))
        cursor.setPosition(utf16_offset(display, last), QTextCursor.MoveMode.KeepAnchor)
        mark = QTextEdit.ExtraSelection()
        mark.cursor = cursor
        style = QTextCharFormat()
        style.setBackground(MARK_BACKGROUND)
        mark.format = style
        self.section_text.setExtraSelections([mark])
        self.marked_text = cursor.selectedText().replace("\u2029", "\n")
        self.highlighted = bool(self.marked_text)
        visible = QTextCursor(cursor)
        visible.setPosition(utf16_offset(display, first))
        self.section_text.setTextCursor(visible)
        self.section_text.ensureCursorVisible()
        where = citation.section or layer.section or self.tr("section {0}").format(layer.page)
        self.title.setText(self.tr("{0} — {1}").format(document, where))

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
        if self.marked_text:
            return re.sub(r"\s+", " ", self.marked_text).strip()
        index = self.view.currentSearchResultIndex()
        if not self.highlighted or index < 0:
            return ""
        link = self.search.resultAtIndex(index)
        rects = link.rectangles()
        if not rects:
            return ""
        selection = self.document.getSelection(link.page(), rects[0].topLeft(), rects[-1].bottomRight())
        return re.sub(r"\s+", " ", selection.text()).strip()
