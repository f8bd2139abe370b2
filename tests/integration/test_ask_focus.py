"""answer_from with the real model: the prompt shows only the located sentences, or repeats them."""

from __future__ import annotations

from pathlib import Path

from app.core.answering.types import Answer, AskOptions
from app.core.config import Settings
from app.core.generate.engine import Engine
from app.core.prompt.budget import Budget
from tests.answering_kit import ask, make_answerer
from tests.core.answer_helpers import fixed_search, make_hit

MANUAL = (
    "Before you start, read the safety notes. Keep children away from the steam wand. "
    "The drip tray holds 0.6 litres. Water tank: 1.8 litres, removable, filled from the top. "
    "Bean hopper: 250 g. The grinder has 18 settings. Clean the brew unit weekly. "
    "Descale the machine every two months with the supplied descaler."
)
HITS = [make_hit(1, MANUAL, page=2), make_hit(2, "The warranty lasts two years from purchase.", page=9)]
QUESTION = "How much water does the water tank hold?"


def _answer(settings: Settings, library_dir: Path, engine: Engine, mode: str) -> Answer:
    answerer = make_answerer(
        settings.replace(answer_from=mode, ttft_target_s=0.0), library_dir, fixed_search(HITS), engine=engine
    )
    return ask(answerer, QUESTION, AskOptions(max_tokens=24, temperature=0.0))


def _budget(answer: Answer) -> Budget:
    assert answer.budget is not None
    return answer.budget


def test_each_mode_shows_the_model_what_it_says(
    test_settings: Settings, tmp_path: Path, chat_engine: Engine
) -> None:
    passages = _answer(test_settings, tmp_path / "library", chat_engine, "passages")
    found = _answer(test_settings, tmp_path / "library", chat_engine, "found")
    hinted = _answer(test_settings, tmp_path / "library", chat_engine, "hinted")
    for answer in (passages, found, hinted):
        assert answer.finish_reason in ("stop", "length") and answer.located
        assert answer.located[0].sentence.startswith("Water tank: 1.8 litres")
    # "found": only the passage that holds the located sentence, cut to it and its neighbours
    assert _budget(found).passages_used == [1]
    cut = _budget(found).excerpts[1]
    assert "Water tank: 1.8 litres" in cut and "Descale the machine" not in cut
    assert _budget(found).passages_tokens < _budget(passages).passages_tokens
    # "hinted": all passages, and the question carries the located sentence again
    assert _budget(hinted).passages_used == _budget(passages).passages_used == [1, 2]
    assert _budget(hinted).question_tokens > _budget(passages).question_tokens
