"""What a reader sends for each page: its text, where it sits (section, paragraphs) and OCR boxes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TextBox:
    """One recognised line of a scanned page: [start, end) in the page's normalised text, and its
    box in PDF points from the page's top-left corner (as the page is shown, rotation applied)."""

    start: int
    end: int
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class PageContent:
    """One page (PDF, text) or one section (DOCX, HTML, EPUB: documents without pages).

    `text` is raw extracted text unless `normalized` is set: OCR pages and sections are built
    already normalised, so the offsets in `paragraphs` and `boxes` point into it exactly."""

    number: int  # 1-based page, or section number
    count: int  # pages (sections) in the document
    text: str
    normalized: bool = False
    section: str = ""  # heading path ("Guide › Install") for documents without pages
    paragraphs: tuple[int, ...] = ()  # start offsets of the section's paragraphs
    ocr: bool = False  # the text was recognised from the rendered page
    boxes: tuple[TextBox, ...] = ()
    # A PDF's bookmarks that point at this page, (depth from 1, title) in outline order; () for a
    # page none points at, None for a document without bookmarks (its headings are looked for in
    # its lines instead: app/core/ingest/structure.py)
    outline: tuple[tuple[int, str], ...] | None = None


@dataclass(frozen=True)
class PagePlan:
    """Sent before the pages of a PDF when OCR is on: the pages that look as if they need OCR
    (no text layer), so progress and the time left can weigh them."""

    count: int
    ocr_pages: tuple[int, ...]


@dataclass(frozen=True)
class OcrStarted:
    """The reader starts recognising page `number` (slow: seconds per page)."""

    number: int
    count: int


ReadEvent = PageContent | PagePlan | OcrStarted
