"""The answer verdict (the one judge, words only): a copy of an unrelated passage sentence or a number
taken from another subject is not "answered", dates written differently match, and the labelled cases
hold."""

from __future__ import annotations

import json
from pathlib import Path

from app.core.answering.evidence.evidence import Evidence
from app.core.answering.judge.attribution import attribute
from app.core.answering.judge.checking import lexical_verifier
from app.core.answering.judge.checks import Attribution
from app.core.answering.judge.judge import judge, judge_answer
from app.core.answering.judge.policy import DEFAULT
from tests.core.answer_helpers import make_hit

CASES = json.loads((Path(__file__).parent / "data" / "verdict_cases.json").read_text(encoding="utf-8"))[
    "cases"
]


def _verdict(question: str, answer: str, passages: list[str]) -> str | None:
    hits = [make_hit(n + 1, text) for n, text in enumerate(passages)]
    return judge_answer(question, answer, hits, lexical_verifier, DEFAULT).verdict


def answer_verdict(
    attribution: Attribution | None,
    not_in_documents: bool,
    finish: str,
    question: str = "",
    passages: tuple[str, ...] = (),
) -> str | None:
    """The judge's verdict on a word check already made (no embedder: words alone)."""
    hits = [make_hit(n + 1, text) for n, text in enumerate(passages)]
    evidence = Evidence(question, hits)
    return judge(question, attribution, hits, evidence, DEFAULT, (), not_in_documents, finish).verdict


def test_the_reported_copy_of_an_unrelated_sentence_is_not_answered() -> None:
    case = next(c for c in CASES if c["id"] == "en-copy-rfaq")
    checked = attribute(case["answer"], case["passages"], question=case["question"])
    (sentence,) = checked.sentences
    assert sentence.supported and sentence.on_question is False  # in the passage, not about the question
    assert answer_verdict(checked, False, "stop") == "not_answered"
    without_question = attribute(case["answer"], case["passages"])  # what the check said before
    assert without_question.sentences[0].supported and without_question.sentences[0].on_question is None


def test_a_number_the_page_states_for_something_else_is_not_supported() -> None:
    passages = ["The water tank of the KX-40 holds 1.8 litres. The drip tray holds 0.6 litres."]
    question = "How much water does the tank hold?"
    wrong = attribute("The tank holds 0.6 litres [1].", passages, question=question).sentences[0]
    assert wrong.supported is False and wrong.problem == "wrong_binding" and wrong.citations == ()
    right = attribute("The tank holds 1.8 litres [1].", passages, question=question).sentences[0]
    assert right.supported and right.on_question and right.problem == ""
    drip = attribute(
        "The drip tray holds 0.6 litres [1].", passages, question="How much does the drip tray hold?"
    )
    assert drip.sentences[0].supported  # the same figure is right for its own subject


def test_dates_written_differently_support_each_other() -> None:
    passages = ["Support for Tessel 3.1 ends on 2025-12-31."]
    for answer in ("Support ends on 31 December 2025 [1].", "Support ends on December 31, 2025 [1]."):
        assert _verdict("When does support for Tessel 3.1 end?", answer, passages) == "answered"
    assert _verdict(
        "When does support for Tessel 3.1 end?", "Support ends on 31 March 2025 [1].", passages
    ) != ("answered")


def test_refusals_partial_and_gated_answers_get_their_verdicts() -> None:
    passages = ["Add 2 mL of manganese sulfate solution first."]
    refusal = attribute("The documents do not say what it costs.", passages, question="What does it cost?")
    assert answer_verdict(refusal, False, "stop") == "not_in_documents"
    assert answer_verdict(None, True, "stop") == "not_in_documents"  # the gate stopped it
    assert answer_verdict(None, False, "error") is None
    right = attribute(
        "Manganese sulfate solution is added first [1].", passages, question="What is added first?"
    )
    assert answer_verdict(right, False, "stop") == "answered"
    assert answer_verdict(right, False, "length") == "partly"  # cut off: never the whole answer


def test_the_labelled_cases_keep_their_precision() -> None:
    """Precision of "answered" on the hand-labelled cases, judged by words alone (as an embedder
    nobody calibrated is); at most the traps the calibration note lists pass as answered."""
    judged = [(case, _verdict(case["question"], case["answer"], case["passages"])) for case in CASES]
    said = [case for case, verdict in judged if verdict == "answered"]
    right = [case for case in said if case["label"] == "answered"]
    assert len(right) / len(said) >= 0.85
    assert sum(1 for case, verdict in judged if case["trap"] == "binding" and verdict == "answered") == 0
    assert sum(1 for case, verdict in judged if case["trap"] == "copy" and verdict == "answered") <= 3


def test_the_number_of_a_code_is_no_figure_to_bind() -> None:
    """'E7' names the error: a page header's numbers or another code's are no rival figures for it."""
    case = next(c for c in CASES if c["id"] == "en-right-code")
    (sentence,) = attribute(case["answer"], case["passages"], question=case["question"]).sentences
    assert sentence.supported and sentence.problem == ""
    trap = next(c for c in CASES if c["id"] == "en-bind-code")
    (wrong,) = attribute(trap["answer"], trap["passages"], question=trap["question"]).sentences
    assert not wrong.supported and wrong.problem == "wrong_binding"


