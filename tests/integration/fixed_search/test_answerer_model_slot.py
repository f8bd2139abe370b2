"""The Answerer's model slot and chats, with the real SmolLM2 over a fixed search: usage errors, a
missing or broken model keeps the loaded one, a changed context reloads lazily, a second question
waits for the model, chats are created and deleted with their traces."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import select

from app.core.answering.pipeline.pipeline import Answerer
from app.core.answering.types import Answer, AskOptions
from app.core.config import Settings
from app.core.errors import ModelError, UsageError
from app.core.generate.engine import Engine
from app.core.store.chats import Trace
from tests.answering_kit import ask, make_answerer
from tests.core.answer_helpers import fixed_search, make_hit


def test_empty_question_and_unknown_chat_are_usage_errors(answerer: Answerer) -> None:
    with pytest.raises(UsageError):
        answerer.ask_stream("   ")
    with pytest.raises(UsageError, match="no chat"):
        answerer.ask_stream("Hi?", chat_id=9999)
    with pytest.raises(UsageError):
        answerer.ask_stream("Hi?", AskOptions(temperature=-1.0))


def test_settings_with_a_missing_model_keep_the_loaded_one(answerer: Answerer, tmp_path: Path) -> None:
    before = answerer.settings
    with pytest.raises(ModelError, match=r"missing\.gguf"):
        answerer.slot.apply(before.replace(model_path=str(tmp_path / "missing.gguf")))
    assert answerer.settings == before
    assert answerer.slot.load().name == "SmolLM2-135M-Instruct.Q4_1.gguf"


def test_changed_context_reloads_lazily(answerer: Answerer) -> None:
    answerer.slot.load()
    answerer.slot.apply(answerer.settings.replace(n_ctx=1024))
    info = answerer.slot.info()
    assert info is not None and info.n_ctx == 4096  # not reloaded yet
    assert answerer.slot.load().n_ctx == 1024
    answer = ask(answerer, "What decides the time to first token?", AskOptions(max_tokens=4))
    assert answer.budget is not None and answer.budget.n_ctx == 1024


def test_a_gated_answer_reports_the_context_of_the_model_it_would_use(
    test_settings: Settings, tmp_path: Path, chat_engine: Engine
) -> None:
    weak = [make_hit(1, "Unrelated text about gardening.", similarity=0.05)]
    answerer = make_answerer(test_settings, tmp_path / "library", fixed_search(weak), engine=chat_engine)
    assert test_settings.n_ctx != 1024
    assert answerer.slot.apply(answerer.settings.replace(n_ctx=1024))  # loads at its next use
    answer = ask(answerer, "What is the boiling point of mercury?")
    assert answer.grounded is False and answer.budget is not None
    assert answer.budget.n_ctx == 1024  # the engine this question was handed, not the old one
    answerer.close()


def test_chats_can_be_created_listed_and_deleted(answerer: Answerer) -> None:
    chat_id = answerer.conversations.create("Prefill questions")
    assert [c.title for c in answerer.conversations.summaries()] == ["Prefill questions"]
    answer = ask(answerer, "What decides the time to first token?", AskOptions(max_tokens=4), chat_id=chat_id)
    assert answer.chat_id == chat_id
    answerer.conversations.delete(chat_id)
    assert answerer.conversations.summaries() == []
    with answerer.conversations.sessions() as session:
        assert session.scalars(select(Trace)).all() == []  # traces go with their chat


def test_a_second_question_waits_for_the_model_and_reports_the_wait(answerer: Answerer) -> None:
    barrier = threading.Barrier(2)
    answers: list[Answer] = []

    def ask_one(question: str) -> None:
        barrier.wait()
        answers.append(ask(answerer, question, AskOptions(max_tokens=12)))

    threads = [threading.Thread(target=ask_one, args=(q,)) for q in ("What is prefill?", "What is decode?")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 2 and all(a.finish_reason in ("stop", "length") for a in answers)
    holder, waiter = sorted(answers, key=lambda a: a.metrics.queue_ms)
    assert waiter.metrics.queue_ms >= holder.spans["decode"]  # it waited through the whole generation


def test_a_new_model_that_fails_to_load_keeps_the_previous_one(
    answerer: Answerer, tmp_path: Path, smollm_path: Path
) -> None:
    broken = tmp_path / "truncated.gguf"
    broken.write_bytes(smollm_path.read_bytes()[:8192])  # starts like GGUF, fails in llama.cpp
    before = answerer.settings
    answerer.slot.apply(before.replace(model_path=str(broken)))
    with pytest.raises(ModelError, match=r"truncated\.gguf"):
        answerer.slot.load()
    assert answerer.settings.model_path == before.model_path
    assert answerer.slot.load().name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    answer = ask(answerer, "What decides the time to first token?", AskOptions(max_tokens=4))
    assert answer.finish_reason in ("stop", "length") and answer.model == "SmolLM2-135M-Instruct.Q4_1.gguf"
