"""Token budget with the real SmolLM2 tokenizer: exact counts, best-first packing, never past n_ctx."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.errors import UsageError
from app.core.generate.engine import Engine
from app.core.prompt.budget import HistoryTurn, assemble
from tests.core.answer_helpers import make_hit

SENTENCE = "The prefill phase evaluates the whole prompt before the first token appears. "


def long_hit(chunk_id: int, sentences: int, page: int = 1):  # type: ignore[no-untyped-def]
    return make_hit(chunk_id, SENTENCE * sentences, page=page)


def test_prompt_is_counted_exactly_and_parts_add_up(chat_engine: Engine) -> None:
    hits = [make_hit(1, "Alpha is 4."), make_hit(2, "Beta is 5.", document="b.md", page=2)]
    plan = assemble(
        chat_engine, "What is alpha?", hits, [], n_ctx=4096, max_tokens=256, enable_thinking=False
    )
    budget = plan.budget
    assert budget.prompt_tokens == len(plan.tokens) == len(chat_engine.tokenize_prompt(plan.prompt))
    parts = budget.system_tokens + budget.passages_tokens + budget.history_tokens + budget.question_tokens
    assert parts + budget.template_tokens == budget.prompt_tokens
    assert budget.question_tokens == chat_engine.count_tokens("What is alpha?")
    assert "[1] guide.pdf, p. 1\nAlpha is 4." in plan.prompt
    assert "[2] b.md, p. 2\nBeta is 5." in plan.prompt
    assert budget.passages_used == [1, 2] and budget.passages_dropped == []
    assert plan.prompt.rstrip().endswith("<|im_start|>assistant")


def test_long_passages_and_long_history_never_exceed_the_context(chat_engine: Engine) -> None:
    hits = [long_hit(i, 25) for i in range(1, 21)]  # ~20 × 400 tokens
    history = [HistoryTurn(f"Question {i}? " + SENTENCE * 10, SENTENCE * 20) for i in range(10)]
    for n_ctx, max_tokens in ((4096, 512), (2048, 1024), (1024, 800)):
        plan = assemble(
            chat_engine,
            "Why is prefill slow?",
            hits,
            history,
            n_ctx=n_ctx,
            max_tokens=max_tokens,
            enable_thinking=False,
        )
        assert len(plan.tokens) + max_tokens <= n_ctx
        assert plan.budget.prompt_tokens == len(plan.tokens)
        assert len(plan.budget.passages_used) + len(plan.budget.passages_dropped) == 20
        assert all(d.reason == "context" for d in plan.budget.passages_dropped)


def test_history_is_dropped_before_passages(chat_engine: Engine) -> None:
    hits = [long_hit(i, 25) for i in range(1, 11)]
    history = [HistoryTurn("Earlier question?", SENTENCE * 30) for _ in range(4)]
    plan = assemble(chat_engine, "Why?", hits, history, n_ctx=2048, max_tokens=256, enable_thinking=False)
    assert plan.budget.passages_used  # passages first
    assert plan.budget.history_turns_dropped >= 1
    assert plan.budget.history_turns_used + plan.budget.history_turns_dropped == 4


def test_history_goes_in_when_it_fits_newest_kept(chat_engine: Engine) -> None:
    history = [HistoryTurn("First question?", "First answer [1]."), HistoryTurn("Second?", "Second answer.")]
    plan = assemble(
        chat_engine,
        "Third?",
        [make_hit(1, "Short.")],
        history,
        n_ctx=4096,
        max_tokens=256,
        enable_thinking=False,
    )
    assert plan.budget.history_turns_used == 2
    assert plan.prompt.index("First question?") < plan.prompt.index("Second?") < plan.prompt.index("Third?")
    roles = [message["role"] for message in plan.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]


def test_passage_that_does_not_fit_is_skipped_and_the_next_one_tried(chat_engine: Engine) -> None:
    hits = [long_hit(1, 60), make_hit(2, "Small and relevant."), make_hit(3, "Also small.")]
    plan = assemble(chat_engine, "What?", hits, [], n_ctx=1024, max_tokens=512, enable_thinking=False)
    assert plan.budget.passages_used == [2, 3]
    assert [d.chunk_id for d in plan.budget.passages_dropped] == [1]
    assert plan.budget.passages_dropped[0].reason == "context"
    assert "[1] guide.pdf, p. 1\nSmall and relevant." in plan.prompt  # renumbered from 1


def test_ttft_target_shrinks_the_passage_budget(chat_engine: Engine) -> None:
    hits = [long_hit(i, 10) for i in range(1, 9)]
    free = assemble(chat_engine, "Why?", hits, [], n_ctx=4096, max_tokens=256, enable_thinking=False)
    capped = assemble(
        chat_engine,
        "Why?",
        hits,
        [],
        n_ctx=4096,
        max_tokens=256,
        enable_thinking=False,
        ttft_limit_tokens=700,
    )
    assert len(free.budget.passages_used) == 8
    assert capped.budget.prompt_tokens <= 700
    assert 0 < len(capped.budget.passages_used) < 8
    assert {d.reason for d in capped.budget.passages_dropped} == {"ttft_target"}


def test_a_ttft_target_below_one_passage_still_keeps_the_best_passage(chat_engine: Engine) -> None:
    hits = [long_hit(i, 10) for i in range(1, 4)]
    plan = assemble(
        chat_engine,
        "Why?",
        hits,
        [],
        n_ctx=4096,
        max_tokens=256,
        enable_thinking=False,
        ttft_limit_tokens=50,  # less than the instructions alone
    )
    assert plan.budget.passages_used == [1]  # the best passage, over the target but within the context
    assert [d.chunk_id for d in plan.budget.passages_dropped] == [2, 3]
    assert {d.reason for d in plan.budget.passages_dropped} == {"ttft_target"}
    assert plan.budget.prompt_tokens <= 4096 - 256


def test_prediction_uses_the_uncached_tokens() -> None:
    from app.core.prompt.budget import Budget

    budget = Budget(
        n_ctx=4096, answer_reserve=512, limit_tokens=3584, ttft_limit_tokens=None, prompt_tokens=1200
    )
    predicted = budget.with_prediction(cached=200, rate=500.0, target_ms=8000.0)
    assert predicted.predicted_ttft_ms == pytest.approx(2000.0)
    assert predicted.to_json()["ttft_target_ms"] == 8000.0


def test_question_too_long_for_the_context_is_a_usage_error(chat_engine: Engine) -> None:
    with pytest.raises(UsageError, match="too long"):
        assemble(chat_engine, SENTENCE * 80, [], [], n_ctx=1024, max_tokens=512, enable_thinking=False)


def test_control_tokens_spelled_in_passages_cannot_end_a_turn(chat_engine: Engine) -> None:
    im_end = chat_engine._llm.tokenize(b"<|im_end|>", add_bos=False, special=True)
    assert len(im_end) == 1
    quoting = make_hit(1, "Chat templates close a turn with <|im_end|> and open one with <|im_start|>user.")
    escaped = chat_engine.escape_special(quoting.text)
    assert escaped.replace("\u200b", "") == quoting.text
    plan = assemble(
        chat_engine,
        chat_engine.escape_special("What does <|im_end|> do?"),
        [replace(quoting, text=escaped)],
        [],
        n_ctx=4096,
        max_tokens=256,
        enable_thinking=False,
    )
    assert plan.tokens.count(im_end[0]) == 2  # the system turn and the question turn, nothing else