def test_a_chinese_answer_is_judged_by_its_claim_not_its_phrasing() -> None:
    """The lead-in "根据文档内容，", the question's own wording and the seams between words ("米到")
    are the model's phrasing; "PM2.5" is one name, not "PM2" and a stray "5"."""
    passages = [
        "空气质量指示灯：蓝色表示优（PM2.5 低于 35 微克每立方米），黄色表示良（35 至 75 微克每立方米）。"
    ]
    question = "顶上的灯变成黄色，说明 PM2.5 大概在什么范围？"
    right = attribute(
        "根据文档内容，PM2.5 大概在 35 微克每立方米到 75 微克每立方米之间。", passages, question=question
    )
    assert right.sentences[0].supported
    wrong = attribute(
        "根据文档内容，PM2.5 大概在 50 微克每立方米到 90 微克每立方米之间。", passages, question=question
    )
    assert not wrong.sentences[0].supported


def test_a_year_is_bound_by_the_names_the_answer_gives_and_a_pointer_is_no_claim() -> None:
    passages = [
        "The town dates from 1768, when the miller Josiah Penrose built a water mill on the Wyre. "
        "The mill ground corn at first; by 1790 three more mills spun cotton."
    ]
    question = "Who founded the first mill, and in which year?"
    checked = attribute(
        "The first mill was built by Josiah Penrose in 1768 [1]. This is supported by passage [1].",
        passages,
        question=question,
    )
    first, pointer = checked.sentences
    assert first.supported and first.problem == ""
    assert pointer.kind == "connective" and pointer.supported is None
    wrong = attribute("The first mill was built by Josiah Penrose in 1790 [1].", passages, question=question)
    assert not wrong.sentences[0].supported


def test_a_running_header_glued_to_a_sentence_does_not_make_it_the_subjects() -> None:
    """Two pages of one manual: the header "第 N 页，共 3 页清岚 S3 空气净化器使用说明书" is glued to the
    sentence after it. Binding ignores it (the pre-filter's "每 2 周" is not the composite filter's
    life), and the header still says what the page is about (the product: on the question)."""
    from app.core.answering.evidence.boilerplate import repeated_spans, without_spans

    header = "第 {n} 页，共 3 页清岚 S3 空气净化器使用说明书"
    passages = [
        "额定功率：45 瓦。" + header.format(n=1) + "二、主要技术参数净重 6.8 千克。",
        "配网时长按风速键 5 秒。" + header.format(n=2) + "四、清洁与维护预滤网：每 2 周清理一次。"
        "复合滤网：正常使用寿命约 3000 小时，一般约 6 个月更换一次。",
    ]
    spans = repeated_spans(passages)
    assert [[passages[n][a:b] for a, b in runs] for n, runs in enumerate(spans)] == [
        ["。" + header.format(n=1)],
        ["。" + header.format(n=2)],
    ]
    assert without_spans(passages[1], 0, 50, spans[1]).startswith("配网时长按风速键 5 秒 四、清洁")
    question = "清岚 S3 的复合滤网寿命是多少小时？"
    wrong = attribute("清岚 S3 的复合滤网寿命是 2 周。[2]", passages, question=question).sentences[0]
    assert wrong.supported is False and wrong.problem == "wrong_binding"
    right = attribute("清岚 S3 的复合滤网寿命约 3000 小时。[2]", passages, question=question).sentences[0]
    assert right.supported and right.on_question and right.problem == ""


def test_an_answer_that_states_what_its_passage_denies_is_not_supported() -> None:
    from app.core.answering.judge.negation import asserts_denied, denied_phrases

    zh = ["复合滤网：正常使用寿命约 3000 小时。复合滤网不可水洗，水洗会破坏其中的静电层和活性炭层。"]
    flipped = attribute("复合滤网可以水洗。[1]", zh, question="复合滤网可以水洗吗？").sentences[0]
    assert flipped.supported is False and flipped.problem == "negation" and flipped.wrong_citations == (1,)
    kept = attribute("复合滤网不可以水洗。[1]", zh, question="复合滤网可以水洗吗？").sentences[0]
    assert kept.supported and kept.problem == ""
    en = ["The composite filter must not be washed with water: water destroys its carbon layer."]
    assert (
        _verdict("Can I wash it?", "The composite filter can be washed with water. [1]", en) == "not_answered"
    )
    assert _verdict("Can I wash it?", "No, it must not be washed with water. [1]", en) == "answered"
    # what is not a denial: a negation in a condition, a bare "do not <verb>", an answer that denies
    assert denied_phrases("强烈推荐使用这个文件系统，除非你有特殊的理由不使用。") == []
    assert not asserts_denied("Wait 20 minutes, then switch it on.", ["Do not switch it on before."])
    assert not asserts_denied("Do not switch it on yet.", ["Switch it off and wait 20 minutes."])
