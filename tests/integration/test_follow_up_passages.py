"""A chat's next question keeps the previous answer's passages while its best passage is one of
them, and its prompt then comes from the KV cache; a question that moves on is searched afresh
(real library, MiniLM, FAISS, SQLite, the real SmolLM2)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.core.answering.pipeline.carry import carried_hits
from app.core.answering.types import Answer, AskOptions
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.generate.engine import Engine
from app.core.qa import Folio
from app.core.services import build_services
from app.core.store.conversations import Turn

DOCS = {
    "kettle.md": "# Aurelia KX-40 kettle\n\nError code E7 on the Aurelia KX-40 means the water tank is "
    "empty or the float sensor is stuck. When E7 shows up, unplug the kettle, fill the tank to the MIN "
    "mark and press the reset button for five seconds.\n",
    "kettle-care.md": "# Kettle care\n\nDescale the kettle once a month: fill it with vinegar water, "
    "press the descale button and wait until the light turns off.\n",
    "garden.md": "# Tomatoes\n\nTomato plants in pots are watered every morning in summer, with two "
    "litres each, and fed with seaweed fertiliser every two weeks.\n",
    "bikes.md": "# Bicycle tyres\n\nRoad bicycle tyres are pumped to 6 bar; a mountain bike's tyres to "
    "2 bar. Check the pressure once a week.\n",
    "bread.md": "# Sourdough\n\nA sourdough loaf is baked at 230 degrees for twenty minutes with steam, "
    "then 20 more minutes at 210 degrees without.\n",
}
FIRST = "Why does my KX-40 show E7?"
NEXT = "How do I reset the KX-40 kettle after E7?"
# room to finish: only complete answers are a chat's turns. SmolLM2's greedy answer to FIRST depends on
# the CPU kernels' rounding: 452 tokens under the zen4 kernels (past the 400 this had), fewer under AVX2
COMPLETE = AskOptions(max_tokens=900)
SHORT = AskOptions(max_tokens=8)


@pytest.fixture(scope="module")
def chat_folio(
    tmp_path_factory: pytest.TempPathFactory, embedder: Embedder, chat_engine: Engine
) -> Iterator[Folio]:
    root = tmp_path_factory.mktemp("carry")
    docs = root / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    # no TTFT-driven passage budget: on loaded cores it measured 25.6 tok/s and dropped the moved
    # question's own passage (limit 204 tokens); the passages here are passages_k's alone
    settings = Settings(
        n_ctx=chat_engine.n_ctx,
        n_threads=chat_engine.n_threads,
        temperature=0.0,
        passages_k=2,
        ttft_target_s=0.0,
    )
    folio = build_services(settings, root / "library", embedder=embedder, engine=chat_engine)
    assert not folio.library.ingest([docs]).failed
    yield folio
    folio.close()


@pytest.fixture(scope="module")
def first(chat_folio: Folio) -> Answer:
    """The chat's first question, answered completely (so that it is a turn of the chat)."""
    answer = chat_folio.answering.ask(FIRST, COMPLETE)
    assert answer.finish_reason == "stop" and answer.budget is not None and answer.chat_id is not None
    return answer


def test_a_question_whose_best_passage_was_shown_keeps_the_passages_and_reuses_the_prompt(
    chat_folio: Folio, first: Answer
) -> None:
    assert first.passages[0].document == "kettle.md"
    fresh = chat_folio.library.search(NEXT).hits  # on its own, the next question finds another second passage
    assert fresh[0].chunk_id == first.passages[0].chunk_id
    assert [h.chunk_id for h in fresh] != [h.chunk_id for h in first.passages]
    follow = chat_folio.answering.ask(NEXT, SHORT, first.chat_id)
    assert follow.budget is not None
    assert [h.chunk_id for h in follow.passages] == [h.chunk_id for h in first.passages]
    # the instructions and both passages come from the KV cache: only the question is evaluated
    shared = follow.budget.system_tokens + follow.budget.passages_tokens
    assert follow.budget.cached_prompt_tokens >= shared
    assert follow.metrics.prompt_tokens - follow.budget.cached_prompt_tokens < shared


def test_a_question_that_moves_on_is_searched_afresh(chat_folio: Folio, first: Answer) -> None:
    assert "bread.md" not in {h.document for h in first.passages}
    moved = chat_folio.answering.ask("At what temperature is a sourdough loaf baked?", SHORT, first.chat_id)
    # its own best passage is in the prompt (after the one it shares with the previous prompt)
    assert "bread.md" in {h.document for h in moved.passages}, moved.budget


def test_a_passage_gone_from_the_library_ends_the_carrying(chat_folio: Folio, first: Answer) -> None:
    assert first.chat_id is not None and first.budget is not None
    turns = chat_folio.chats.conversations.turns(first.chat_id)
    hits = chat_folio.library.search(NEXT).hits
    kept = carried_hits(NEXT, hits, turns, chat_folio.library.reader.passages)
    assert kept is not None and [h.chunk_id for h in kept] == first.budget.passages_used
    gone = max(first.budget.passages_used) + 1000  # an id the library never had
    budget = dict(turns[-1].trace["budget"])
    budget["passages_used"] = [*first.budget.passages_used, gone]
    changed = [Turn(t.question, t.answer, {**t.trace, "budget": budget}) for t in turns]
    assert carried_hits(NEXT, hits, changed, chat_folio.library.reader.passages) is None
    assert (
        carried_hits("anything", hits, [], chat_folio.library.reader.passages) is None
    )  # no chat: nothing to carry
