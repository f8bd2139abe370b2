"""End to end with the default chat model: a Chinese answer that only restates its question is
continued from its frame (Settings.complete_restated), through folio.answering.ask_stream on a real
library built from one of the eval's documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from tests.integration.asked_once import ask_once

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
LIMITS = REPO / "benchmarks" / "eval" / "docs" / "sqlite-limits.en.html"
# The default model first answers "SQLite 默认最多允许几个 SELECT。": the question again.
QUESTION = "SQLite 默认最多允许几个 SELECT？"
FRAME = "SQLite 默认最多允许"


@pytest.mark.parametrize("complete", [True, False])
def test_a_chinese_restatement_is_continued_from_its_frame(
    tmp_path: Path, multilingual_embedder: Embedder, complete: bool
) -> None:
    settings = Settings(temperature=0.0, ttft_target_s=0.0, max_tokens=96, complete_restated=complete)
    asked = ask_once(settings, tmp_path / "library", multilingual_embedder, LIMITS, QUESTION)
    answer, stored, replacements = asked.answer, asked.stored, asked.replaced
    if not complete:  # off (and `reask` off): the restatement stands, with what Folio found after it
        assert not replacements and answer.answer.startswith("SQLite 默认最多允许几个 SELECT")
        assert "Folio 找到的原文" in answer.answer
        return
    assert len(replacements) == 1, f"the first answer stated something: {answer.answer!r}"
    assert replacements[0].first.startswith(QUESTION[:-1])  # the question again
    after = asked.streamed(asked.events.index(replacements[0]))
    assert after.startswith(FRAME)  # the frame is shown first, then what the model wrote after it
    text = after.split("\n\n")[0]
    assert "500" in text and "几" not in text  # the slot filled, the asking word kept out
    assert answer.answer.startswith(text) and answer.reasked_from == replacements[0].first
    assert answer.complete and "reask" in answer.spans
    assert stored.answer == answer.answer and stored.reasked_from == answer.reasked_from
