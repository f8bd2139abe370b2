"""Documents an earlier version of Folio's reading read: recorded per document, advised, read again in
place (a real PDF, store, embedder and a library taken back to schema version 3)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import app.core.ingest.pipeline as pipeline
from app.core.ingest.page import PageContent
from app.core.ingest.reader_version import READER_VERSION
from app.core.passage import Hit
from app.core.qa import Folio
from app.core.services import build_services
from app.core.store.database import STORE_FILE
from app.core.store.schema import SCHEMA_VERSION
from tests.core.test_running_lines import BODY, TITLE
from tests.pdfgen import write_pdf


def _as_read_before(library_dir: Path) -> None:
    """The library as a Folio before reader versions left it: schema version 3, no column."""
    db = sqlite3.connect(library_dir / STORE_FILE)
    db.execute("ALTER TABLE documents DROP COLUMN reader_version")
    db.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    db.commit()
    db.close()


def _kept_running_lines(pages: Iterable[tuple[PageContent, str]]) -> Iterator[tuple[PageContent, str, str]]:
    """The reading before running lines were left out: every page as it was read, no title."""
    for page, text in pages:
        yield page, text, ""


def _passages(folio: Folio, name: str) -> list[Hit]:
    (info,) = [info for info in folio.library.documents() if info.name == name]
    hits, _ = folio.library.reader.document_passages(info.id)
    return hits


def test_a_new_document_records_the_reader_version_and_needs_no_reread(
    small_chunks: Folio, tmp_path: Path
) -> None:
    pdf = write_pdf(
        tmp_path / "k2.pdf", [[TITLE, *body, f"Page {n + 1} of 4"] for n, body in enumerate(BODY)]
    )
    small_chunks.library.ingest([pdf])
    (info,) = small_chunks.library.documents()
    assert info.reader_version == READER_VERSION and info.to_json()["reader_version"] == READER_VERSION
    assert small_chunks.library.reread_advice() is None


def test_documents_read_before_are_advised_and_read_again_in_place(
    small_chunks: Folio, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = [[TITLE, *body, f"Page {n + 1} of 4"] for n, body in enumerate(BODY)]
    pdf = write_pdf(tmp_path / "k2.pdf", pages)
    gone = write_pdf(tmp_path / "gone.pdf", [["A page about the water tank and its filter."]])
    with monkeypatch.context() as patch:  # read as the earlier version read it: headers kept
        patch.setattr(pipeline, "without_running_lines", _kept_running_lines)
        small_chunks.library.ingest([pdf, gone])
    assert any("Owner's Manual" in hit.text for hit in _passages(small_chunks, "k2.pdf"))
    library_dir = small_chunks.library_dir
    small_chunks.close()
    _as_read_before(library_dir)
    gone.unlink()

    reopened = build_services(small_chunks.settings, library_dir, embedder=small_chunks.library.embedder)
    try:
        assert reopened.library.store.meta("schema_version") == SCHEMA_VERSION
        docs = {info.name: info for info in reopened.library.documents()}
        assert {info.reader_version for info in docs.values()} == {0}
        advice = reopened.library.reread_advice()
        # the document whose file is gone keeps what it has and is not offered
        assert advice is not None and advice.documents == (docs["k2.pdf"].id,)
        assert advice.pages == 4 and advice.minutes == 1
        report = reopened.library.reindex(*advice.documents)
        assert [item.status for item in report.files] == ["updated"] and not report.failed
        assert reopened.library.reread_advice() is None
        k2 = next(info for info in reopened.library.documents() if info.name == "k2.pdf")
        assert k2.reader_version == READER_VERSION and k2.id == docs["k2.pdf"].id
        hits = _passages(reopened, "k2.pdf")
        assert hits and all("Owner's Manual" not in hit.text for hit in hits)
        assert all(hit.heading.startswith(TITLE) for hit in hits)
        assert reopened.library.verify().ok
    finally:
        reopened.close()
