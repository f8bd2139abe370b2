"""Read a file into page texts (PDF via pypdf, plain text, Markdown); classifies unreadable input.

Runs inside the extraction worker process (app/core/ingest/worker.py), never in the app process:
pypdf can loop or blow up on malformed files.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path

TEXT_SUFFIXES = {".txt": "txt", ".text": "txt", ".md": "md", ".markdown": "md"}
PDF_SUFFIXES = {".pdf": "pdf"}
SUPPORTED_SUFFIXES = {**TEXT_SUFFIXES, **PDF_SUFFIXES}
# A text file is cut into "pages" of this many lines, so citations point somewhere useful.
TEXT_PAGE_LINES = 60


class UnreadableFile(Exception):
    """The file cannot be ingested; the message is the reason shown to the user."""


def file_kind(path: Path) -> str | None:
    return SUPPORTED_SUFFIXES.get(path.suffix.lower())


def read_pages(path: Path) -> Iterator[tuple[int, int, str]]:
    """Yield (page number, page count, raw text) for each page, page numbers 1-based."""
    kind = file_kind(path)
    if kind is None:
        raise UnreadableFile("unsupported file type")
    if kind == "pdf":
        yield from _read_pdf(path)
    else:
        yield from _read_text(path)


def _decode(data: bytes) -> str:
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


def _read_text(path: Path) -> Iterator[tuple[int, int, str]]:
    data = path.read_bytes()
    if b"\x00" in data[:4096] and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise UnreadableFile("not a readable text file: binary data")
    lines = _decode(data).splitlines()
    if not any(line.strip() for line in lines):
        raise UnreadableFile("no text (empty file)")
    pages = [lines[i : i + TEXT_PAGE_LINES] for i in range(0, len(lines), TEXT_PAGE_LINES)]
    for number, page_lines in enumerate(pages, start=1):
        yield number, len(pages), "\n".join(page_lines)


def _read_pdf(path: Path) -> Iterator[tuple[int, int, str]]:
    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError, PyPdfError

    if path.stat().st_size == 0:
        raise UnreadableFile("not a readable PDF: the file is empty")
    with path.open("rb") as handle:
        if b"%PDF" not in handle.read(1024):
            raise UnreadableFile("not a readable PDF: no PDF header (not a PDF file)")
    try:
        reader = pypdf.PdfReader(path, strict=False)
        if reader.is_encrypted:
            # Files with only an owner password open with the empty user password.
            try:
                opened = reader.decrypt("")
            except (DependencyError, NotImplementedError) as exc:
                raise UnreadableFile(f"password protected (unsupported encryption: {exc})") from exc
            if not opened:
                raise UnreadableFile("password protected")
        count = len(reader.pages)
    except UnreadableFile:
        raise
    except FileNotDecryptedError as exc:
        raise UnreadableFile("password protected") from exc
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise UnreadableFile(f"not a readable PDF: {_reason(exc)}") from exc
    if count == 0:
        raise UnreadableFile("not a readable PDF: it has no pages")
    for index in range(count):
        try:
            text = reader.pages[index].extract_text() or ""
        except FileNotDecryptedError as exc:
            raise UnreadableFile("password protected") from exc
        except DependencyError as exc:
            raise UnreadableFile(f"password protected (unsupported encryption: {exc})") from exc
        except Exception:  # one bad page (broken content stream, font) must not sink the file
            text = ""
        yield index + 1, count, text


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
