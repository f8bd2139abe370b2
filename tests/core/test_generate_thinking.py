"""Thinking mode with a tiny Qwen3-style GGUF (SmolLM2 weights, a template reading enable_thinking)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from app.core.answering.pipeline.pipeline import Answerer
from app.core.answering.types import AskOptions
from app.core.config import Settings
from app.core.generate.engine import Engine
from app.core.generate.model import Sampling
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.prompt.budget import HistoryTurn, assemble
from app.core.store.chats import Chat, Message
from app.core.store.conversations import ConversationStore
from tests.answering_kit import ask, make_answerer
from tests.core.answer_helpers import fixed_search, make_hit

HITS = [make_hit(1, "The answer to the riddle is 4.", page=2)]
EXAMPLE_TURN = [
    {"role": "user", "content": "What is the answer?"},
    {
        "role": "assistant",
        "content": "<think>\nThe passage says the answer is 4.\n</think>\nThe answer is 4 [1].",
    },
]


@pytest.fixture
def thinker(thinking_engine: Engine, tmp_path: Path) -> Iterator[Answerer]:
    settings = Settings(
        model_path=str(thinking_engine.model_path),
        n_ctx=2048,
        n_threads=thinking_engine.n_threads,
        temperature=0.0,
        ttft_target_s=0.0,
    )
    answerer = make_answerer(settings, tmp_path / "library", fixed_search(HITS), engine=thinking_engine)
    yield answerer
    answerer.close()


def test_the_switch_is_reported_per_model(thinking_engine: Engine, chat_engine: Engine) -> None:
    thinking = thinking_engine.load()
    assert thinking.supports_thinking and "enable_thinking" in thinking.thinking_reason
    plain = chat_engine.load()
    assert not plain.supports_thinking and plain.thinking_reason


def test_enable_thinking_reaches_the_gguf_template(thinking_engine: Engine) -> None:
    messages = [{"role": "user", "content": "Hi?"}]
    off = thinking_engine.render_chat(messages, enable_thinking=False)
    on = thinking_engine.render_chat(messages, enable_thinking=True)
    assert off.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert on.endswith("<|im_start|>assistant\n<think>\n")
    assert thinking_engine.opens_thinking(on) and not thinking_engine.opens_thinking(off)


def test_real_model_thinking_is_separated_from_the_answer(thinking_engine: Engine) -> None:
    # Two example turns teach the small model to close its think block (greedy decoding).
    messages = [{"role": "system", "content": "Think first, then answer."}, *EXAMPLE_TURN, *EXAMPLE_TURN]
    messages.append({"role": "user", "content": "What is the answer?"})
    prompt = thinking_engine.render_chat(messages, enable_thinking=True)
    steps: list[TokenStep] = []
    end: GenerationEnd | None = None
    with thinking_engine.lock:
        for event in thinking_engine.stream(
            thinking_engine.tokenize_prompt(prompt),
            Sampling(temperature=0.0, max_tokens=40),
            start_thinking=True,
        ):
            if isinstance(event, TokenStep):
                steps.append(event)
            else:
                end = event
    assert end is not None
    pieces = [piece for step in steps for piece in step.pieces] + end.pieces
    thinking = "".join(text for channel, text in pieces if channel == "thinking")
    answer = "".join(text for channel, text in pieces if channel == "answer")
    assert "answer is 4" in thinking and "think>" not in thinking
    assert "answer is" in answer and "think>" not in answer
    assert 0 < end.thinking_tokens < end.completion_tokens
    assert end.thinking_tokens == sum(step.thinking for step in steps)


def test_thinking_off_gives_no_thinking(thinker: Answerer) -> None:
    answer = ask(thinker, "What is the answer to the riddle?", AskOptions(thinking=False, max_tokens=24))
    assert answer.thinking == "" and answer.metrics.thinking_tokens == 0
    assert answer.finish_reason in ("stop", "length")


def test_thinking_on_streams_thinking_apart_and_counts_it(thinker: Answerer) -> None:
    answer = ask(thinker, "What is the answer to the riddle?", AskOptions(thinking=True, max_tokens=24))
    assert answer.thinking and "<think>" not in answer.thinking
    assert answer.metrics.thinking_tokens > 0
    assert answer.metrics.thinking_tokens + answer.answer.count(" ") >= 0  # counted apart from the answer
    if not answer.answer:
        assert answer.metrics.thinking_tokens == answer.metrics.completion_tokens
    assert all(c.n == 1 for c in answer.citations)  # citations come only from the answer text
    assert answer.chat_id is not None
    stored = thinker.conversations.messages(answer.chat_id)[-1]
    assert stored.thinking == answer.thinking and stored.content == answer.answer


def test_thinking_is_never_carried_into_later_prompts(
    thinker: Answerer, thinking_engine: Engine, sessions: sessionmaker[Session]
) -> None:
    with sessions.begin() as session:
        chat = Chat(title="riddles")
        session.add(chat)
        session.add(Message(chat=chat, role="user", content="What is the answer?"))
        session.add(
            Message(
                chat=chat,
                role="assistant",
                content="It is 4 [1].",
                thinking="SECRET-REASONING about the riddle",
                finish_reason="stop",
            )
        )
        session.add(Message(chat=chat, role="user", content="Cut off question?"))
        session.add(Message(chat=chat, role="assistant", content="Partial", finish_reason="length"))
        session.flush()
        chat_id = chat.id
    turns = [HistoryTurn(t.question, t.answer) for t in ConversationStore(sessions).turns(chat_id)]
    assert [(t.question, t.answer) for t in turns] == [("What is the answer?", "It is 4 [1].")]
    plan = assemble(thinking_engine, "Why?", HITS, turns, n_ctx=2048, max_tokens=64, enable_thinking=True)
    assert "It is 4 [1]." in plan.prompt
    assert "SECRET-REASONING" not in plan.prompt and "Partial" not in plan.prompt
    follow = ask(thinker, "Why?", AskOptions(thinking=False, max_tokens=4), chat_id=chat_id)
    assert follow.budget is not None and follow.budget.history_turns_used == 1
