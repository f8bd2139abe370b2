"""Every real sample PDF ingests or fails alone with a reason; Chinese questions find their pages."""

from __future__ import annotations

import json

import pypdf
import pytest

from app.core.ingest.pipeline import IngestReport
from app.core.keywords import terms_phrases
from app.core.normalize import normalize_text
from app.core.passage import with_heading
from app.core.qa import Folio
from tests.conftest import CJK_BOOK, PDF_SAMPLES

KNOWN_REASONS = ("password protected", "no text layer", "not a readable PDF: ")
# The shared library ingests ~370 text pages and reads ~6 pages by OCR: on 2 busy cores that can
# take more than the default 10 minutes (it is set up by the first test, inside its time limit).
pytestmark = pytest.mark.timeout(1800)
NO_TEXT_EVEN_BY_OCR = "no text layer, and OCR found no legible text on its pages (blank or pictures only?)"


def test_every_sample_ingests_or_fails_alone(samples_library: tuple[Folio, IngestReport]) -> None:
    folio, report = samples_library
    listed = {e["path"]: e for e in json.loads((PDF_SAMPLES / "files.json").read_text())["data"]}
    results = {f.path: f for f in report.files}
    on_disk = sorted(PDF_SAMPLES.rglob("*.pdf"))
    assert len(on_disk) >= 30
    for pdf in on_disk:
        relative = str(pdf.relative_to(PDF_SAMPLES))
        result = results.get(str(pdf.resolve()))
        assert result is not None, f"{relative} was not ingested"
        if result.status == "failed":
            assert result.error and result.error.startswith(KNOWN_REASONS), (relative, result.error)
        else:
            assert result.status == "added" and result.chunks > 0, relative
        if listed.get(relative, {}).get("encrypted"):
            assert result.status == "failed" and result.error == "password protected", relative
    added = [f for f in report.files if f.status == "added"]
    assert len(added) >= 20
    book = results[str(CJK_BOOK.resolve())]
    assert book.pages == 251 and book.ocr_pages == 1  # the cover is a picture: OCR reads "debian"
    verify = folio.library.verify()
    assert verify.ok, verify.problems
    assert verify.documents == len(added)


def test_image_only_samples_are_read_by_ocr(samples_library: tuple[Folio, IngestReport]) -> None:
    """The image-only samples hold pictures, not print (a smiley, a cartoon, a photo): OCR runs on
    them, finds no text, and says so."""
    folio, report = samples_library
    by_name = {f.document: f for f in report.files}
    pictures = ["imagemagick-lzw.pdf", "grayscale-image.pdf", "cmyk-image.pdf"]
    pictures.append("imagemagick-CCITTFaxDecode.pdf")
    for name in pictures:
        assert by_name[name].error == NO_TEXT_EVEN_BY_OCR, name
    cover = folio.library.store.page_layer(str(CJK_BOOK.resolve()), 1)
    assert cover is not None and cover.ocr and "debian" in cover.text.lower()


CHINESE_QUESTIONS = [
    ("如何制作磁盘映像文件？", 181),
    ("Debian 上有哪些 GUI 桌面环境可以选择？", 141),
    ("怎样用 /etc/apt/preferences 自动跟踪 unstable 里的软件包？", 96),
]


@pytest.mark.parametrize(("question", "page"), CHINESE_QUESTIONS)
def test_chinese_questions_find_the_right_page(
    samples_library: tuple[Folio, IngestReport], question: str, page: int
) -> None:
    folio, _ = samples_library
    hits = [h for h in folio.library.search(question, 3).hits if h.document == CJK_BOOK.name]
    assert any(h.page <= page <= h.page_end for h in hits), [(h.page, h.text[:40]) for h in hits]


def test_chinese_hits_really_are_on_their_pages(samples_library: tuple[Folio, IngestReport]) -> None:
    folio, _ = samples_library
    reader = pypdf.PdfReader(CJK_BOOK)
    for hit in folio.library.search("磁盘映像", 5).hits:
        page_text = normalize_text(reader.pages[hit.page - 1].extract_text())
        assert page_text[hit.char_start : hit.char_start + 15] == hit.text[:15]


def test_two_character_chinese_terms_match(samples_library: tuple[Folio, IngestReport]) -> None:
    folio, _ = samples_library
    for word in ("磁盘", "缓存", "内核"):
        ids = folio.library.store.keyword_search("chunks_terms", terms_phrases(word), 20)
        assert ids, word
        texts = folio.library.store.chunks(ids)
        # the keyword tables index a chunk's heading path with its text (passage.with_heading)
        assert all(word in with_heading(row.heading, row.text) for row in texts.values()), word
