"""End to end with the default chat model: an answer that only repeats the question is asked again
(Settings.reask), through folio.answering.ask_stream on a real library, and the chat keeps both texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.answering.types import AskOptions, Delta, Finished, Reasked
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.services import build_services

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
    folio = build_services(settings, tmp_path / "library", embedder=multilingual_embedder)
    try:
        assert not folio.library.ingest([document]).failed
        events = list(folio.answering.ask_stream(QUESTION, AskOptions(temperature=0.0, max_tokens=96)))
        final = events[-1]
        assert isinstance(final, Finished)
        answer = final.answer
        assert answer.chat_id is not None
        stored = folio.chats.answers(answer.chat_id)[-1]
    finally:
        folio.close()
    reasked = [e for e in events if isinstance(e, Reasked)]
    assert len(reasked) == 1, f"the first answer stated something: {answer.answer!r}"  # asked once only
    cut = events.index(reasked[0])
    first = "".join(e.text for e in events[:cut] if isinstance(e, Delta) and e.channel == "answer")
    after = "".join(e.text for e in events[cut:] if isinstance(e, Delta) and e.channel == "answer")
    assert reasked[0].first == first.strip() and answer.reasked_from == first.strip()
    assert answer.answer == after.rstrip()  # the new text (and Folio's note) replaces the first
    assert answer.complete and "reask" in answer.spans and answer.spans["prefill"] > 0
    assert stored.reasked_from == answer.reasked_from and stored.answer == answer.answer
