"""Read a file into pages: PDF (with OCR), plain text, Markdown, DOCX, HTML, EPUB; classifies
unreadable input.

Runs inside the extraction worker process (app/core/ingest/worker.py), never in the app process:
parsers can loop or blow up on malformed files.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from app.core.formats import SUFFIX_KINDS, format_names
from app.core.ingest.page import PageContent, ReadEvent

# Kinds whose "pages" are sections (cited by heading path and paragraph).
SECTION_KINDS = frozenset({"docx", "html", "epub"})
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


class UnreadableFile(Exception):
    """The file cannot be ingested; the message is the reason shown to the user."""


@dataclass(frozen=True)
class ReadOptions:
    """How to read: `ocr` recognises PDF pages that have no text layer."""

    ocr: bool = True


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

        yield from read_html(path, decode_text)
    elif kind == "epub":
        from app.core.ingest.epub_reader import read_epub

        yield from read_epub(path, decode_text)
    else:
        yield from _read_text(path)


def decode_text(data: bytes) -> str:
    """Bytes of a text file as text: BOM, then UTF-8, then GB18030, then cp1252."""
    for bom, encoding in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(encoding)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    for encoding in ("gb18030", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise UnreadableFile("not a readable text file: unknown text encoding")


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
