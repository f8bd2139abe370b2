"""Questions in one language find pages in the other: the multilingual embedder, ranked per script."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.errors import EmbedderMismatchError
from app.core.index.scripts import ScriptPartition
from app.core.qa import Folio
from app.core.retrieve import MULTILINGUAL_WEIGHTS, WEIGHTS, LegWeights, Retriever
from app.core.script import text_script
from app.core.services import build_services

# Two languages, several subjects each, so that a page must be found by what it says.
ENGLISH = {
    "lighthouse.txt": "The Carrick Point lighthouse was built in 1868 from granite blocks. Its lamp stands "
    "31 metres above the sea and can be seen from 22 nautical miles away.",
    "bakery.txt": "Our sourdough rises for eighteen hours at a cool temperature before it is baked in a "
    "wood-fired oven. Rye and spelt loaves are sold on Saturdays only.",
    "cycling.txt": "Before a long ride, pump the tyres to the pressure printed on their side and check "
    "that both brakes stop the wheel firmly. Carry a spare inner tube and a pump.",
}
CHINESE = {
    "tea.txt": "龙井茶的采摘在清明节前后开始，嫩芽经过杀青、揉捻和烘干制成。上等龙井色泽翠绿，香气清高。",
    "bridge.txt": "永安桥建于清朝乾隆年间，是一座青石拱桥，全长四十六米，共有七个桥孔，至今仍可通行行人。",
    "purifier.txt": "空气净化器的复合滤网大约使用三千小时后需要更换。"
    "滤网不可水洗，否则会破坏其中的活性炭层。",
}


@pytest.fixture
def bilingual(tmp_path: Path, multilingual_embedder: Embedder) -> Iterator[Folio]:
    files = []
    for name, text in {**ENGLISH, **CHINESE}.items():
        files.append(tmp_path / name)
        files[-1].write_text(text + "\n", encoding="utf-8")
    folio = build_services(Settings(), tmp_path / "library", embedder=multilingual_embedder)
    report = folio.library.ingest(files)
    assert not report.failed
    yield folio
    folio.close()


def _first_of(folio: Folio, question: str, documents: dict[str, str]) -> tuple[str, int]:
    """The first hit (of 5) among `documents`, and its 1-based rank."""
    hits = folio.library.search(question, 5).hits
    rank, hit = next((n, h) for n, h in enumerate(hits, start=1) if h.document in documents)
    return hit.document, rank


def test_an_english_question_finds_the_chinese_page(bilingual: Folio) -> None:
    assert _first_of(bilingual, "How many arches does the old stone bridge have?", CHINESE)[0] == "bridge.txt"
    assert _first_of(bilingual, "How long does the purifier's filter last?", CHINESE)[0] == "purifier.txt"


def test_a_chinese_question_finds_the_english_page(bilingual: Folio) -> None:
    assert _first_of(bilingual, "灯塔的灯离海面有多高？", ENGLISH)[0] == "lighthouse.txt"
    assert _first_of(bilingual, "长途骑行前应该检查什么？", ENGLISH)[0] == "cycling.txt"


def test_a_same_language_question_still_finds_its_page_first(bilingual: Folio) -> None:
    assert bilingual.library.search("When was the lighthouse built?", 3).hits[0].document == "lighthouse.txt"
    assert bilingual.library.search("龙井茶什么时候开始采摘？", 3).hits[0].document == "tea.txt"


def test_a_translated_question_searches_the_other_language_with_its_own_words(
    tmp_path: Path, embedder: Embedder
) -> None:
    """MiniLM cannot cross languages; the question's translation (Retriever.search `translated`)
    finds the Chinese page by its words and its vector among the Chinese chunks."""
    files = []
    for name, text in {**ENGLISH, **CHINESE}.items():
        files.append(tmp_path / name)
        files[-1].write_text(text + "\n", encoding="utf-8")
    folio = build_services(Settings(), tmp_path / "library", embedder=embedder)
    try:
        assert not folio.library.ingest(files).failed
        question = "How many openings does the Yong'an stone bridge have?"
        alone = [h.document for h in folio.library.search(question, 4).hits]
        helped = [h.document for h in folio.library.search(question, 4, translated="永安桥有几个桥孔？").hits]
        assert "bridge.txt" not in alone[:2]
        assert helped.index("bridge.txt") < 2
        # a "translation" in the question's own script adds nothing
        same = [
            h.document for h in folio.library.search(question, 4, translated="Yong'an bridge openings").hits
        ]
        assert same == alone
    finally:
        folio.close()


def test_the_translation_joins_the_other_scripts_list(bilingual: Folio) -> None:
    """With a multilingual embedder the other script's list is fused apart; the translation's legs
    vote inside it, so the Chinese page it names leads that list."""
    hits = bilingual.library.search("Which building is a grey stone arch?", 5, translated="青石拱桥").hits
    chinese = [h.document for h in hits if h.document in CHINESE]
    assert chinese[0] == "bridge.txt"


def test_chunks_are_partitioned_by_script_and_searched_within_one(bilingual: Folio) -> None:
    index = bilingual.library.reader.ready()
    partition = ScriptPartition(bilingual.library.store)
    query = bilingual.library.embedder.embed_query(["a bridge with seven arches"])[0]
    found = {
        script: {
            bilingual.library.store.chunks([cid])[cid].document
            for cid, _ in index.search(query, 10, partition.selector(script))
        }
        for script in ("latin", "cjk")
    }
    assert found == {"latin": set(ENGLISH), "cjk": set(CHINESE)}
    assert text_script("用 ls -la 查看欢迎信息") == "cjk"
    assert text_script("The town of 青溪 has a stone bridge with seven arches.") == "latin"


def test_the_embedders_choose_their_fusion(multilingual_embedder: Embedder, embedder: Embedder) -> None:
    assert multilingual_embedder.multilingual and not embedder.multilingual
    store = object.__new__(Retriever)  # weights are chosen from the embedder alone
    Retriever.__init__(store, None, None, multilingual_embedder)  # type: ignore[arg-type]
    assert store.weights is MULTILINGUAL_WEIGHTS
    Retriever.__init__(store, None, None, embedder)  # type: ignore[arg-type]
    assert store.weights is WEIGHTS  # MiniLM is English-only: its other-script ranking is one more leg
    assert not any(w.apart for w in WEIGHTS.values())
    assert all(w.apart and w.other_script for w in MULTILINGUAL_WEIGHTS.values())


def test_token_counts_and_splits_use_the_models_own_pieces(multilingual_embedder: Embedder) -> None:
    text = " ".join(f"word{i} 模型 cache" for i in range(300))
    spans = multilingual_embedder.split_by_tokens(text, 64)
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))  # contiguous
    counts = multilingual_embedder.count_tokens([text[a:b] for a, b in spans])
    assert max(counts) <= 64 and sum(counts) >= multilingual_embedder.count_tokens([text])[0] - len(spans)
    assert multilingual_embedder.count_tokens(["", "hello"])[0] == 0
    assert 256 <= multilingual_embedder.max_tokens <= 1024


def test_queries_and_passages_embed_alike(multilingual_embedder: Embedder) -> None:
    text = "How many arches does the bridge have?"
    query, passage = multilingual_embedder.embed_query([text])[0], multilingual_embedder.embed([text])[0]
    assert float(np.dot(query, query)) == pytest.approx(1.0, abs=1e-4)
    assert float(np.dot(query, passage)) > 0.9999  # USE has no query prefix


def test_a_library_of_one_embedder_refuses_the_other(
    tmp_path: Path, multilingual_embedder: Embedder, embedder: Embedder
) -> None:
    note = tmp_path / "note.txt"
    note.write_text("The lighthouse lamp stands 31 metres above the sea.\n", encoding="utf-8")
    old = build_services(Settings(), tmp_path / "library", embedder=embedder)
    old.library.ingest([note])
    old.close()
    new = build_services(Settings(), tmp_path / "library", embedder=multilingual_embedder)
    with pytest.raises(EmbedderMismatchError, match="all-MiniLM-L6-v2"):
        new.library.search("lighthouse")
    new.close()


def test_a_search_among_some_ids_keeps_to_them_in_both_layouts() -> None:
    import faiss

    from app.core.index.layout import IndexLayout
    from app.core.index.vector_index import VectorIndex

    rng = np.random.default_rng(7)
    vectors = rng.random((2000, 8), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(2000, dtype=np.int64)
    even = faiss.IDSelectorBatch(ids[::2])
    for index in (VectorIndex(8), VectorIndex.empty(8, IndexLayout("ivf", 16, 16), vectors)):
        index.add(ids, vectors)
        assert [cid for cid, _ in index.search(vectors[4], 1)] == [4]
        assert all(cid % 2 == 0 for cid, _ in index.search(vectors[3], 10, even))
        odd = index.search(vectors[3], 10, faiss.IDSelectorNot(even))
        assert odd[0][0] == 3 and all(cid % 2 == 1 for cid, _ in odd)


def test_a_library_opens_with_the_embedder_that_wrote_it(
    tmp_path: Path, multilingual_embedder: Embedder
) -> None:
    note = tmp_path / "note.txt"
    note.write_text("永安桥共有七个桥孔。\n", encoding="utf-8")
    made = build_services(Settings(), tmp_path / "library", embedder=multilingual_embedder)
    made.library.ingest([note])
    made.close()
    reopened = build_services(Settings(), tmp_path / "library")  # no embedder set: the library's own
    assert reopened.library.embedder.model_dir == multilingual_embedder.model_dir
    assert reopened.library.search("How many arches does the bridge have?", 1).hits[0].document == "note.txt"
    reopened.close()
    fresh = build_services(Settings(), tmp_path / "new-library")
    assert fresh.library.embedder.model_dir == Settings().embed_model_path()  # a new library: the default
    fresh.close()


def test_the_other_language_counts_less_when_its_best_page_is_far_from_the_question(bilingual: Folio) -> None:
    """LegWeights.other_margin: the other script's list is damped only when its best cosine is far
    below the own script's best (a question about the lighthouse), not for a question whose answer
    is in the other language (the bridge)."""
    import dataclasses

    from app.core.normalize import normalize_text

    plain = {s: dataclasses.replace(w, other_margin=None) for s, w in MULTILINGUAL_WEIGHTS.items()}
    chinese_ids = {cid for cid, row in _all_chunks(bilingual).items() if row in CHINESE}

    def best_chinese(weights: dict[str, LegWeights], question: str) -> float:
        retriever = Retriever(
            bilingual.library.store,
            bilingual.library.reader.ready(),
            bilingual.library.embedder,
            weights=weights,
        )
        _, votes = retriever.fused(normalize_text(question), 20)
        return max(score for cid, score in votes.items() if cid in chinese_ids)

    own = "When was the lighthouse built, and how far can its lamp be seen?"
    assert best_chinese(MULTILINGUAL_WEIGHTS, own) < best_chinese(plain, own)
    cross = "How many arches does the old stone bridge have?"
    assert best_chinese(MULTILINGUAL_WEIGHTS, cross) == best_chinese(plain, cross)


def _all_chunks(folio: Folio) -> dict[int, str]:
    """chunk id -> document name, for every chunk of the library."""
    ids = list(range(1, 1000))
    return {cid: row.document for cid, row in folio.library.store.chunks(ids).items()}
