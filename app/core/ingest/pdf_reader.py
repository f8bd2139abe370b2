"""Read a PDF page by page: the text layer (pypdf), and OCR for pages that have none.

A page whose text layer has fewer than OCR_BELOW_CHARS characters is rendered with pdfium and
recognised (app/core/ingest/ocr.py), unless the rendering is blank. A mixed PDF (text pages and
scanned pages) so yields all its pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.core.ingest.page import OcrStarted, PageContent, PagePlan, ReadEvent, TextBox
from app.core.ingest.read_base import UnreadableFile
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.normalize import normalize_text

# A text layer this thin (page numbers, a scanner's stamp) is not the page's text: OCR it.
OCR_BELOW_CHARS = 16


def _visible_chars(text: str) -> int:
    return len(text) - text.count(" ") if text else 0


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


class _Scanner:
    """pdfium's view of the same file: which pages lack text, and their renderings for OCR."""

    def __init__(self, path: Path) -> None:
        import pypdfium2

        from app.core.ingest.ocr import OcrEngine

        self._pdfium = pypdfium2
        self.document: Any = pypdfium2.PdfDocument(str(path))
        self.engine = OcrEngine()

    def pages_without_text(self) -> tuple[int, ...]:
        """1-based numbers of the pages whose text layer is (almost) empty, by pdfium's count."""
        found: list[int] = []
        for index in range(len(self.document)):
            page = self.document[index]
            try:
                textpage = page.get_textpage()
                try:
                    text = textpage.get_text_range()
                finally:
                    textpage.close()
            finally:
                page.close()
            if _visible_chars(" ".join(text.split())) < OCR_BELOW_CHARS:
                found.append(index + 1)
        return tuple(found)

    def recognise(self, index: int) -> tuple[str, tuple[TextBox, ...]] | None:
        """(normalised text, line boxes) of page `index` (0-based); None if it is blank."""
        from app.core.ingest.ocr import is_blank, layout_text, render_scale

        if index >= len(self.document):
            return None
        page = self.document[index]
        try:
            width, height = page.get_size()
            scale = render_scale(width, height)
            bitmap = page.render(scale=scale, grayscale=True)
            image = bitmap.to_numpy().copy()
            bitmap.close()
        finally:
            page.close()
        if image.ndim == 3 and image.shape[2] == 1:
            image = image[:, :, 0]
        if is_blank(image):
            return None
        text, boxes = layout_text(self.engine.recognise(image), scale)
        return (text, boxes) if text else None

    def close(self) -> None:
        self.document.close()


def read_outline(reader: Any) -> dict[int, list[tuple[int, str]]] | None:
    """The PDF's bookmarks by 0-based page: (depth from 1, title) in outline order; None when it
    has none (or they cannot be read: they only help, a file is never refused for them)."""
    found: dict[int, list[tuple[int, str]]] = {}

    def walk(items: list[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
                continue
            title = " ".join(str(getattr(item, "title", "") or "").split())
            page = reader.get_destination_page_number(item)
            if title and page is not None and page >= 0:
                found.setdefault(page, []).append((depth, title))

    try:
        walk(list(reader.outline), 1)
    except Exception:  # a broken outline (bad destinations, loops): read the file without it
        return None
    return found or None


def read_pdf(path: Path, ocr: bool) -> Iterator[ReadEvent]:
    """PageContent for every page, in order; with `ocr`, first a PagePlan and an OcrStarted
    before each page that is recognised."""
    reader, count, outline = _open_pdf(path)
    scanner = _open_scanner(path) if ocr else None
    try:
        if scanner is not None:
            yield PagePlan(count, scanner.pages_without_text())
        for index in range(count):
            text = _page_text(reader, index)
            marks = None if outline is None else tuple(outline.get(index, ()))
            if scanner is not None and _visible_chars(normalize_text(text)) < OCR_BELOW_CHARS:
                yield OcrStarted(index + 1, count)
                recognised = scanner.recognise(index)
                if recognised is not None and _visible_chars(recognised[0]) > _visible_chars(
                    normalize_text(text)
                ):
                    yield PageContent(
                        index + 1,
                        count,
                        recognised[0],
                        normalized=True,
                        ocr=True,
                        boxes=recognised[1],
                        outline=marks,
                    )
                    continue
            yield PageContent(index + 1, count, text, outline=marks)
    finally:
        if scanner is not None:
            scanner.close()


def _open_pdf(path: Path) -> tuple[Any, int, dict[int, list[tuple[int, str]]] | None]:
    """The opened pypdf reader (decrypted with the empty password when it can be), its page count
    and its outline by page; UnreadableFile saying why it cannot be read."""
    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError, PyPdfError

    if path.stat().st_size == 0:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "not a readable PDF: the file is empty"))
    with path.open("rb") as handle:
        if b"%PDF" not in handle.read(1024):
            raise UnreadableFile(
                QT_TRANSLATE_NOOP("Core", "not a readable PDF: no PDF header (not a PDF file)")
            )
    try:
        reader = pypdf.PdfReader(path, strict=False)
        if reader.is_encrypted:
            # Files with only an owner password open with the empty user password.
            try:
                opened = reader.decrypt("")
            except (DependencyError, NotImplementedError) as exc:
                raise UnreadableFile(
                    QT_TRANSLATE_NOOP("Core", "password protected (unsupported encryption)") + f": {exc}"
                ) from exc
            if not opened:
                raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "password protected"))
        count = len(reader.pages)
        outline = read_outline(reader)
    except UnreadableFile:
        raise
    except FileNotDecryptedError as exc:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "password protected")) from exc
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "not a readable PDF") + f": {_reason(exc)}") from exc
    if count == 0:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "not a readable PDF: it has no pages"))
    return reader, count, outline


def _page_text(reader: Any, index: int) -> str:
    """A page's text layer; "" for a page pypdf cannot read (one bad page must not sink the file)."""
    from pypdf.errors import DependencyError, FileNotDecryptedError

    try:
        return reader.pages[index].extract_text() or ""
    except FileNotDecryptedError as exc:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "password protected")) from exc
    except DependencyError as exc:
        raise UnreadableFile(
            QT_TRANSLATE_NOOP("Core", "password protected (unsupported encryption)") + f": {exc}"
        ) from exc
    except Exception:  # one bad page (broken content stream, font) must not sink the file
        return ""


def _open_scanner(path: Path) -> _Scanner | None:
    """pdfium on the file, or None if pdfium cannot open what pypdf could (OCR is then skipped)."""
    import pypdfium2

    try:
        return _Scanner(path)
    except pypdfium2.PdfiumError:
        return None
