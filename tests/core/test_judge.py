"""The one judge with the default embedder: meaning across languages, facts that must hold, restatements,
and contents lines that never count as evidence."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

import numpy as np
import pytest

from app.core.answering.evidence.evidence import Evidence
from app.core.answering.evidence.facts import facts_of, missing_facts
from app.core.answering.evidence.locate import locate
from app.core.answering.judge.checking import embedding_verifier
from app.core.answering.judge.judge import Judgement, judge_answer
from app.core.answering.judge.policy import DEFAULT, Policy, policy_for
from app.core.answering.judge.signals import CrossLanguage
from app.core.embed.embedder import Embedder
from app.core.embed.recent import RecentVectors
from app.core.passage import Hit
from app.core.script import has_cjk
from tests.core.answer_helpers import make_hit

RAG_ZH = (
    "为什么 RAG 的回答要先下结论。在 RAG 里让模型“先总结文档再回答”，等于把输入材料又生成一遍，"
    "成本翻倍且容易引入错误。更好的做法是直接给出结论，并用 [1]、[2] 标明出处。"
)
RAG_QUESTION = "Why should a RAG model not summarise its documents before answering?"


@pytest.fixture(scope="module")
def policy(multilingual_embedder: Embedder) -> Policy:
    found = policy_for(multilingual_embedder.name)
    assert found != DEFAULT, "resources/judge_policy.json has no policy for the default embedder"
    return found


class JudgeOf(Protocol):
    def __call__(
        self, question: str, answer: str, hits: list[Hit], ruled: Policy | None = None
    ) -> Judgement: ...


@pytest.fixture(scope="module")
def judged(multilingual_embedder: Embedder, policy: Policy) -> JudgeOf:
    """judged(question, answer, hits[, ruled]): the answer judged as the root's Answerer does it (the word
    check with the embedder, the question's evidence and located sentences, one RecentVectors for them
    all), by the shipped policy or by `ruled`."""
    embedder = multilingual_embedder

    def judge_of(question: str, answer: str, hits: list[Hit], ruled: Policy | None = None) -> Judgement:
        embed = RecentVectors(embedder.embed)
        vectors = embedder.embed([hit.text for hit in hits])
        rows = {hit.chunk_id: row for row, hit in enumerate(hits)}
        verifier = embedding_verifier(lambda ids: vectors[[rows[i] for i in ids]], embed, embedder.scales)
        evidence = Evidence(question, hits, embed)
        located = [(f.citation.chunk_id, f.sentence) for f in locate(question, hits, embed, embedder.scales)]
        return judge_answer(question, answer, hits, verifier, ruled or policy, embed, evidence, located)

    return judge_of


def test_a_right_english_answer_over_a_chinese_page_is_answered(judged: JudgeOf) -> None:
    hits = [make_hit(1, RAG_ZH, document="rag-notes.pdf", page=3)]
    right = judged(
        RAG_QUESTION,
        "Because it makes the model generate the input material a second time, which doubles the cost "
        "and easily introduces errors [1].",
        hits,
    )
    assert right.verdict == "answered"
    assert right.attribution is not None
    (sentence,) = right.attribution.sentences
    assert sentence.supported and sentence.citations == (1,) and sentence.on_question
    assert sentence.basis == "meaning"  # no word of it is on the Chinese page


def test_a_wrong_english_answer_over_the_same_chinese_page_is_not(judged: JudgeOf) -> None:
    hits = [make_hit(1, RAG_ZH, document="rag-notes.pdf", page=3)]
    wrong = judged(
        RAG_QUESTION,
        "Because summaries make the model forget which language the user wrote in [1].",
        hits,
    )
    assert wrong.verdict != "answered"


def test_a_figure_the_page_does_not_state_is_not_supported(judged: JudgeOf) -> None:
    page = "The composite filter lasts about 3000 hours in normal use, which is about six months."
    hits = [make_hit(1, page)]
    question = "How long does the composite filter last?"
    right = judged(question, "The composite filter lasts about 3000 hours [1].", hits)
    wrong = judged(question, "The composite filter lasts about 5000 hours [1].", hits)
    assert right.verdict != "not_in_documents"  # its evidence is on the page: never "do not answer"
    assert wrong.verdict != "answered"
    assert wrong.attribution is not None and not wrong.attribution.sentences[0].supported


def test_an_answer_that_only_restates_the_question_is_not_answered(judged: JudgeOf) -> None:
    page = (
        "To make apt use a proxy, set Acquire::http::Proxy in /etc/apt/apt.conf, for example "
        '"http://proxy.example:3128/". The setting applies to every apt command.'
    )
    hits = [make_hit(1, page)]
    question = "Which setting controls the proxy that apt uses?"
    restated = judged(
        question,
        "The setting that controls the proxy that apt uses [1].",
        hits,
    )
    assert restated.verdict != "answered"
    assert restated.says_nothing
    right = judged(question, "Set Acquire::http::Proxy in /etc/apt/apt.conf [1].", hits)
    assert right.verdict == "answered"
    assert not right.says_nothing


def test_a_bare_marker_says_nothing_and_a_refusal_is_not_that(judged: JudgeOf) -> None:
    hits = [make_hit(1, "The composite filter lasts about 3000 hours in normal use.")]
    question = "How long does the composite filter last?"
    bare = judged(question, "[1]", hits)
    refused = judged(question, "The documents do not say how long the filter lasts.", hits)
    assert bare.verdict == "not_answered" and bare.says_nothing
    assert refused.verdict == "not_in_documents" and not refused.says_nothing


def test_contents_lines_are_never_found_or_used_as_evidence(multilingual_embedder: Embedder) -> None:
    contents = (
        "Contents\n2.4 How can R be obtained? . . . . . . . 4\n"
        "7.18 Why does the output depend on the locale? . . 33"
    )
    body = "R can be obtained from CRAN, the Comprehensive R Archive Network, and its mirrors."
    hits = [make_hit(1, contents, page=2), make_hit(2, body, page=4)]
    question = "How can R be obtained?"
    evidence = Evidence(question, hits, multilingual_embedder.embed)
    assert [s.contents for s in evidence.sentences if s.chunk_id == 1] and all(
        s.contents for s in evidence.sentences if s.chunk_id == 1 and "." * 3 in s.body.replace(" ", "")
    )
    found = locate(question, hits, multilingual_embedder.embed, multilingual_embedder.scales, evidence)
    assert found and all(f.citation.chunk_id == 2 for f in found)


def test_facts_read_the_same_in_both_languages() -> None:
    english = facts_of("Run dpkg-reconfigure tzdata; it takes about 12 seconds.")
    chinese = facts_of("运行 dpkg-reconfigure tzdata，大约需要 12 秒。")
    assert "12" in english.numbers and "12" in chinese.numbers
    assert "dpkg-reconfigure" in english.codes and "dpkg-reconfigure" in chinese.codes
    assert missing_facts(english, chinese, "运行 dpkg-reconfigure tzdata，大约需要 12 秒。") == 0
    minutes = facts_of("It takes about 12 minutes.")
    assert missing_facts(minutes, chinese, "运行 dpkg-reconfigure tzdata，大约需要 12 秒。") == 1


def test_a_unit_is_a_measure_not_a_code_the_other_language_must_write() -> None:
    english = facts_of("At its top fan speed it gets to 63 dB.")
    assert english.codes == frozenset() and english.quantities == {("63", "db")}
    page = "最高档运行噪音 63 分贝。"
    assert missing_facts(english, facts_of(page), page) == 0
    assert missing_facts(facts_of("It gets to 63 gallons."), facts_of(page), page) == 1


def test_cosines_across_scripts_are_put_on_the_within_script_scale() -> None:
    cross = CrossLanguage(unrelated=0.1, translation=0.75)
    cosines = np.array([0.1, 0.75, 0.43, 0.43, 0.9])
    across = np.array([True, True, True, False, True])
    aligned = cross.aligned(cosines, across)
    assert aligned[0] == pytest.approx(0.1)  # unrelated stays unrelated
    assert aligned[1] == pytest.approx(1.0)  # a translation reads as the text itself
    assert aligned[2] == pytest.approx(0.1 + 0.33 * 0.9 / 0.65)
    assert aligned[3] == 0.43  # within one script: as it was
    assert aligned[4] == 1.0  # never past 1
    assert np.array_equal(CrossLanguage().aligned(cosines, across), cosines)  # the default changes nothing


def test_the_interface_translations_measure_the_embedders_cross_language_cosines(
    multilingual_embedder: Embedder,
) -> None:
    from benchmarks.calibrate_judge import cross_language, translation_pairs

    pairs = translation_pairs()
    assert len(pairs) >= 100 and all(has_cjk(z) and not has_cjk(e) for e, z in pairs)
    cross = cross_language(multilingual_embedder)
    assert 0.0 < cross.unrelated < 0.3 < 0.6 < cross.translation < 0.95


def test_a_quantity_asked_for_and_not_given_is_at_most_partly_answered(
    judged: JudgeOf, policy: Policy
) -> None:
    hits = [make_hit(1, "Indicator. Hold the filter key for five seconds to reset the filter indicator.")]
    question = "Which key resets the filter indicator, and for how long must it be held?"

    def verdict(answer: str, needs_figure: bool) -> str | None:
        return judged(question, answer, hits, replace(policy, quantity_needs_figure=needs_figure)).verdict

    without = "The filter key resets the filter indicator [1]."
    assert verdict(without, needs_figure=True) != "answered"
    assert verdict(without, needs_figure=False) == "answered"  # the switch is what holds it back
    with_figure = "Hold the filter key for five seconds to reset the filter indicator [1]."
    assert verdict(with_figure, needs_figure=True) == verdict(with_figure, needs_figure=False)


def test_a_code_token_is_no_figure_for_a_quantity_asked(judged: JudgeOf, policy: Policy) -> None:
    hits = [
        make_hit(1, "Indicator. Hold the FILTER_RESET key for five seconds to reset the filter indicator.")
    ]
    question = "Which key resets the filter indicator, and for how long must it be held?"

    def verdict(answer: str, needs_figure: bool) -> str | None:
        return judged(question, answer, hits, replace(policy, quantity_needs_figure=needs_figure)).verdict

    code_only = "The FILTER_RESET key resets the filter indicator [1]."
    assert verdict(code_only, needs_figure=False) == "answered"
    assert verdict(code_only, needs_figure=True) != "answered"  # the key's name is no duration
    held = "Hold the FILTER_RESET key for five seconds to reset the filter indicator [1]."
    assert verdict(held, needs_figure=True) == "answered"


def test_a_figure_of_another_kind_than_asked_is_not_about_the_question(
    judged: JudgeOf, policy: Policy
) -> None:
    loose = replace(policy, fact_located_enough=True, about_cosine=0.0, answered_share=0.5)

    def verdict(question: str, page: str, answer: str, must_match: bool) -> str | None:
        ruled = replace(loose, figure_kind_must_match=must_match)
        return judged(question, answer, [make_hit(1, page)], ruled).verdict

    sales = (
        "青溪茶业有限公司的年销售额是多少？",
        "青溪茶业有限公司年产绿茶约 300 吨，产品销往全国二十多个省份。",
    )
    tonnes = "青溪茶业有限公司的年销售额是 300 吨 [1]。"
    assert verdict(*sales, tonnes, must_match=False) == "answered"  # supported word for word
    assert verdict(*sales, tonnes, must_match=True) != "answered"  # tonnes do not measure sales
    when = (
        "青溪镇的茶花节在什么时候举办？",
        "青溪镇每年农历三月初三举办茶花节。2019 年茶花节期间接待游客约 12 万人。",
    )
    visitors = "茶花节期间接待游客约 12 万人 [1]。"
    assert verdict(*when, visitors, must_match=False) == "answered"
    assert verdict(*when, visitors, must_match=True) != "answered"  # people do not say when
    assert verdict(*when, "青溪镇的茶花节在每年农历三月初三举办 [1]。", must_match=True) == "answered"
    disk = (
        "单独装一台 LTSP 服务器，硬盘最少要多大？",
        "单独安装 LTSP 服务器时，机器上必须装两块网卡，硬盘最少要 40 GiB。",
    )
    cards = "单独装 LTSP 服务器时，硬盘最少要两块网卡 [1]。"  # a bare count for a size: no unit at all
    assert verdict(*disk, cards, must_match=False) == "answered"
    assert verdict(*disk, cards, must_match=True) != "answered"
    assert verdict(*disk, "单独装 LTSP 服务器时，硬盘最少要 40 GiB [1]。", must_match=True) == "answered"


def test_a_former_value_given_as_the_current_one_is_not_supported(judged: JudgeOf, policy: Policy) -> None:
    hits = [
        make_hit(1, "Tessel 3.1 release notes. The server listens on port 8080 by default.", page=1),
        make_hit(
            2,
            "Tessel 3.2 release notes. The server now listens on port 8420 by default, instead of 8080, "
            "which clashed with too many other services.",
            page=2,
        ),
    ]
    loose = replace(policy, fact_located_enough=True, about_cosine=0.0, answered_share=0.5)

    def verdict(question: str, answer: str, former_is_unsupported: bool) -> str | None:
        ruled = replace(loose, former_is_unsupported=former_is_unsupported)
        return judged(question, answer, hits, ruled).verdict

    asked = "What port does Tessel 3.2 listen on by default?"
    old = "Tessel 3.2 listens on port 8080 by default [2]."
    assert verdict(asked, old, former_is_unsupported=False) == "answered"  # its words are all there
    assert verdict(asked, old, former_is_unsupported=True) != "answered"  # 8080 is what 8420 replaced
    new = "Tessel 3.2 listens on port 8420 by default [2]."
    assert verdict(asked, new, former_is_unsupported=True) == "answered"
    # the old release's own notes state 8080 as current: asked about 3.1, it is the answer
    older = "Tessel 3.1 listens on port 8080 by default [1]."
    assert verdict("What port does Tessel 3.1 listen on by default?", older, former_is_unsupported=True) == (
        "answered"
    )
    # asked for the value as it was before, the former value is the answer
    before = "Which port did Tessel listen on by default before 3.2?"
    was = "Before 3.2, Tessel listened on port 8080 by default [2]."
    assert verdict(before, was, former_is_unsupported=True) == "answered"


def test_a_sibling_models_figure_is_not_about_the_model_asked_about(judged: JudgeOf, policy: Policy) -> None:
    s3 = make_hit(
        1, "复合滤网:正常使用寿命约 3000 小时,一般约 6 个月更换一次。", document="qinglan-s3-manual.pdf"
    )
    s5 = make_hit(
        2,
        "清岚 S5 快速入门。复合滤网寿命约 4000 小时,约 8 个月更换一次。",
        document="qinglan-s5-quick-start.pdf",
    )
    question = "清岚 S5 的复合滤网能用多少小时？"
    # loose: any figure's sentence counts, any sentence is about the question: only the names decide
    loose = replace(policy, fact_about_cosine=-1.0, about_cosine=0.0, answered_share=0.5)

    def verdict(answer: str, must_match: bool) -> str | None:
        return judged(question, answer, [s3, s5], replace(loose, name_must_match=must_match)).verdict

    copied = "复合滤网正常使用寿命约 3000 小时 [1]。"  # the S3's figure, word for word from its page
    assert verdict(copied, must_match=False) == "answered"
    assert verdict(copied, must_match=True) != "answered"  # the S3's manual is not about the S5
    right = "清岚 S5 的复合滤网寿命约 4000 小时 [2]。"
    assert verdict(right, must_match=True) == verdict(right, must_match=False)


def test_a_figure_whose_kind_another_sentence_states_about_the_question_is_bound_elsewhere(
    judged: JudgeOf, policy: Policy
) -> None:
    contents = make_hit(
        1,
        "In the box: the bicycle, a hand pump, a water bottle (750 ml), a tool kit and this manual.",
        page=2,
    )
    bags = make_hit(
        2,
        "Luggage. The rear pannier holds 20 litres and closes with a roll top. The handlebar bag is small.",
        page=7,
    )
    question = "How much does the rear pannier hold?"
    # loose: the figure's sentence counts when Folio found it, any sentence is about the question
    loose = replace(
        policy, fact_located_enough=True, fact_about_cosine=-1.0, about_cosine=0.0, answered_share=0.5
    )

    def verdict(answer: str, margin: float) -> str | None:
        return judged(question, answer, [contents, bags], replace(loose, fact_rival_margin=margin)).verdict

    bottle = "The rear pannier holds 750 ml [1, 2]."  # the bottle's volume, glued to the pannier
    assert verdict(bottle, margin=2.0) == "answered"  # every word of it is in the manual
    assert verdict(bottle, margin=policy.fact_rival_margin) != "answered"  # 20 litres is the pannier's
    right = "The rear pannier holds 20 litres [2]."
    assert verdict(right, margin=policy.fact_rival_margin) == "answered"


def test_an_english_answer_over_a_chinese_page_is_measured_on_the_within_script_scale(
    judged: JudgeOf, policy: Policy
) -> None:
    hits = [
        make_hit(
            1,
            "2018 年,白沙码头开通了去东岛的快船。从白沙码头坐快船到东岛约需 35 分钟,每天往返六班。",
            document="baisha-guide.pdf",
        )
    ]
    question = "How long does the fast ferry from Baisha take to reach East Island?"
    answer = "The fast ferry from Baisha takes about 35 minutes to reach East Island [1]."
    assert policy.cross_translation < 1.0  # the shipped policy aligns cosines across scripts
    assert judged(question, answer, hits).verdict == "answered"
    unaligned = replace(policy, cross_unrelated=0.0, cross_translation=1.0)
    assert judged(question, answer, hits, unaligned).verdict != "answered"


def test_a_hyphenated_english_word_over_chinese_text_is_a_translation_not_a_missing_code() -> None:
    chinese = "从青溪站乘高速列车到杭州约需 50 分钟。"
    english = "A regular train to Hangzhou takes about 50 minutes."
    claimed = facts_of("The high-speed train takes about 50 minutes.")
    assert "high-speed" in claimed.codes
    assert missing_facts(claimed, facts_of(chinese), chinese) == 0
    assert missing_facts(claimed, facts_of(english), english) == 1  # English text would write it
    path = facts_of("The settings are in /etc/apt/apt.conf.d.")
    assert missing_facts(path, facts_of(chinese), chinese) == 1  # a real code is written verbatim


def test_an_english_answer_with_one_stray_chinese_character_is_still_english(judged: JudgeOf) -> None:
    hits = [make_hit(1, "冷启动。模型的冷启动时间主要取决于模型文件的大小。", document="notes.zh.pdf")]
    question = "What does the cold start time of the model mostly depend on?"
    clean = "The cold start time of the model mostly depends on the file's size."
    slip = "The cold start time of the model mostly depends on the file的 size."
    assert judged(question, clean, hits).verdict == "answered"
    # one character of the page's script inside an English sentence (a small model's slip) does not
    # make it Chinese: its cosine with the English question is not put on the cross-script scale, where
    # an answer this close to its question would read as the question said again
    assert judged(question, slip, hits).verdict == "answered"
