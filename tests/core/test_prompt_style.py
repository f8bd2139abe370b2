"""Settings.prompt_style: validated, saved, and the instructions the answer prompt is built with."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.core.answering.options import resolve_options
from app.core.answering.pipeline.stages import prepare_prompt
from app.core.config import Settings, load_settings, save_settings
from app.core.errors import UsageError
from app.core.generate.engine import Engine
from app.core.prompt.system import INSTRUCTIONS, PASSAGES_HEADER, answer_instructions
from tests.core.answer_helpers import make_hit

HITS = [make_hit(1, "The option cache_mb sets the cache size in megabytes; the default is 256.")]


def test_the_default_is_plain_and_an_unknown_style_is_refused_with_the_choices() -> None:
    assert Settings().prompt_style == "plain"
    assert Settings.from_dict({}).prompt_style == "plain"  # a settings file from before the field
    with pytest.raises(UsageError, match=r"prompt style must be one of plain, worked"):
        Settings().replace(prompt_style="chatty")
    with pytest.raises(UsageError, match="prompt style"):
        Settings.from_dict({"prompt_style": "chatty"})


def test_the_style_round_trips_through_the_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    save_settings(Settings(prompt_style="worked"), path)
    assert load_settings(path).prompt_style == "worked"
    save_settings(Settings(), path)
    assert load_settings(path).prompt_style == "plain"


def _system_text(settings: Settings, engine: Engine, question: str) -> str:
    info = engine.info()
    assert info is not None
    ask = resolve_options(question, None, settings.replace(ttft_target_s=0.0))
    prepared = prepare_prompt(ask, engine, info, HITS, [], None, None, time.perf_counter())
    assert prepared.chat is not None
    return prepared.chat.messages[0]["content"]


@pytest.mark.parametrize(
    ("question", "example"),
    [("Which option sets the cache size?", "Question: Which option"), ("哪个选项设置缓存大小？", "问题：")],
)
def test_the_answer_prompt_takes_the_settings_style_in_the_questions_language(
    test_settings: Settings, chat_engine: Engine, question: str, example: str
) -> None:
    plain = _system_text(test_settings, chat_engine, question)
    assert plain.startswith(INSTRUCTIONS + "\n\n" + PASSAGES_HEADER)  # today's prompt
    worked = _system_text(test_settings.replace(prompt_style="worked"), chat_engine, question)
    assert worked.startswith(answer_instructions("worked", question) + "\n\n" + PASSAGES_HEADER)
    assert example in worked and example not in plain
    assert worked.endswith("[1] guide.pdf, p. 1\n" + HITS[0].text)  # the passages as before
