"""The re-ask (answering/pipeline/reask.py): when it is asked, and the conversation it asks with,
rendered and tokenized by the real engine."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from app.core.answering.evidence.locate import LocatedSentence
from app.core.answering.judge.judge import Judgement
from app.core.answering.options import resolve_options
from app.core.answering.pipeline.frame import FILL_GRAMMAR
from app.core.answering.pipeline.reask import complete_prompt, reask_prompt, wants_reask
from app.core.answering.pipeline.stages import PreparedPrompt, prepare_prompt
from app.core.answering.run import AnswerRun
from app.core.config import Settings
from app.core.generate.engine import Engine
from app.core.generate.remote import RemoteEngine
from app.core.generate.steps import GenerationEnd
from app.core.passage import Citation
from app.core.prompt.system import REASK_EN, REASK_ZH
from tests.core.answer_helpers import make_hit

HITS = [
    make_hit(7, "Drafts are kept for a week. The option autosave_minutes sets how often drafts are saved."),
    make_hit(9, "The default of autosave_minutes is 10.", page=4),
]
QUESTION = "How often are drafts saved by default?"
FIRST = "Drafts are saved by default [1]."
FOUND = "The default of autosave_minutes is 10."


def _end(reason: str = "stop") -> GenerationEnd:
    return GenerationEnd(reason, [], 100, 0, 10.0, 1.0, 2.0, 8, 0)


def _answered(
    settings: Settings, engine: Engine, question: str = QUESTION
) -> tuple[AnswerRun, PreparedPrompt]:
    """A run as the pipeline leaves it after a first answer that stated nothing."""
    info = engine.info()
    assert info is not None
    ask = resolve_options(question, None, settings.replace(ttft_target_s=0.0))
    prompt = prepare_prompt(ask, engine, info, HITS, [], None, None, time.perf_counter())
    run = AnswerRun(question, ask.sampling, engine.model_ref)
    run.info, run.passages, run.end = info, prompt.passages, _end()
    run.located = [
        LocatedSentence(Citation.from_hit(2, HITS[1]), "The default of autosave_minutes is 10.", 0.8)
    ]
    run.answer = [FIRST]
    return run, prompt


def test_it_asks_again_only_when_a_complete_new_answer_stated_nothing_and_something_was_found(
    test_settings: Settings, chat_engine: Engine
) -> None:
    run, prompt = _answered(test_settings, chat_engine)
    says_nothing = Judgement(None, "not_answered", says_nothing=True)
    assert wants_reask(says_nothing, run, prompt)
    assert not wants_reask(Judgement(None, "not_answered"), run, prompt)  # it stated something
    assert not wants_reask(says_nothing, run, replace(prompt, continued="Drafts are"))  # a continuation
    run.end = _end("length")
    assert not wants_reask(says_nothing, run, prompt)  # cut off: Continue is the user's choice
    run.end, run.located = _end(), []
    assert not wants_reask(says_nothing, run, prompt)  # nothing found to point the model at


def test_the_reask_continues_the_conversation_with_the_found_sentences_numbered_as_the_prompt(
    test_settings: Settings, chat_engine: Engine
) -> None:
    run, prompt = _answered(test_settings, chat_engine)
    again = reask_prompt(chat_engine, prompt, run)
    assert again is not None and again.chat is not None and prompt.chat is not None
    first_turns = len(prompt.chat.messages)
    assert again.chat.messages[:first_turns] == prompt.chat.messages  # the first prompt stays a prefix
    assert again.chat.messages[first_turns] == {"role": "assistant", "content": FIRST}
    turn = again.chat.messages[first_turns + 1]
    assert turn["role"] == "user"
    assert (
        turn["content"] == f"{REASK_EN}\n[2] The default of autosave_minutes is 10.\n\nQuestion: {QUESTION}"
    )
    # the engine renders and tokenizes the whole conversation; the first prompt's tokens lead it,
    # so the KV cache answers them without a second prefill
    assert again.tokens[: len(prompt.tokens) - 1] == prompt.tokens[:-1]
    assert len(again.tokens) > len(prompt.tokens) + 20
    assert again.passages == prompt.passages and not again.continued


def test_a_chinese_question_is_asked_again_in_chinese(test_settings: Settings, chat_engine: Engine) -> None:
    run, prompt = _answered(test_settings, chat_engine, "草稿默认多久保存一次？")
    again = reask_prompt(chat_engine, prompt, run)
    assert again is not None and again.chat is not None
    assert again.chat.messages[-1]["content"].startswith(REASK_ZH + "\n[2] ")
    assert again.chat.messages[-1]["content"].endswith("问题：草稿默认多久保存一次？")


def test_no_reask_when_it_would_not_fit_the_context_or_nothing_found_is_in_the_prompt(
    test_settings: Settings, chat_engine: Engine
) -> None:
    run, prompt = _answered(test_settings, chat_engine)
    assert run.info is not None
    run.sampling = replace(run.sampling, max_tokens=run.info.n_ctx - len(prompt.tokens) - 5)
    assert reask_prompt(chat_engine, prompt, run) is None
    run, prompt = _answered(test_settings, chat_engine)
    run.passages = run.passages[:1]  # the found sentence's passage is not in the prompt
    assert reask_prompt(chat_engine, prompt, run) is None


@pytest.mark.parametrize("reask", [True, False])
def test_the_setting_round_trips_and_defaults_off(reask: bool) -> None:
    assert Settings().reask is False
    assert Settings.from_dict({}).reask is False
    assert Settings.from_dict(Settings(reask=reask).to_dict()).reask is reask


def test_a_chinese_restatement_is_continued_from_its_frame_after_the_first_prompt(
    test_settings: Settings, chat_engine: Engine
) -> None:
    run, prompt = _answered(test_settings, chat_engine, "草稿默认多久保存一次？")
    run.answer = ["草稿默认多久保存一次 [1]。"]
    again = complete_prompt(chat_engine, prompt, run)
    assert again is not None and prompt.chat is not None
    assert again.continued == "草稿默认" and again.grammar == FILL_GRAMMAR
    rendered = chat_engine.render_chat(prompt.chat.messages, False)
    assert again.tokens == chat_engine.tokenize_prompt(rendered + "草稿默认")  # inside the answer turn
    assert again.tokens[: len(prompt.tokens) - 1] == prompt.tokens[:-1]  # the first prompt: a cached prefix
    assert again.chat == prompt.chat and again.passages == prompt.passages


def test_no_frame_no_continuation(test_settings: Settings, chat_engine: Engine) -> None:
    run, prompt = _answered(test_settings, chat_engine)  # an English restatement: no frame
    assert complete_prompt(chat_engine, prompt, run) is None
    run.answer = ["草稿默认多久保存一次 [1]。"]
    assert run.info is not None
    run.sampling = replace(run.sampling, max_tokens=run.info.n_ctx - len(prompt.tokens) - 2)
    assert complete_prompt(chat_engine, prompt, run) is None  # it would not fit
    # a server starts a new assistant turn: there is nothing to continue there
    assert chat_engine.continues and not RemoteEngine.continues


def test_completing_a_restatement_is_on_by_default_and_round_trips() -> None:
    assert Settings().complete_restated is True and Settings.from_dict({}).complete_restated is True
    assert Settings.from_dict(Settings(complete_restated=False).to_dict()).complete_restated is False
