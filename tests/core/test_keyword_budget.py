"""The bounded keyword legs: exact bm25 below the row budget, the rarest phrases within it above,
English and Chinese, on a real SQLite library that documents are written to and removed from."""

from __future__ import annotations

from pathlib import Path

from app.core.embed.binding import bind_library_embedder
from app.core.embed.embedder import Embedder
from app.core.index.sync import rebuild_index
from app.core.ingest.chunker import ChunkDraft
from app.core.keywords import terms_phrases, trigram_phrases
from app.core.qa import Folio
from app.core.retrieve import Retriever
from app.core.store.library import LibraryStore
from app.core.store.records import NewChunk

# Each text: how many chunks of it one document holds. "alpha"/模型 are common (26 chunks),
# "gamma"/磁盘 rarer (9), "omega"/缓存 rare (2); a row with a rare and a common phrase is ranked by both.
ENGLISH = [
    ("alpha beta words here", 21),
    ("gamma beta beta words", 4),
    ("alpha gamma beta words", 3),  # as long as the row above: alpha ranks it first
    ("alpha omega gamma", 2),
]
CHINESE = [("模型很好用", 21), ("磁盘上面好", 4), ("模型在磁盘", 3), ("模型缓存放在磁盘", 2)]


def _write(store: LibraryStore, embedder: Embedder, name: str, texts: list[tuple[str, int]]) -> None:
    bodies = [body for body, count in texts for _ in range(count)]
    vectors = embedder.embed([body for body, _ in texts])
    repeated = [vectors[n] for n, (_, count) in enumerate(texts) for _ in range(count)]
    chunks = [
        NewChunk(ChunkDraft(body, n + 1, 0, n + 1, len(body), 4), vector)
        for n, (body, vector) in enumerate(zip(bodies, repeated, strict=True))
    ]
    store.write_document(
        path=f"/d/{name}", name=name, sha256=name.ljust(64, "0"), kind="txt", size=1, batches=[chunks]
    )


def _library(tmp_path: Path, embedder: Embedder) -> LibraryStore:
    store = LibraryStore(tmp_path / "library")
    bind_library_embedder(store, embedder)
    _write(store, embedder, "en.txt", ENGLISH)
    _write(store, embedder, "zh.txt", CHINESE)
    return store


def _texts(store: LibraryStore, ids: list[int]) -> list[str]:
    rows = store.chunks(ids)
    return [rows[cid].text for cid in ids]


def test_below_the_budget_the_ranking_is_exact_bm25(tmp_path: Path, embedder: Embedder) -> None:
    store = _library(tmp_path, embedder)
    for query in ("alpha gamma omega", "omega words", "模型缓存在磁盘", "磁盘上"):
        for table, phrases in (
            ("chunks_terms", terms_phrases(query)),
            ("chunks_trigram", trigram_phrases(query)),
        ):
            exact = store.keyword_search(table, phrases, 50, budget=None)
            assert exact, (query, table)
            assert store.keyword_search(table, phrases, 50) == exact
    store.close()


def test_above_the_budget_only_the_rarest_phrases_are_ranked(tmp_path: Path, embedder: Embedder) -> None:
    store = _library(tmp_path, embedder)
    # Within 13 rows: every phrase but alpha / 模型 (26 chunks) fits (omega 2 rows, gamma 9; 缓存 2,
    # 型缓 2, 磁盘 9, 存磁 none).
    for table, query, common in (
        ("chunks_terms", "alpha gamma omega", '"alpha"'),
        ("chunks_terms", "模型缓存磁盘", '"模型"'),
        ("chunks_trigram", "alpha gamma omega", '"alpha"'),
    ):
        phrases = terms_phrases(query) if table == "chunks_terms" else trigram_phrases(query)
        found = store.keyword_search(table, phrases, 50, budget=13)
        exact = store.keyword_search(table, phrases, 50, budget=None)
        assert len(exact) == 30, (table, query)  # with the 21 rows holding only the common phrase
        assert len(found) == 9, (table, query)  # only the rows with a rare phrase...
        assert found == exact[:9], (table, query)  # ...ranked by every phrase, as exact bm25 does
        rare_only = store.keyword_search(table, [p for p in phrases if p not in common], 50, budget=None)
        assert sorted(rare_only) == sorted(found) and rare_only != found  # the common phrase counts
    # The rarest phrase is ranked even when it alone has more rows than the budget.
    found = store.keyword_search("chunks_terms", terms_phrases("alpha gamma"), 50, budget=3)
    assert found == store.keyword_search("chunks_terms", terms_phrases("alpha gamma"), 50, budget=None)[:9]
    store.close()


def test_the_bounded_legs_follow_writes_removals_and_reopening(tmp_path: Path, embedder: Embedder) -> None:
    store = _library(tmp_path, embedder)
    phrases = terms_phrases("alpha omega")
    assert len(store.keyword_search("chunks_terms", phrases, 50, budget=10)) == 2
    _write(store, embedder, "more.txt", [("omega again", 3)])
    found = store.keyword_search("chunks_terms", phrases, 50, budget=10)
    assert sorted(_texts(store, found)) == ["alpha omega gamma"] * 2 + ["omega again"] * 3
    more = store.document_by_path("/d/more.txt")
    assert more is not None
    store.delete_document(more.id)
    left = store.keyword_search("chunks_terms", phrases, 50, budget=10)
    assert _texts(store, left) == ["alpha omega gamma"] * 2
    store.close()
    reopened = LibraryStore(tmp_path / "library")
    assert reopened.keyword_search("chunks_terms", phrases, 50, budget=10) == left
    reopened.close()


def test_fused_search_is_the_same_with_and_without_the_budget(folio: Folio, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "cache.txt").write_text(
        "The model cache lives on the local disk. Eviction removes the least recently used entries.\n\n"
        "Backups run every night and keep thirty copies of the database.",
        encoding="utf-8",
    )
    (notes / "zh.txt").write_text(
        "模型缓存放在本地磁盘上。淘汰时删除最近最少使用的条目。\n\n备份每天晚上运行，保留三十份数据库副本。",
        encoding="utf-8",
    )
    assert not folio.library.ingest(sorted(notes.iterdir())).failed
    index = rebuild_index(folio.library.store, folio.library.embedder.dimension, tmp_path / "index.faiss")
    bounded = Retriever(folio.library.store, index, folio.library.embedder)
    exact = Retriever(folio.library.store, index, folio.library.embedder, keyword_budget=None)
    for query in (
        "where does the model cache live?",
        "how many backup copies",
        "模型缓存在哪里？",
        "备份保留几份",
    ):
        assert [h.chunk_id for h in bounded.search(query, 4).hits] == [
            h.chunk_id for h in exact.search(query, 4).hits
        ], query
