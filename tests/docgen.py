"""Write small real documents for tests: scanned PDF pages, DOCX, HTML with boilerplate, EPUB."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

SCAN_DPI = 200


def scan_pages(source: Path, scanned: Sequence[int], out: Path, dpi: int = SCAN_DPI) -> Path:
    """A copy of `source` whose pages listed in `scanned` (1-based) are replaced by pictures of
    themselves: same size on paper, no text layer, as a scanner would make them."""
    import pypdf
    import pypdfium2
    from PIL import Image

    rendered = pypdfium2.PdfDocument(str(source))
    reader = pypdf.PdfReader(source)
    writer = pypdf.PdfWriter()
    for index, page in enumerate(reader.pages):
        if index + 1 not in scanned:
            writer.add_page(page)
            continue
        bitmap = rendered[index].render(scale=dpi / 72, grayscale=True)
        image: Image.Image = bitmap.to_pil().convert("L")
        buffer = io.BytesIO()
        image.save(buffer, "PDF", resolution=float(dpi))
        writer.add_page(pypdf.PdfReader(io.BytesIO(buffer.getvalue())).pages[0])
    rendered.close()
    with out.open("wb") as handle:
        writer.write(handle)
    return out


def write_docx(path: Path, blocks: Sequence[tuple[str, object]]) -> Path:
    """A Word file from blocks: ("h1".."h3", text), ("p", text) or ("table", [[cell, ...], ...])."""
    import docx

    document = docx.Document()
    for kind, value in blocks:
        if kind.startswith("h"):
            document.add_heading(str(value), level=int(kind[1:]))
        elif kind == "table":
            rows: list[list[str]] = value  # type: ignore[assignment]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        else:
            document.add_paragraph(str(value))
    document.save(str(path))
    return path


def write_epub(path: Path, title: str, chapters: Sequence[tuple[str, str]]) -> Path:
    """An EPUB 3 with one XHTML file per (chapter title, body HTML), a nav document and spine."""
    manifest = []
    spine = []
    nav_items = []
    files: dict[str, str] = {}
    for number, (chapter_title, body) in enumerate(chapters, start=1):
        name = f"chapter{number}.xhtml"
        files[f"OEBPS/{name}"] = (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml"><head>'
            f"<title>{title}</title></head><body>{body}</body></html>"
        )
        manifest.append(f'<item id="c{number}" href="{name}" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="c{number}"/>')
        nav_items.append(f'<li><a href="{name}">{chapter_title}</a></li>')
    files["OEBPS/nav.xhtml"] = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
        f'<head><title>{title}</title></head><body><nav epub:type="toc"><ol>{"".join(nav_items)}'
        "</ol></nav></body></html>"
    )
    files["OEBPS/content.opf"] = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">urn:folio:test</dc:identifier><dc:title>{title}</dc:title>'
        "<dc:language>en</dc:language></metadata><manifest>"
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
        f"{''.join(manifest)}</manifest><spine>{''.join(spine)}</spine></package>"
    )
    files["META-INF/container.xml"] = (
        '<?xml version="1.0"?>\n'
        '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
        "</rootfiles></container>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for name, text in files.items():
            archive.writestr(name, text, compress_type=zipfile.ZIP_DEFLATED)
    return path
