"""Ingestion into a real library: statuses, bad input, provenance, index repair, cancellation."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import threading
from pathlib import Path

import numpy as np
import pypdf
import pytest

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.errors import DocumentNotFoundError, EmbedderMismatchError, UsageError
from app.core.index.vector_index import INDEX_FILE
from app.core.ingest.page import PageContent
from app.core.ingest.pipeline import IngestProgress
from app.core.ingest.readers import unsupported_reason
from app.core.ingest.worker import ExtractionFailed, ExtractLimits, PageExtractor
from app.core.normalize import normalize_text
from app.core.qa import Folio
from app.core.services import build_services
from app.core.store.database import STORE_FILE
from tests.pdfgen import write_encrypted_pdf, write_pdf

NO_TEXT_EVEN_BY_OCR = "no text layer, and OCR found no legible text on its pages (blank or pictures only?)"
FRUIT = [
    ["Apples grow on trees in temperate orchards.", "Harvest time for apples is autumn."],
    ["Bananas are tropical plants.", "A banana plant fruits only once."],
    ["Cherries blossom in spring.", "Cherry wood is prized by furniture makers."],
]


def _status(report_files: list[object]) -> list[tuple[str, str]]:
    return [(f.document, f.status) for f in report_files]  # type: ignore[attr-defined]


def test_add_unchanged_updated_remove(folio: Folio, tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "fruit.pdf", FRUIT)
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nThe capital of Freedonia is Fredville.\n", encoding="utf-8")

    first = folio.library.ingest([pdf, notes])
    assert _status(first.files) == [("fruit.pdf", "added"), ("notes.md", "added")]
    assert first.files[0].pages == 3 and first.files[0].chunks >= 1

    again = folio.library.ingest([tmp_path])  # a folder, recursively: same bytes -> unchanged
    assert sorted(_status(again.files)) == [("fruit.pdf", "unchanged"), ("notes.md", "unchanged")]

    write_pdf(pdf, [*FRUIT, ["Dates come from date palms in the desert."]])
    updated = folio.library.ingest([pdf])
    assert _status(updated.files) == [("fruit.pdf", "updated")]
    assert updated.files[0].pages == 4
    docs = {d.name: d for d in folio.library.documents()}
    assert docs["fruit.pdf"].pages == 4
    hit = folio.library.search("Which palms give dates?", 1).hits[0]
    assert hit.document == "fruit.pdf" and hit.page_end == 4
    assert folio.library.verify().ok

    removed = folio.library.remove("fruit.pdf")
    assert removed.name == "fruit.pdf"
    assert [d.name for d in folio.library.documents()] == ["notes.md"]
    assert all(h.document == "notes.md" for h in folio.library.search("apples orchards", 5).hits)
    report = folio.library.verify()
    assert report.ok and report.chunks == report.vectors == docs["notes.md"].chunks
    with pytest.raises(DocumentNotFoundError):
        folio.library.remove("fruit.pdf")


def test_bad_inputs_fail_alone_with_reasons(folio: Folio, tmp_path: Path) -> None:
    good = write_pdf(tmp_path / "good.pdf", FRUIT)
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "truncated.pdf").write_bytes(good.read_bytes()[:300])
    (tmp_path / "fake.pdf").write_bytes(b"PK\x03\x04 this is a zip file, not a PDF" * 10)
    (tmp_path / "letter.docx").write_bytes(b"PK\x03\x04")
    (tmp_path / "sheet.xlsx").write_bytes(b"PK\x03\x04")
    write_encrypted_pdf(tmp_path / "locked.pdf", [["top secret plans"]])
    write_pdf(tmp_path / "scan.pdf", [[], []])  # pages without any text: an image-only scan
    (tmp_path / "blank.txt").write_text("  \n\n ")

    report = folio.library.ingest(sorted(tmp_path.iterdir()))
    outcome = {f.document: (f.status, f.error) for f in report.files}
    assert outcome["good.pdf"] == ("added", None)
    assert outcome["locked.pdf"] == ("failed", "password protected")
    assert outcome["scan.pdf"] == ("failed", NO_TEXT_EVEN_BY_OCR)
    assert outcome["letter.docx"][0] == "failed"
    assert str(outcome["letter.docx"][1]).startswith("not a readable DOCX: ")
    assert outcome["sheet.xlsx"] == ("failed", unsupported_reason(Path("sheet.xlsx")))
    assert outcome["blank.txt"][0] == "failed"
    for name in ("empty.pdf", "truncated.pdf", "fake.pdf"):
        status, error = outcome[name]
        assert status == "failed" and error is not None and error.startswith("not a readable PDF: "), name
    # failures changed nothing: only the good file is in the library, and it is consistent
    assert [d.name for d in folio.library.documents()] == ["good.pdf"]
    assert folio.library.verify().ok


def test_page_provenance_holds_for_hits(folio: Folio, tmp_path: Path) -> None:
    pages = [
        [f"Section {p}: the {w} protocol handles retries on page {p}." for w in ("alpha", "beta")]
        for p in range(1, 7)
    ]
    pdf = write_pdf(tmp_path / "protocols.pdf", pages)
    folio.library.ingest([pdf])
    reader = pypdf.PdfReader(pdf)
    for page_number in (2, 5):
        hit = folio.library.search(f"Section {page_number}: the alpha protocol", 3).hits[0]
        assert hit.page <= page_number <= hit.page_end
        page_text = normalize_text(reader.pages[hit.page - 1].extract_text())
        assert page_text[hit.char_start : hit.char_start + 20] == hit.text[:20]


def test_progress_reports_pages(folio: Folio, tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "fruit.pdf", FRUIT)
    seen: list[IngestProgress] = []
    folio.library.ingest([pdf], progress=seen.append)
    parsing = [p.pages_done for p in seen if p.stage == "parsing"]
    assert parsing == [1, 2, 3]
    assert seen[-1].stage == "done" and seen[-1].pages_total == 3


def test_cancel_rolls_back_the_current_file(folio: Folio, tmp_path: Path) -> None:
    first = write_pdf(tmp_path / "a.pdf", FRUIT)
    second = write_pdf(tmp_path / "b.pdf", [[f"Line {i} of a long document."] for i in range(40)])
    cancel = CancelToken()

    def stop_midway(progress: IngestProgress) -> None:
        if progress.path.endswith("b.pdf") and progress.pages_done == 20:
            cancel.cancel()

    report = folio.library.ingest([first, second], progress=stop_midway, cancel=cancel)
    assert report.cancelled
    assert [f.document for f in report.files] == ["a.pdf"]
    assert [d.name for d in folio.library.documents()] == ["a.pdf"]
    assert folio.library.verify().ok


def test_empty_query_is_a_usage_error(folio: Folio) -> None:
    with pytest.raises(UsageError):
        folio.library.search("   \n ")


@pytest.mark.parametrize("damage", ["delete", "corrupt", "stale"])
def test_index_is_rebuilt_when_missing_or_wrong(
    damage: str, library_dir: Path, embedder: Embedder, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folio = build_services(Settings(), library_dir, embedder=embedder)
    folio.library.ingest([write_pdf(tmp_path / "fruit.pdf", FRUIT)])
    stale = (library_dir / INDEX_FILE).read_bytes()
    folio.library.ingest([write_pdf(tmp_path / "more.pdf", [["Grapes make wine."]])])
    chunks = folio.library.verify().chunks
    folio.close()
    index_file = library_dir / INDEX_FILE
    if damage == "delete":
        index_file.unlink()
    elif damage == "corrupt":
        index_file.write_bytes(b"\x00garbage" * 100)
    else:
        index_file.write_bytes(stale)  # an index saved before the last commit (a crash in between)

    reopened = build_services(Settings(), library_dir, embedder=embedder)
    with caplog.at_level(logging.WARNING, logger="folio"):
        assert reopened.library.search("wine grapes", 1).hits[0].document == "more.pdf"
    assert any("vector index rebuilt" in r.getMessage() for r in caplog.records)
    report = reopened.library.verify()
    assert report.ok and report.vectors == chunks
    reopened.close()


def test_verify_finds_and_repairs_keyword_table_drift(
    folio: Folio, library_dir: Path, tmp_path: Path
) -> None:
    folio.library.ingest([write_pdf(tmp_path / "fruit.pdf", FRUIT)])
    with sqlite3.connect(library_dir / STORE_FILE) as conn:
        conn.execute("DELETE FROM chunks_terms WHERE rowid = (SELECT min(id) FROM chunks)")
    report = folio.library.verify()
    assert not report.ok and any("chunks_terms" in p for p in report.problems)
    repaired = folio.library.verify(repair=True)
    assert repaired.ok and repaired.repaired == ["keyword tables rebuilt"]
    assert folio.library.verify().ok


def test_library_refuses_another_embedder(
    library_dir: Path, embedder: Embedder, embed_model_path: Path, tmp_path: Path
) -> None:
    folio = build_services(Settings(), library_dir, embedder=embedder)
    folio.library.ingest([write_pdf(tmp_path / "fruit.pdf", FRUIT)])
    folio.close()
    # The same weights with another max_seq_length: another model, whatever the binding compares
    # (folder name or identity hash; a renamed copy of the same model is tested in
    # test_embedder_identity.py).
    other_dir = tmp_path / "another-embedder"
    for source in embed_model_path.rglob("*"):
        if source.is_file() and source.name != "sentence_bert_config.json":
            out = other_dir / source.relative_to(embed_model_path)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.symlink_to(source.resolve())
    config = json.loads((embed_model_path / "sentence_bert_config.json").read_text(encoding="utf-8"))
    config["max_seq_length"] = int(config["max_seq_length"]) // 2
    (other_dir / "sentence_bert_config.json").write_text(json.dumps(config), encoding="utf-8")
    other = build_services(Settings(), library_dir, embedder=Embedder(other_dir))
    with pytest.raises(EmbedderMismatchError, match="all-MiniLM-L6-v2"):
        other.library.search("apples")
    other.close()


def test_extractor_time_limit_and_crash_fail_only_that_file(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "fruit.pdf", FRUIT)
    slow = PageExtractor(ExtractLimits(base_seconds=0.0, seconds_per_mib=0.0))
    with pytest.raises(ExtractionFailed, match="took longer than"):
        list(slow.pages(pdf))
    slow.close()
    starved = PageExtractor(ExtractLimits(memory_bytes=24 * 1024**2))
    with pytest.raises(
        ExtractionFailed, match=r"not a readable PDF: (parsing it needs too much memory|the reader crashed)"
    ):
        list(starved.pages(pdf))
    starved.close()
    big = write_pdf(tmp_path / "big.pdf", [[f"page {i}"] for i in range(300)])
    crashing = PageExtractor()
    pages = crashing.pages(big)
    next(pages)
    assert crashing._process is not None
    crashing._process.kill()  # what a segfault in the parser looks like from here
    with pytest.raises(ExtractionFailed, match="the reader crashed"):
        list(pages)
    crashing.close()
    healthy = PageExtractor()
    assert [page.number for page in healthy.pages(pdf) if isinstance(page, PageContent)] == [1, 2, 3]
    again = [page.number for page in healthy.pages(pdf) if isinstance(page, PageContent)]
    assert again == [1, 2, 3]  # the worker is reused
    healthy.close()


def test_large_text_is_streamed_in_bounded_batches(folio: Folio, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("\n".join(f"Paragraph {i} describes item number {i} in detail." for i in range(3000)))
    report = folio.library.ingest([big])
    assert report.files[0].status == "added" and report.files[0].pages == 50
    ids = folio.library.store.all_chunk_ids()
    assert len(ids) == report.files[0].chunks > 64
    assert np.all(np.diff(ids) > 0)


def test_copy_of_same_bytes_is_unchanged(folio: Folio, tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "fruit.pdf", FRUIT)
    copy = tmp_path / "copy" / "fruit-copy.pdf"
    copy.parent.mkdir()
    shutil.copy(pdf, copy)
    folio.library.ingest([pdf])
    assert _status(folio.library.ingest([copy]).files) == [("fruit.pdf", "unchanged")]


def test_ingestion_does_not_lock_the_store_while_reading(
    folio: Folio, library_dir: Path, tmp_path: Path
) -> None:
    """A question asked while a long file is indexed must be able to save its chat at once."""
    big = tmp_path / "big.txt"
    big.write_text("\n".join(f"Line {i} is about topic number {i}." for i in range(1200)))
    outcomes: list[str] = []

    def write_elsewhere() -> None:
        conn = sqlite3.connect(library_dir / STORE_FILE, timeout=1.0)
        try:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('probe', 'x')")
            conn.commit()
            outcomes.append("written")
        except sqlite3.OperationalError as exc:
            outcomes.append(str(exc))
        finally:
            conn.close()

    def probe(progress: IngestProgress) -> None:
        if progress.stage == "parsing" and progress.pages_done == 10:
            assert list(library_dir.glob(".staging-*")), "chunks should be staged in a scratch file"
            writer = threading.Thread(target=write_elsewhere)
            writer.start()
            writer.join()

    report = folio.library.ingest([big], progress=probe)
    assert report.files[0].status == "added"
    assert outcomes == ["written"]
    assert not list(library_dir.glob(".staging-*"))
    assert folio.library.verify().ok


def test_leftover_scratch_files_are_removed_on_open(library_dir: Path, embedder: Embedder) -> None:
    library_dir.mkdir(parents=True)
    leftover = library_dir / ".staging-crashed.sqlite3"
    leftover.write_bytes(b"partial")
    folio = build_services(Settings(), library_dir, embedder=embedder)
    assert not leftover.exists()
    folio.close()
