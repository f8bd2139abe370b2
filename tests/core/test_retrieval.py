"""Chinese keyword forms, the keyword-table upgrade on open, weighted fusion and distinct places."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import run_cli
from app.core import paths
from app.core.embed.binding import bind_library_embedder
from app.core.embed.embedder import Embedder
from app.core.fusion import reciprocal_rank_fusion
from app.core.ingest.chunker import ChunkDraft
from app.core.keywords import KEYWORDS_VERSION, query_terms, terms_phrases, terms_query, terms_text
from app.core.qa import Folio
from app.core.retrieve import Retriever, same_place
from app.core.store.database import STORE_FILE
from app.core.store.library import LibraryStore
from app.core.store.records import ChunkRow, NewChunk
from tests.pdfgen import write_pdf


def test_cjk_terms_are_bigrams_plus_single_characters() -> None:
    assert terms_text("模型缓存 Config") == "模型 型缓 缓存 模 型 缓 存 config"
    assert terms_text("猫") == "猫"
    assert query_terms("猫 吃 fish, 模型缓存") == ["猫", "吃", "fish", "模型", "型缓", "缓存"]
    assert terms_query("猫") == '"猫"'


def _row(cid: int, doc: int, start: tuple[int, int], end: tuple[int, int]) -> ChunkRow:
    return ChunkRow(cid, doc, "d.pdf", "/d.pdf", start[0], end[0], start[1], end[1], "", b"")


def test_weighted_fusion_and_overlap() -> None:
    scores = reciprocal_rank_fusion([[1, 2], [2, 3]], [1.0, 0.5], k=1)
    assert scores == {1: 0.5, 2: 1.0 / 3 + 0.25, 3: 0.5 / 3}
    first = _row(1, 1, (1, 0), (1, 500))
    assert same_place(first, _row(2, 1, (1, 450), (2, 100)))  # neighbour sharing its overlap
    assert not same_place(first, _row(3, 1, (1, 500), (1, 900)))  # the next place on the page
    assert not same_place(first, _row(4, 2, (1, 0), (1, 500)))  # another document


def test_keyword_tables_of_an_older_version_are_rebuilt_on_open(embedder: Embedder, tmp_path: Path) -> None:
    library = tmp_path / "library"
    store = LibraryStore(library)
    bind_library_embedder(store, embedder)
    texts = ["我的猫喜欢吃鱼。", "模型缓存放在磁盘上。"]
    chunks = [
        NewChunk(ChunkDraft(t, n + 1, 0, n + 1, len(t), 8), v)
        for n, (t, v) in enumerate(zip(texts, embedder.embed(texts), strict=True))
    ]
    store.write_document(
        path="/d/zh.txt", name="zh.txt", sha256="2" * 64, kind="txt", size=1, batches=[chunks]
    )
    store.close()
    # What a version-1 library holds: character bigrams only, and no version stamp.
    with sqlite3.connect(library / STORE_FILE) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'keywords_version'")
        conn.execute("DELETE FROM chunks_terms")
        conn.executemany(
            "INSERT INTO chunks_terms(rowid, terms) SELECT id, ? FROM chunks WHERE text = ?",
            [
                ("我的 的猫 猫喜 喜欢 欢吃 吃鱼", texts[0]),
                ("模型 型缓 缓存 存放 放在 在磁 磁盘 盘上", texts[1]),
            ],
        )
    store = LibraryStore(library)
    assert store.meta("keywords_version") == KEYWORDS_VERSION
    assert len(store.keyword_row_ids("chunks_terms")) == 2 and store.chunk_count() == 2
    found = store.keyword_search("chunks_terms", terms_phrases("猫"), 5)
    assert [store.chunks(found)[cid].text for cid in found] == [texts[0]]
    store.close()


def test_hits_are_distinct_places(folio: Folio, tmp_path: Path) -> None:
    sentences = [f"Lighthouse fact {n}: the Cape Merrow lighthouse keeper logs the lamp." for n in range(60)]
    folio.library.ingest([write_pdf(tmp_path / "light.pdf", [sentences])])
    hits = folio.library.search("Cape Merrow lighthouse lamp keeper", 6).hits
    assert len(hits) >= 3
    rows = folio.library.store.chunks([h.chunk_id for h in hits])
    for n, hit in enumerate(hits):
        for other in hits[n + 1 :]:
            assert not same_place(rows[hit.chunk_id], rows[other.chunk_id])


def test_reindex_library_into_a_new_folder(
    folio: Folio, library_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folio.library.ingest([write_pdf(tmp_path / "tea.pdf", [["Green tea is steeped at 80 degrees."]])])
    target = tmp_path / "new-library"
    assert run_cli(["reindex-library", "--library", str(library_dir), "--into", str(target), "--json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert [(f["document"], f["status"]) for f in files] == [("tea.pdf", "added")]
    store = LibraryStore(target)
    assert [d.name for d in store.documents()] == ["tea.pdf"]
    # an old library (MiniLM, as the fixture wrote it) moves to the default of new libraries
    assert folio.library.embedder.name == paths.ENGLISH_EMBED_MODEL_DIR
    assert store.meta("embed_model") == paths.DEFAULT_EMBED_MODEL_DIR and store.chunk_count() >= 1
    store.close()
    # never into a library that already holds something, never into itself
    assert run_cli(["reindex-library", "--library", str(library_dir), "--into", str(target)]) == 2
    assert run_cli(["reindex-library", "--library", str(library_dir), "--into", str(library_dir)]) == 2
    assert "not empty" in capsys.readouterr().err


def test_a_sibling_models_passage_ranks_below_the_asked_models(folio: Folio, tmp_path: Path) -> None:
    # the X40's sentence shares more words with the question; only the file names say which model
    x40 = write_pdf(tmp_path / "acme-x40-manual.pdf", [["The filter lasts about 3000 hours of use."]])
    x60 = write_pdf(tmp_path / "acme-x60-manual.pdf", [["Replace the cartridge after some 4000 hours."]])
    folio.library.ingest([x40, x60])
    question = "How many hours does the filter last on the X60?"
    reader = folio.library.reader
    unweighted = Retriever(
        folio.library.store,
        reader.ready(),
        folio.library.embedder,
        scripts=reader.scripts,
        other_name_weight=1.0,
    )
    assert unweighted.search(question, 2).hits[0].document == "acme-x40-manual.pdf"
    assert folio.library.search(question, 2).hits[0].document == "acme-x60-manual.pdf"
    # a question that names neither model ranks as before
    assert (
        folio.library.search("How many hours does the filter last?", 2).hits[0].document
        == "acme-x40-manual.pdf"
    )
