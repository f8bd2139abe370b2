"""Sentence support scoring and citation verification, lexical alone and with the real embedder."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from app.core import paths
from app.core.answering.judge.attribution import CALIBRATION, attribute
from app.core.answering.judge.checks import Attribution, SentenceCheck
from app.core.embed.embedder import Embedder
from app.core.embed.st_backend import MINILM_SCALES
from tests.core.attribution_cases import CachedEmbedder, evaluate, load_cases

LIGHTHOUSE = [
    "The lighthouse at Cape Merrow was finished in 1893. Its white stone tower is 31 m tall and stands on "
    "a granite ledge above the harbour. The keeper's cottage beside it is now a small museum.",
    "The light shows a green flash every 12 seconds. Ships use it to find the safe channel between the "
    "Merrow reefs and the sandbanks to the north. In fog, a horn sounds twice a minute.",
    "The mill pond north of the village was dug in 1851 to power a grain mill. It is 2.5 metres deep and "
    "is fed by the River Lune. Today it is a nature reserve with herons and otters.",
]
LIGHTHOUSE_ZH = [
    "梅罗角灯塔建于1893年。白色石塔高31米，矗立在港口上方的花岗岩上。旁边的守塔人小屋现在是一座小型博物馆。",
    "灯塔每12秒发出一次绿色闪光。船只依靠它找到梅罗暗礁与北面沙洲之间的安全航道。起雾时，雾笛每分钟鸣响两次。",
]


def only(answer: str, passages: list[str]) -> SentenceCheck:
    result = attribute(answer, passages)
    assert len(result.sentences) == 1
    return result.sentences[0]


def test_a_right_marker_is_kept_as_the_models() -> None:
    check = only("The lighthouse tower is 31 m tall [1].", LIGHTHOUSE)
    assert (check.citations, check.source, check.supported, check.kind) == ((1,), "model", True, "factual")
    assert check.wrong_citations == ()
    assert check.support >= CALIBRATION.threshold


def test_a_wrong_marker_is_reported_and_replaced_by_the_supporting_passage() -> None:
    result = attribute("The light flashes green every 12 seconds [1].", LIGHTHOUSE)
    check = result.sentences[0]
    assert (check.citations, check.source, check.supported) == ((2,), "matched", True)
    assert check.wrong_citations == (1,)
    assert result.wrong_citations == (1,)


def test_a_wrong_marker_with_no_supporting_passage_leaves_the_sentence_unsupported() -> None:
    check = only("The lighthouse was painted by Claude Monet in 1901 [1].", LIGHTHOUSE)
    assert (check.citations, check.source, check.supported) == ((), "none", False)
    assert check.wrong_citations == (1,)
    assert check.evidence == {}


def test_one_right_and_one_wrong_marker_and_one_out_of_range() -> None:
    check = only("The mill pond is 2.5 metres deep [2][3][9].", LIGHTHOUSE)
    assert (check.citations, check.source, check.supported) == ((3,), "model", True)
    assert check.wrong_citations == (2, 9)


def test_a_sentence_without_marker_gets_its_best_passage() -> None:
    check = only("Herons and otters live at the pond, which is now a nature reserve.", LIGHTHOUSE)
    assert (check.citations, check.source, check.supported) == ((3,), "matched", True)


def test_a_two_source_sentence_cites_both_passages_but_a_borrowed_year_is_not_support() -> None:
    both = only("The lighthouse, finished in 1893, flashes green every 12 seconds.", LIGHTHOUSE)
    assert (both.citations, both.source, both.supported) == ((1, 2), "matched", True)
    assert set(both.evidence) == {1, 2}
    marked = only("The lighthouse, finished in 1893, flashes green every 12 seconds [1][2].", LIGHTHOUSE)
    assert (marked.citations, marked.source, marked.wrong_citations) == ((1, 2), "model", ())
    borrowed = only("The mill pond was dug in 1893.", LIGHTHOUSE)
    assert (borrowed.supported, borrowed.citations) == (False, ())


def test_an_invented_number_makes_a_sentence_unsupported() -> None:
    right = only("The lighthouse is 31 meters tall.", LIGHTHOUSE)
    wrong = only("The lighthouse is 120 meters tall.", LIGHTHOUSE)
    assert right.supported is True
    assert (wrong.supported, wrong.source, wrong.citations) == (False, "none", ())
    assert wrong.support < CALIBRATION.threshold < right.support


def test_refusal_and_connective_sentences_are_not_judged() -> None:
    answer = "Here is what I found:\n- The tower is 31 m tall [1].\n- The documents do not say who built it."
    result = attribute(answer, LIGHTHOUSE)
    kinds = [(s.kind, s.supported, s.citations) for s in result.sentences]
    assert kinds == [("connective", None, ()), ("factual", True, (1,)), ("refusal", None, ())]
    assert result.support_rate == 1.0
    zh = attribute("总结如下：\n文档中没有提到灯塔是谁设计的。希望对你有帮助！", LIGHTHOUSE_ZH)
    assert [(s.kind, s.supported) for s in zh.sentences] == [
        ("connective", None),
        ("refusal", None),
        ("connective", None),
    ]
    closing = attribute("In summary: The tower is 31 m tall. I hope this helps!", LIGHTHOUSE)
    assert [s.kind for s in closing.sentences] == ["connective", "factual", "connective"]
    labels = attribute(
        "1. **Height**: The tower is 31 m tall.\n- 灯塔的作用：\n- It was finished in 1893:", LIGHTHOUSE
    )
    assert [(s.text, s.kind, s.supported) for s in labels.sentences] == [
        ("**Height**:", "connective", None),
        ("The tower is 31 m tall.", "factual", True),
        ("灯塔的作用：", "connective", None),
        ("It was finished in 1893:", "factual", True),
    ]
    assert zh.support_rate is None


def test_cjk_paraphrase_is_matched_and_a_wrong_cjk_number_is_not() -> None:
    result = attribute(
        "这座白色石塔有31米高。灯塔的闪光是绿色的，每12秒一次【1】。灯塔高120米。", LIGHTHOUSE_ZH
    )
    first, second, third = result.sentences
    assert (first.citations, first.source, first.supported) == ((1,), "matched", True)
    assert (second.citations, second.source, second.wrong_citations) == ((2,), "matched", (1,))
    assert (third.supported, third.source) == (False, "none")
    assert result.support_rate == pytest.approx(2 / 3)


def test_evidence_spans_point_to_the_supporting_passage_sentence() -> None:
    check = only("A horn sounds twice a minute when there is fog [2].", LIGHTHOUSE)
    [(start, end)] = check.evidence[2]
    assert LIGHTHOUSE[1][start:end] == "In fog, a horn sounds twice a minute."
    two = only("The pond, 2.5 metres deep, is now a nature reserve.", LIGHTHOUSE)
    assert [LIGHTHOUSE[2][a:b] for a, b in two.evidence[3]] == [
        "It is 2.5 metres deep and is fed by the River Lune.",
        "Today it is a nature reserve with herons and otters.",
    ]
    zh = only("雾天时雾笛每分钟响两次。", LIGHTHOUSE_ZH)
    [(start, end)] = zh.evidence[2]
    assert LIGHTHOUSE_ZH[1][start:end] == "起雾时，雾笛每分钟鸣响两次。"


def test_support_rate_offsets_and_json() -> None:
    answer = "The tower is 31 m tall [1]. A crocodile killed a man in Madagascar."
    result = attribute(answer, LIGHTHOUSE)
    assert result.support_rate == 0.5
    assert [answer[s.start : s.end] for s in result.sentences] == [s.text for s in result.sentences]
    data = result.to_json()
    assert set(data) == {"sentences", "support_rate", "wrong_citations"}
    first = data["sentences"][0]
    assert {k: first[k] for k in ("text", "start", "end", "citations", "source", "supported")} == {
        "text": "The tower is 31 m tall [1].",
        "start": 0,
        "end": 27,
        "citations": [1],
        "source": "model",
        "supported": True,
    }
    assert set(first) >= {"support", "kind", "wrong_citations", "evidence"}
    assert Attribution.from_json(data).to_json() == data
    assert result.cited() == [1]


def test_no_passages_and_empty_answer() -> None:
    check = only("The tower is 31 m tall [1].", [])
    assert (check.supported, check.source, check.wrong_citations) == (False, "none", (1,))
    empty = attribute("", LIGHTHOUSE)
    assert (empty.sentences, empty.support_rate, empty.wrong_citations) == ((), None, ())


def test_vectors_of_the_wrong_shape_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="one row per passage"):
        attribute(
            "The tower is tall.",
            LIGHTHOUSE,
            passage_vectors=np.zeros((2, 4)),
            embed=lambda t: t,
            scales=MINILM_SCALES,
        )
    with pytest.raises(ValueError, match="embed\\(\\) must return 1 vectors of dimension 4"):
        attribute(
            "The tower is tall.",
            LIGHTHOUSE,
            passage_vectors=np.ones((3, 4)),
            embed=lambda t: np.ones((1, 5)),
            scales=MINILM_SCALES,
        )


def test_labelled_set_lexical_precision_and_recall() -> None:
    """The figures benchmarks/calibrate_attribution.py fitted (101 labelled sentences, zh + en)."""
    topics, cases = load_cases()
    report = evaluate(topics, cases)
    # English precision 0.96 -> 1.0 with the negation rule: "A reset deletes all your recordings."
    # over "A reset does not delete your recordings." is no longer supported (negation.py)
    assert (report["en"]["precision"], report["en"]["recall"]) == (1.0, 0.774), report
    assert (report["zh"]["precision"], report["zh"]["recall"]) == (0.917, 0.917), report
    assert report["all"]["kind_accuracy"] == 1.0, report


@pytest.mark.slow
def test_labelled_set_with_the_real_embedder(embedder: Embedder) -> None:
    topics, cases = load_cases()
    report = evaluate(topics, cases, embed=CachedEmbedder(embedder.embed), scales=embedder.scales)
    assert (report["en"]["precision"], report["en"]["recall"]) == (1.0, 0.806), report
    assert (report["zh"]["precision"], report["zh"]["recall"]) == (0.917, 0.917), report


@pytest.mark.slow
def test_labelled_set_with_the_multilingual_default_on_its_own_scale() -> None:
    """USE's cosines sit lower than MiniLM's: on its own scale (USE_SCALES, fitted by
    calibrate_attribution.py --embedder) it finds one more supported English sentence than the
    words alone; on MiniLM's it would find none."""
    use = Embedder(paths.default_embed_model())
    topics, cases = load_cases()
    embed = CachedEmbedder(use.embed)
    report = evaluate(topics, cases, embed=embed, scales=use.scales)
    assert (report["en"]["precision"], report["en"]["recall"]) == (1.0, 0.806), report
    assert (report["zh"]["precision"], report["zh"]["recall"]) == (0.917, 0.917), report
    on_minilm_scale = evaluate(topics, cases, embed=embed, scales=MINILM_SCALES)
    assert (on_minilm_scale["en"]["precision"], on_minilm_scale["en"]["recall"]) == (1.0, 0.774)


