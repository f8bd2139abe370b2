"""The grounding gate: keyword coverage or the (Latin-only) dense cosine of the best passage."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from app.core.answering.evidence.gate import gate_score, question_terms
from app.core.answering.types import Answer, AnswerMetrics
from app.core.embed.st_backend import MINILM_SCALES
from app.core.embed.usem3_backend import USE_SCALES
from app.core.generate.model import Sampling
from app.core.store.conversations import StoredMessage
from tests.core.answer_helpers import make_hit


def test_question_words_are_not_evidence() -> None:
    assert question_terms("How long can a line typed at the R console be?") == ["lin", "typ", "r", "consol"]
    assert "什么" not in "".join(question_terms("灯塔的闪光是什么颜色？"))
    assert "颜色" in question_terms("灯塔的闪光是什么颜色？")


def test_a_passage_found_only_by_keywords_passes_for_a_chinese_question() -> None:
    # the English embedder's cosine means nothing here (0.0); the words do
    hits = [make_hit(1, "灯塔的闪光是绿色的，每十二秒一次。", similarity=0.0)]
    score = gate_score("灯塔的闪光是什么颜色？", hits, MINILM_SCALES)
    # every term but 颜色/颜 (the passage says 绿色) is in the passage: about 70% of the weight
    assert score.cosine == 0.0 and score.coverage == pytest.approx(0.698, abs=0.001)
    assert score.score == score.coverage and score.best == 0


def test_the_cosine_counts_for_latin_questions_only() -> None:
    paraphrase = [make_hit(1, "Vessels are warned off the reef by the beam.", similarity=0.6)]
    assert gate_score(
        "What keeps ships away from the rocks?", paraphrase, MINILM_SCALES
    ).score == pytest.approx(1.0)
    chinese = [make_hit(1, "园艺工具的保养方法。", similarity=0.9)]
    assert gate_score("灯塔有多高？", chinese, MINILM_SCALES).score == pytest.approx(0.0)


def test_a_multilingual_embedders_cosine_counts_for_chinese_questions_too() -> None:
    # USE was trained on Chinese and English alike: its cosine of a Chinese question with a
    # passage in either language says how close they are, on its own scale
    english = [make_hit(1, "The tower is thirty-one metres tall.", similarity=USE_SCALES.gate_ceiling)]
    assert gate_score("灯塔有多高？", english, USE_SCALES).score == pytest.approx(1.0)
    assert gate_score("灯塔有多高？", english, MINILM_SCALES).score == pytest.approx(0.0)
    assert gate_score("灯塔有多高？", english, None).score == pytest.approx(0.0)  # keywords alone


def test_an_off_topic_question_scores_below_the_default_threshold() -> None:
    hits = [make_hit(1, "Unrelated text about gardening.", similarity=0.1)]
    assert gate_score("What is the boiling point of mercury?", hits, MINILM_SCALES).score < 0.15
    assert gate_score("Anything?", [], MINILM_SCALES).best == -1


def test_the_gate_score_is_stored_as_gate_score_and_an_older_traces_evidence_still_reads() -> None:
    answer = Answer(
        question="q",
        answer="a",
        thinking="",
        citations=[],
        invalid_citations=[],
        finish_reason="stop",
        model="m",
        budget=None,
        metrics=AnswerMetrics(),
        spans={},
        grounded=True,
        sampling=Sampling(),
        gate_score=0.4321,
    )
    trace = answer.trace()
    assert trace["gate_score"] == 0.4321 and "evidence" not in trace

    def stored(trace: dict[str, Any]) -> StoredMessage:
        return StoredMessage(1, "assistant", "a", "", "stop", [], datetime(2026, 1, 1), trace)

    assert Answer.from_stored("q", stored(trace)).gate_score == 0.4321
    older = {key: value for key, value in trace.items() if key != "gate_score"} | {"evidence": 0.25}
    assert Answer.from_stored("q", stored(older)).gate_score == 0.25
