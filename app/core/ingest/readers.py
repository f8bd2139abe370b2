"""Read a file into pages: PDF (with OCR), plain text, Markdown, DOCX, HTML, EPUB; classifies
unreadable input.

Runs inside the extraction worker process (app/core/ingest/worker.py), never in the app process:
parsers can loop or blow up on malformed files.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path

from app.core.formats import SUFFIX_KINDS, format_names
from app.core.ingest.page import PageContent, ReadEvent
from app.core.ingest.read_base import ReadOptions, UnreadableFile, decode_text

# Kinds whose "pages" are sections (cited by heading path and paragraph).
SECTION_KINDS = frozenset({"docx", "html", "epub"})
# Kinds whose "#" lines are Markdown headings (app/core/ingest/structure.py). Not plain text: there a
# line such as "# apt-get install foo" is as often a root prompt or a comment as a heading.
MARKDOWN_KINDS = frozenset({"md"})
KIND_LABELS = {
    "pdf": "PDF",
    "txt": "text file",
    "md": "text file",
    "docx": "DOCX",
    "html": "HTML file",
    "epub": "EPUB",
}
# A text file is cut into "pages" of this many lines, so citations point somewhere useful.
TEXT_PAGE_LINES = 60


def file_kind(path: Path) -> str | None:
    return SUFFIX_KINDS.get(path.suffix.lower())


def unsupported_reason(path: Path) -> str:
    """Why a file is refused, naming what Folio reads instead."""
    suffix = path.suffix.lower() or "no extension"
    return f"unsupported file type ({suffix}); Folio reads {format_names()} files"


def kind_label(kind: str | None) -> str:
    return KIND_LABELS.get(kind or "", "file")


def read_pages(path: Path, options: ReadOptions | None = None) -> Iterator[ReadEvent]:
    """PageContent for each page (1-based) or section, plus OCR plan/progress events for PDFs."""
    options = options or ReadOptions()
    kind = file_kind(path)
    if kind is None:
        raise UnreadableFile(unsupported_reason(path))
    if kind == "pdf":
        from app.core.ingest.pdf_reader import read_pdf

        yield from read_pdf(path, options.ocr)
    elif kind == "docx":
        from app.core.ingest.docx_reader import read_docx

        yield from read_docx(path)
    elif kind == "html":
        from app.core.ingest.html_reader import read_html

        yield from read_html(path)
    elif kind == "epub":
        from app.core.ingest.epub_reader import read_epub

        yield from read_epub(path)
    else:
        yield from _read_text(path)


def _read_text(path: Path) -> Iterator[PageContent]:
    data = path.read_bytes()
    if b"\x00" in data[:4096] and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise UnreadableFile("not a readable text file: binary data")
    lines = decode_text(data).splitlines()
    if not any(line.strip() for line in lines):
        raise UnreadableFile("no text (empty file)")
    pages = [lines[i : i + TEXT_PAGE_LINES] for i in range(0, len(lines), TEXT_PAGE_LINES)]
    for number, page_lines in enumerate(pages, start=1):
        yield PageContent(number, len(pages), "\n".join(page_lines))
