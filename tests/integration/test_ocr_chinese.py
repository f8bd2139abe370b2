"""A scanned Chinese page (a page of the Debian Reference rendered to an image) is read by OCR and
found by a Chinese question, with the page cited and the passage's lines boxed."""

from __future__ import annotations

from pathlib import Path

import pypdf

from app.core.prompt.citations import parse_citations
from app.core.qa import Folio
from tests.conftest import CJK_BOOK
from tests.docgen import scan_pages

DISK_IMAGE_PAGE = 181  # "9.7.1 制作磁盘映像文件" in the book


def test_chinese_scanned_page_is_found_by_a_chinese_question(folio: Folio, tmp_path: Path) -> None:
    writer = pypdf.PdfWriter()
    reader = pypdf.PdfReader(CJK_BOOK)
    for number in (DISK_IMAGE_PAGE - 1, DISK_IMAGE_PAGE):  # a text page, then the scanned one
        writer.add_page(reader.pages[number - 1])
    extract = tmp_path / "extract.pdf"
    with extract.open("wb") as handle:
        writer.write(handle)
    scanned = scan_pages(extract, [2], tmp_path / "扫描件.pdf")

    report = folio.library.ingest([scanned])
    result = report.files[0]
    assert (result.status, result.pages, result.ocr_pages) == ("added", 2, 1)

    hits = folio.library.search("如何制作磁盘映像文件？", 3).hits
    best = next(h for h in hits if h.page <= 2 <= h.page_end)
    assert "磁盘映像" in best.text
    citations, _ = parse_citations("可以用 dd 制作 [1]。", [best])
    assert citations[0].document == "扫描件.pdf" and citations[0].page <= 2 <= citations[0].page_end
    layer = folio.library.store.page_layer(best.path, 2)
    assert layer is not None and layer.ocr and "制作磁盘映像文件" in layer.text
    start = best.char_start if best.page == 2 else 0
    end = best.char_end if best.page_end == 2 else len(layer.text)
    assert layer.boxes_between(start, end)
