"""The multilingual default of new libraries: an old MiniLM library keeps MiniLM, the window's
advice says so, and re-indexing moves it to USE with its chats (real embedders, SQLite, FAISS)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import paths
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.services import build_services
from app.core.store.conversations import AnswerRecord
from app.core.store.swap import reindex_folder, replace_library
from tests.pdfgen import write_pdf

ENGLISH = "The lighthouse on Cape Merrow is thirty-one metres tall and flashes green."


@pytest.mark.slow
def test_an_old_minilm_library_keeps_minilm_until_re_indexed_into_use(
    embedder: Embedder, library_dir: Path, tmp_path: Path
) -> None:
    assert embedder.name == paths.ENGLISH_EMBED_MODEL_DIR and embedder.name != paths.DEFAULT_EMBED_MODEL_DIR
    old = build_services(Settings(), library_dir, embedder=embedder)  # as the previous release wrote it
    old.library.ingest([write_pdf(tmp_path / "light.pdf", [[ENGLISH]])])
    chat = old.chats.conversations.save(AnswerRecord("How tall?", "31 m [1].", "", "stop", []), None)[0]
    old.close()

    reopened = build_services(Settings(), library_dir)  # the default settings: no embedder named
    assert reopened.library.embedder.name == paths.ENGLISH_EMBED_MODEL_DIR  # the library's own, not USE
    assert reopened.library.search("lighthouse height", 3).hits
    advice = reopened.library.reindex_advice()
    assert advice is not None
    assert (advice.embedder, advice.default, advice.documents, advice.pages) == (
        paths.ENGLISH_EMBED_MODEL_DIR,
        paths.DEFAULT_EMBED_MODEL_DIR,
        1,
        1,
    )
    assert advice.minutes == 1
    # an embedder the user chose in Settings is theirs: no advice
    chosen = Settings(embed_model_dir=str(paths.english_embed_model()))
    reopened.settings_owner.update(chosen)
    assert reopened.library.reindex_advice() is None
    reopened.settings_owner.update(Settings())

    into = reindex_folder(library_dir)
    report = reopened.library.reindex_library(into)
    assert [(f.document, f.status) for f in report.files] == [("light.pdf", "added")]
    reopened.close()
    kept = replace_library(library_dir, into)
    assert (kept / "library.sqlite3").is_file() and not into.exists()

    new = build_services(Settings(), library_dir)
    try:
        assert (
            new.library.embedder.name == paths.DEFAULT_EMBED_MODEL_DIR and new.library.embedder.multilingual
        )
        assert new.library.store.meta("embed_model") == paths.DEFAULT_EMBED_MODEL_DIR
        assert new.library.reindex_advice() is None
        # the English page is found by a Chinese question now (USE crosses languages)
        hits = new.library.search("灯塔有多高？", 3).hits
        assert hits and hits[0].document == "light.pdf"
        assert [c.id for c in new.chats.summaries()] == [chat]  # the chats came along
    finally:
        new.close()


def test_re_indexing_refuses_the_library_itself_and_a_folder_in_use(
    embedder: Embedder, library_dir: Path, tmp_path: Path
) -> None:
    folio = build_services(Settings(), library_dir, embedder=embedder)
    try:
        from app.core.errors import UsageError

        with pytest.raises(UsageError, match="not the library being read"):
            folio.library.reindex_library(library_dir)
        busy = tmp_path / "busy"
        busy.mkdir()
        (busy / "file").write_text("x", encoding="utf-8")
        with pytest.raises(UsageError, match="not empty"):
            folio.library.reindex_library(busy)
    finally:
        folio.close()