@pytest.mark.slow
def test_the_embedding_signal_is_used_and_sentences_are_embedded_in_one_batch(embedder: Embedder) -> None:
    passages = [
        "The lighthouse guides vessels safely past the dangerous reef at night.",
        "The museum shop sells postcards, maps and local honey.",
    ]
    answer = "Vessels pass the reef safely thanks to the light. The shop sells honey and maps [1]."
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return embedder.embed(texts)

    lexical = attribute(answer, passages)
    semantic = attribute(
        answer, passages, passage_vectors=embedder.embed(passages), embed=embed, scales=embedder.scales
    )
    assert [(s.supported, s.citations) for s in lexical.sentences] == [(False, ()), (True, (2,))]
    assert [(s.supported, s.citations, s.source) for s in semantic.sentences] == [
        (True, (1,), "matched"),
        (True, (2,), "matched"),
    ]
    assert semantic.sentences[0].support > lexical.sentences[0].support
    assert semantic.sentences[1].wrong_citations == (1,)
    assert calls == [["Vessels pass the reef safely thanks to the light.", "The shop sells honey and maps."]]


def test_a_number_moved_to_another_unit_is_not_support() -> None:
    assert only("The mill pond is 2.5 m deep.", LIGHTHOUSE).supported is True  # metres = m
    litres = only("The mill pond is 2.5 litres deep [3].", LIGHTHOUSE)
    assert (litres.supported, litres.wrong_citations) == (False, (3,))
    minutes = only("The light shows a green flash every 12 minutes.", LIGHTHOUSE)
    assert (minutes.supported, minutes.citations) == (False, ())
    assert only("灯塔每12秒发出一次绿色闪光。", LIGHTHOUSE_ZH).supported is True
    assert only("灯塔每12分钟发出一次绿色闪光。", LIGHTHOUSE_ZH).supported is False


