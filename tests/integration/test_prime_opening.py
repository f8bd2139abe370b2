"""The prompt opening cached when the model loads (the real SmolLM2): the first question reuses it,
a question holding the model or a filled cache is left alone."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.answering.pipeline.prime import prompt_opening
from app.core.answering.types import AskOptions
from app.core.config import Settings
from app.core.generate.engine import Engine
from app.core.qa import Folio
from app.core.services import build_services, words_only
from tests.answering_kit import SearchReader
from tests.core.answer_helpers import fixed_search, make_hit

HITS = [
    make_hit(1, "Prefill evaluates the whole prompt at once; it decides the time to first token.", page=5),
    make_hit(2, "Decode produces one token per step and decides the tokens per second.", page=6),
]


@pytest.fixture
def folio(test_settings: Settings, tmp_path: Path, chat_engine: Engine) -> Iterator[Folio]:
    settings = test_settings.replace(ttft_target_s=600.0)  # no passage dropped for a slow machine
    folio = build_services(
        settings,
        tmp_path / "library",
        engine=chat_engine,
        reader=SearchReader(fixed_search(HITS)),
        checking=words_only(),
    )
    with chat_engine.lock:
        chat_engine._require_llm().reset()  # as the model is just after loading
    yield folio
    folio.close()


@pytest.mark.parametrize("style", ["plain", "worked"])
def test_the_first_question_after_load_prefills_only_what_follows_the_opening(
    folio: Folio, chat_engine: Engine, style: str
) -> None:
    folio.apply_settings(folio.settings.replace(prompt_style=style))
    opening = prompt_opening(chat_engine, folio.settings)
    folio.answering.load_model()
    assert chat_engine.cached_prefix([*opening, 0]) == len(opening) - 1  # all but its last token
    answer = folio.answering.ask("What decides the time to first token?", AskOptions(max_tokens=12))
    assert answer.budget is not None and answer.finish_reason in ("stop", "length")
    # the template's start and the instructions came from the cache; the passages were prefilled
    budget = answer.budget
    assert budget.cached_prompt_tokens == len(opening) - 1 > 0.7 * budget.system_tokens
    assert budget.prompt_tokens - budget.cached_prompt_tokens > budget.passages_tokens


def test_without_priming_the_first_question_prefills_everything(folio: Folio) -> None:
    answer = folio.answering.ask("What decides the time to first token?", AskOptions(max_tokens=12))
    assert answer.budget is not None and answer.budget.cached_prompt_tokens == 0


def test_a_question_holding_the_model_or_a_filled_cache_is_left_alone(
    folio: Folio, chat_engine: Engine
) -> None:
    slot = folio.answering.model_slot
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with chat_engine.lock:
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    try:
        assert slot.prime() == 0  # never waits for the question
    finally:
        release.set()
        holder.join()
    assert chat_engine.cached_prefix([*prompt_opening(chat_engine, folio.settings), 0]) == 0
    folio.answering.ask("What decides the time to first token?", AskOptions(max_tokens=12))
    filled = chat_engine._require_llm().n_tokens
    assert slot.prime() == 0  # the cache holds the question's prompt, kept for its follow-up
    assert chat_engine._require_llm().n_tokens == filled > 0
