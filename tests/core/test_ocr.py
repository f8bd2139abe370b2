"""Scanned pages: OCR'd in the worker with line boxes, mixed PDFs keep every page, OCR off, limits,
cancel, and a library made before OCR still opens."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.ingest.ocr import OcrLine, is_blank, layout_text, render_scale
from app.core.ingest.page import OcrStarted, PageContent, PagePlan
from app.core.ingest.pipeline import IngestProgress
from app.core.ingest.worker import ExtractionFailed, ExtractLimits, PageExtractor
from app.core.normalize import normalize_text
from app.core.qa import Folio
from app.core.services import build_services
from app.core.store.database import STORE_FILE
from app.core.store.schema import SCHEMA_VERSION
from tests.docgen import scan_pages
from tests.pdfgen import write_pdf

PAGES = [
    ["Apples grow on trees in temperate orchards.", "Harvest time for apples is autumn."],
    ["Bananas are tropical plants.", "A banana plant fruits only once in its life."],
    ["Cherries blossom in spring.", "Cherry wood is prized by furniture makers."],
]
NO_TEXT_EVEN_BY_OCR = "no text layer, and OCR found no legible text on its pages (blank or pictures only?)"
SCAN_HINT = "no text layer (scanned?); turn on OCR in Settings to read scanned pages"


def _line(text: str, x0: float, y0: float) -> OcrLine:
    return OcrLine(text, 0.99, x0, y0, x0 + 100, y0 + 20)


def test_layout_text_keeps_exact_offsets_for_every_line() -> None:
    lines = [
        _line("The inter-", 10, 10),
        _line("national  office", 10, 40),
        _line("磁盘映像", 10, 70),
        _line("文件。", 10, 100),
        _line("Done", 10, 130),
    ]
    text, boxes = layout_text(lines, scale=2.0)
    assert text == "The international office 磁盘映像文件。 Done"
    assert [text[b.start : b.end] for b in boxes] == [
        "The inter",
        "national office",
        "磁盘映像",
        "文件。",
        "Done",
    ]
    assert (boxes[0].x0, boxes[0].y0, boxes[0].x1, boxes[0].y1) == (5.0, 5.0, 55.0, 15.0)  # points


def test_blank_pages_and_render_scale() -> None:
    white = np.full((200, 100), 255, dtype=np.uint8)
    assert is_blank(white)
    white[50:60, 10:90] = 0
    assert not is_blank(white)
    assert render_scale(612, 792, 150) == pytest.approx(150 / 72)
    assert render_scale(10_000, 10_000, 150) < 150 / 72  # a poster is rendered smaller


@pytest.fixture
def mixed_pdf(tmp_path: Path) -> Path:
    """Three text pages of which the second is an image only, as a scanner would make it."""
    source = write_pdf(tmp_path / "source.pdf", PAGES)
    return scan_pages(source, [2], tmp_path / "mixed.pdf")


def test_mixed_pdf_yields_every_page_with_ocr_boxes(folio: Folio, mixed_pdf: Path) -> None:
    seen: list[IngestProgress] = []
    report = folio.library.ingest([mixed_pdf], progress=seen.append)
    result = report.files[0]
    assert (result.status, result.pages, result.ocr_pages) == ("added", 3, 1)
    assert [p.pages_done for p in seen if p.stage == "ocr"] == [1]  # page 2 is being read
    assert all(p.ocr_pages_planned == 1 for p in seen if p.stage in ("parsing", "ocr"))
    document = folio.library.documents()[0]
    assert document.ocr_pages == 1 and folio.library.store.ocr_pages(document.id) == [2]

    hit = folio.library.search("How often does a banana plant fruit?", 1).hits[0]
    assert hit.page <= 2 <= hit.page_end and "banana plant fruits only once" in hit.text
    layer = folio.library.store.page_layer(hit.path, 2)
    assert layer is not None and layer.ocr
    assert normalize_text(layer.text) == layer.text  # OCR text arrives normalised: offsets are exact
    assert layer.text == "Bananas are tropical plants. A banana plant fruits only once in its life."
    assert layer.text in hit.text  # the chunk runs across the scanned page
    start = hit.char_start if hit.page == 2 else 0
    end = hit.char_end if hit.page_end == 2 else len(layer.text)
    boxes = layer.boxes_between(start, end)
    assert len(boxes) == 2
    for x0, y0, x1, y1 in boxes:  # where write_pdf draws its lines: x from 50 pt, 62 pt from the top
        assert 30 < x0 < 70 and 40 < y0 < 100 and x1 > x0 + 100 and y1 > y0
    assert folio.library.store.page_layer(hit.path, 1) is None  # text pages need no stored copy
    assert folio.library.verify().ok


def test_ocr_off_skips_scanned_pages_and_says_why(
    library_dir: Path, embedder: Embedder, mixed_pdf: Path, tmp_path: Path
) -> None:
    folio = build_services(Settings(ocr_enabled=False), library_dir, embedder=embedder)
    scanned = scan_pages(
        write_pdf(tmp_path / "memo.pdf", [["A memo about parking."]]), [1], tmp_path / "scan.pdf"
    )
    report = folio.library.ingest([mixed_pdf, scanned])
    outcome = {f.document: f for f in report.files}
    assert outcome["mixed.pdf"].status == "added" and outcome["mixed.pdf"].ocr_pages == 0
    assert outcome["scan.pdf"].error == SCAN_HINT
    assert all(hit.page != 2 for hit in folio.library.search("banana plant", 5).hits)
    folio.close()


def test_ocr_page_time_limit_and_cancel_stop_the_worker(mixed_pdf: Path) -> None:
    hasty = PageExtractor(ExtractLimits(ocr_seconds_per_page=0.05))
    events = []
    with pytest.raises(ExtractionFailed, match="OCR of page 2 took longer than 0 s"):
        for event in hasty.pages(mixed_pdf):
            events.append(event)
    assert isinstance(events[0], PagePlan) and events[0].ocr_pages == (2,)
    assert isinstance(events[-1], OcrStarted)
    hasty.close()

    extractor = PageExtractor()
    cancel = CancelToken()
    timer = threading.Timer(0.05, cancel.cancel)  # fires while the wait for page 2's OCR runs
    seen: list[object] = []
    with pytest.raises(Exception) as caught:
        for event in extractor.pages(mixed_pdf, cancel=cancel):
            seen.append(event)
            if isinstance(event, OcrStarted):
                timer.start()
    timer.join()
    assert type(caught.value).__name__ == "Cancelled"
    # the wait saw the cancel: page 2's OCR never came back, and the worker was stopped
    assert isinstance(seen[-1], OcrStarted) and seen[-1].number == 2
    assert extractor._process is None
    text_pdf = write_pdf(mixed_pdf.parent / "t.pdf", PAGES[:1])
    pages = [e.number for e in extractor.pages(text_pdf) if isinstance(e, PageContent)]
    assert pages == [1]  # a fresh worker serves the next file
    extractor.close()


def test_cancel_during_ocr_rolls_back_the_file(folio: Folio, mixed_pdf: Path) -> None:
    cancel = CancelToken()

    def stop_at_ocr(progress: IngestProgress) -> None:
        if progress.stage == "ocr":
            cancel.cancel()

    report = folio.library.ingest([mixed_pdf], progress=stop_at_ocr, cancel=cancel)
    assert report.cancelled and not report.files
    assert folio.library.documents() == []


def test_a_library_made_before_ocr_still_opens(library_dir: Path, embedder: Embedder, tmp_path: Path) -> None:
    folio = build_services(Settings(), library_dir, embedder=embedder)
    folio.library.ingest([write_pdf(tmp_path / "fruit.pdf", PAGES)])
    folio.close()
    # take the library back to schema version 1: no chunks.section, no page_layers
    db = sqlite3.connect(library_dir / STORE_FILE)
    db.execute("ALTER TABLE chunks DROP COLUMN section")
    db.execute("DROP TABLE page_layers")
    db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    db.commit()
    db.close()

    reopened = build_services(Settings(), library_dir, embedder=embedder)
    hit = reopened.library.search("Which wood do furniture makers prize?", 1).hits[0]
    assert hit.document == "fruit.pdf" and hit.page_end == 3 and hit.section == ""
    assert reopened.library.documents()[0].ocr_pages == 0
    assert reopened.library.store.meta("schema_version") == SCHEMA_VERSION
    assert reopened.library.verify().ok
    reopened.close()