@dataclass(frozen=True)
class Placed:
    """A passage where it stands (names.Place): its text, heading path and file."""

    text: str
    heading: str
    document: str
    section: str = ""


KX40_PAGE = (
    "Descale every 3 months, or sooner when the amber calc light comes on; the machine counts the "
    "water it has used and asks for descaling after 60 litres at the factory hardness setting."
)
KX40_PLACE = Placed(KX40_PAGE, "Aurelia KX-40 Espresso Machine - Owner's Manual", "aurelia-kx40-manual.pdf")
OTHER_PLACE = Placed(LIGHTHOUSE[2], "The mill pond", "village-history.pdf")


def placed(answer: str, places: list[Placed]) -> SentenceCheck:
    result = attribute(answer, [p.text for p in places], places=places)
    assert len(result.sentences) == 1
    return result.sentences[0]


def test_a_passage_holds_the_model_its_title_names_and_no_sibling() -> None:
    said = "The Aurelia KX-40 is to be descaled every 3 months, or sooner when the amber calc light comes on."
    assert only(said, [KX40_PAGE, LIGHTHOUSE[2]]).supported is False  # its text never names the KX-40
    check = placed(said, [KX40_PLACE, OTHER_PLACE])
    assert (check.supported, check.citations) == (True, (1,))
    sibling = said.replace("KX-40", "KX-60")
    assert placed(sibling, [KX40_PLACE, OTHER_PLACE]).supported is False


def test_a_number_in_a_title_is_no_figure_of_its_passages() -> None:
    assert placed("The machine's water tank holds 40 litres.", [KX40_PLACE, OTHER_PLACE]).supported is False
    assert placed("The machine asks for descaling after 60 litres.", [KX40_PLACE, OTHER_PLACE]).supported


def test_two_passages_support_a_sentence_together_only_within_one_document() -> None:
    said = "The lighthouse, finished in 1893, flashes green every 12 seconds."
    tower, light = LIGHTHOUSE[0], LIGHTHOUSE[1]
    one = [Placed(tower, "Cape Merrow", "merrow.pdf"), Placed(light, "The light", "merrow.pdf")]
    assert placed(said, one).citations == (1, 2)
    two = [Placed(tower, "Cape Merrow", "merrow.pdf"), Placed(light, "The light", "harbour-guide.pdf")]
    check = placed(said, two)
    assert (check.supported, check.citations) == (False, ())
