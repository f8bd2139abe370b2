"""Read a Word document (.docx, python-docx) into sections: body paragraphs and tables in order.

Headings are the paragraphs styled "Heading N" (or a style based on one); a table row becomes one
paragraph, its cells joined by " | ". Page headers, footers and comments are not read.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.core.ingest.page import PageContent
from app.core.ingest.read_base import UnreadableFile
from app.core.ingest.sections import SectionBuilder
from app.core.messages import QT_TRANSLATE_NOOP

_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an encrypted (or pre-2007) Word file


def _heading_level(paragraph: Any) -> int | None:
    style = paragraph.style
    seen = 0
    while style is not None and seen < 10:  # a style's "based on" chain, bounded against loops
        match = _HEADING_STYLE.match(style.name or "")
        if match:
            return int(match.group(1))
        style = style.base_style
        seen += 1
    return None


def _row_text(row: Any) -> str:
    cells: list[str] = []
    for cell in row.cells:
        text = " ".join(cell.text.split())
        if text and (not cells or cells[-1] != text):  # a merged cell repeats per grid column
            cells.append(text)
    return " | ".join(cells)


def read_docx(path: Path) -> Iterator[PageContent]:
    with path.open("rb") as handle:
        head = handle.read(8)
    if head.startswith(_OLE_MAGIC):
        raise UnreadableFile(
            QT_TRANSLATE_NOOP("Core", "password protected (or an old binary .doc file saved as .docx)")
        )
    import docx
    from docx.opc.exceptions import OpcError
    from docx.table import Table

    broken = (OpcError, zipfile.BadZipFile, SyntaxError, KeyError, ValueError, AttributeError, IndexError)

    try:
        document = docx.Document(str(path))
        builder = SectionBuilder()
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                for row in block.rows:
                    builder.paragraph(_row_text(row))
                continue
            level = _heading_level(block)
            if level is not None:
                builder.heading(level, block.text)
            else:
                builder.paragraph(block.text)
    except broken as exc:
        raise UnreadableFile(
            (QT_TRANSLATE_NOOP("Core", "not a readable DOCX") + f": {str(exc) or type(exc).__name__}")[:300]
        ) from exc
    pages = builder.pages()
    if not pages:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "no text (the document is empty)"))
    yield from pages
