"""End to end with the default chat model: an answer that only repeats the question is asked again
(Settings.reask), through folio.answering.ask_stream on a real library, and the chat keeps both texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from tests.integration.asked_once import ask_once

pytestmark = pytest.mark.slow

LATENCY_ZH = "# 首字延迟\n\n首字延迟主要取决于提示词的长度。提示词越长，预填充越慢。\n"
# The default model answers this in the question's own words ("The time to the first word mostly
# depends on the length of the prompt words."), which the shipped policy reads as a restatement.
QUESTION = "What does the time to the first word mostly depend on?"


def test_an_answer_that_states_nothing_is_asked_again_and_replaced(
    tmp_path: Path, multilingual_embedder: Embedder
) -> None:
    document = tmp_path / "latency-zh.md"
    document.write_text(LATENCY_ZH, encoding="utf-8")
    settings = Settings(temperature=0.0, ttft_target_s=0.0, max_tokens=96, reask=True)
    asked = ask_once(settings, tmp_path / "library", multilingual_embedder, document, QUESTION)
    answer, stored, replacements = asked.answer, asked.stored, asked.replaced
    assert len(replacements) == 1, f"the first answer stated something: {answer.answer!r}"  # asked once only
    cut = asked.events.index(replacements[0])
    first, after = asked.streamed(0, cut), asked.streamed(cut)
    assert replacements[0].first == first.strip() and answer.reasked_from == first.strip()
    assert answer.answer == after.rstrip()  # the new text (and Folio's note) replaces the first
    assert answer.complete and "reask" in answer.spans and answer.spans["prefill"] > 0
    assert stored.reasked_from == answer.reasked_from and stored.answer == answer.answer
