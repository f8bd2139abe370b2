"""Evidence selection: passages cut to the sentences that matter for the question, labels untouched."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pytest

from app.core.answering.evidence.excerpts import (
    ACROSS_COSINE_WEIGHT,
    COSINE_WEIGHT,
    GAP,
    kept_sentences,
    score_sentences,
    select_excerpts,
)
from app.core.embed.embedder import Embedder
from app.core.embed.st_backend import MINILM_SCALES
from app.core.passage import Hit
from tests.core.answer_helpers import make_hit

LIGHTHOUSE = (
    "The harbour was dredged in 1902 to admit larger ships. "
    "A customs house was built on the quay in the same year. "
    "The lighthouse on Skerry Point was first lit in 1871. "
    "Its tower is 31 metres tall and made of granite. "
    "The keepers left in 1983, when the light was automated. "
    "Fishing declined after the war and tourism took its place. "
    "A museum now occupies the old net lofts."
)
HAFEN = (
    "港口在一九〇二年疏浚，以便容纳更大的船只。"
    "同年在码头上建了海关大楼。"
    "斯凯里角灯塔于一八七一年首次点亮。"
    "灯塔高三十一米，由花岗岩砌成。"
    "一九八三年守塔人离开，灯光改为自动控制。"
    "战后渔业衰落，旅游业取而代之。"
)


def test_the_answering_sentence_and_its_neighbours_are_kept_verbatim() -> None:
    hit = make_hit(7, LIGHTHOUSE, page=4)
    (selected,) = select_excerpts("How tall is the lighthouse tower?", [hit])
    assert "Its tower is 31 metres tall and made of granite." in selected.text
    # its neighbours stay: the sentence before names what "Its" is
    assert "The lighthouse on Skerry Point was first lit in 1871." in selected.text
    assert "The keepers left in 1983" in selected.text
    # far sentences go, and the cut is marked where text was left out
    assert "customs house" not in selected.text and "museum" not in selected.text
    assert selected.text.startswith(GAP.strip()) and selected.text.endswith(GAP.strip())
    # every kept run is the passage's own text
    for run in selected.text.split(GAP.strip()):
        assert run.strip() in LIGHTHOUSE
    assert len(selected.text) < 0.7 * len(LIGHTHOUSE)


def test_labels_pages_and_ids_never_change() -> None:
    hit = replace(make_hit(9, LIGHTHOUSE, document="history.pdf", page=12), page_end=13, section="")
    (selected,) = select_excerpts("When were the keepers withdrawn?", [hit])
    assert selected.text != hit.text
    assert replace(selected, text=hit.text) == hit


def test_a_short_passage_is_kept_whole() -> None:
    hit = make_hit(1, "The lighthouse was first lit in 1871. Its tower is 31 metres tall.")
    assert select_excerpts("How tall is the tower?", [hit]) == [hit]


def test_a_chinese_question_is_scored_by_its_words_without_the_english_embedder() -> None:
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> npt.NDArray[np.float32]:
        calls.append(texts)
        return np.ones((len(texts), 4), dtype=np.float32)

    (selected,) = select_excerpts("灯塔有多高？", [make_hit(1, HAFEN)], embed, MINILM_SCALES)
    assert "灯塔高三十一米，由花岗岩砌成。" in selected.text
    assert "港口在一九〇二年疏浚" not in selected.text and "旅游业" not in selected.text
    assert calls == []


def test_each_passage_keeps_its_own_best_sentences() -> None:
    other = make_hit(2, LIGHTHOUSE.replace("31 metres tall", "twelve metres wide"), page=8)
    scores = score_sentences("How tall is the tower?", [LIGHTHOUSE, other.text], None, None)
    assert kept_sentences(scores[0]) == [2, 3, 4]
    chosen = select_excerpts("How tall is the tower?", [make_hit(1, LIGHTHOUSE), other])
    assert [hit.chunk_id for hit in chosen] == [1, 2]
    assert "twelve metres wide" in chosen[1].text


def test_the_embedder_finds_a_paraphrase_that_shares_no_word(embedder: Embedder) -> None:
    passage = (
        "The station has a small waiting room. "
        "Tickets are sold at the counter until six in the evening. "
        "The platform was extended in 1998. "
        "Bicycles may be left in the shed behind the building. "
        "Trains to the coast run every hour. "
        "A café opened next to the entrance in 2010. "
        "The old signal box is now a listed monument."
    )
    hits: list[Hit] = [make_hit(1, passage)]
    question = "Where can I park my bike?"
    words_only = select_excerpts(question, hits)[0].text
    with_vectors = select_excerpts(question, hits, embedder.embed, embedder.scales)[0].text
    assert "Bicycles may be left in the shed" in with_vectors
    assert words_only != with_vectors


def test_more_evidence_is_kept_until_half_the_passage_and_nothing_for_itself_without_any() -> None:
    codes = (
        "Page 4 of 5 Owner's Manual. Troubleshooting. E3 on the display: the water tank is not detected. "
        "Push the tank down until it clicks. E5 on the display: the boiler has overheated. "
        "Let it cool for 20 minutes. E7 on the display: the grinder is blocked by a stone. "
        "Empty the hopper and restart. Descale every 3 months. Replace the filter every 2 months."
    )
    (selected,) = select_excerpts("What does error code E7 mean?", [make_hit(1, codes)])
    assert "E7 on the display: the grinder is blocked by a stone." in selected.text
    assert "Replace the filter" not in selected.text
    assert len(selected.text) <= 0.5 * len(codes) + 60  # half, plus the sentence that crosses it
    unrelated = make_hit(2, LIGHTHOUSE)
    scores = score_sentences("What does error code E7 mean?", [unrelated.text], None, None)[0]
    assert all(score.score == 0.0 for score in scores)
    assert kept_sentences(scores) == [0, 1]  # the first sentence and its neighbour, nothing more


def test_a_sentence_in_the_other_script_weighs_its_cosine_more_as_more_passages_are_in_it() -> None:
    english = "The filter housing is made of grey ABS plastic."
    chinese = "滤网每 6 个月更换一次。"
    question = "How often should the filter be replaced?"
    few = score_sentences(question, [english, english, english, chinese], None, None)
    many = score_sentences(question, [english, chinese, chinese, chinese], None, None)
    assert few[0][0].cosine_weight == many[0][0].cosine_weight == COSINE_WEIGHT
    step = (ACROSS_COSINE_WEIGHT - COSINE_WEIGHT) / 4
    assert few[3][0].cosine_weight == pytest.approx(COSINE_WEIGHT + step)
    assert many[3][0].cosine_weight == pytest.approx(COSINE_WEIGHT + 3 * step)
    assert COSINE_WEIGHT < few[3][0].cosine_weight < many[3][0].cosine_weight < ACROSS_COSINE_WEIGHT
