"""Follow-up questions to the Answerer with the real SmolLM2 over a fixed search: searched with the
previous question, the chat's trusted answers in the prompt (never an unsupported one), the previous
prompt reused from the KV cache, the same excerpts shown."""

from __future__ import annotations

from pathlib import Path

from app.core.answering.pipeline.pipeline import Answerer
from app.core.answering.types import AskOptions
from app.core.config import Settings
from app.core.passage import SearchResult
from app.core.store.conversations import AnswerRecord
from tests.answering_kit import ask, make_answerer
from tests.core.answer_helpers import fixed_search, make_hit


def test_a_follow_up_that_names_little_is_searched_with_the_previous_question(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    volcano = [make_hit(1, "The volcano readings rose in spring because magma fed the vents.", page=3)]
    garden = [make_hit(1, "Unrelated text about gardening.", similarity=0.05)]
    queries: list[str] = []

    def search(query: str, k: int) -> SearchResult:
        queries.append(query)
        return SearchResult(query, (volcano if "volcano" in query else garden)[:k], 1.0)

    chatty = make_answerer(test_settings, tmp_path / "library", search, engine=answerer.slot.engine)
    chat_id = chatty.conversations.create()
    chatty.conversations.save(
        AnswerRecord("What did the volcano readings show?", "They rose in spring [1].", "", "stop", []),
        chat_id,
    )
    follow = ask(chatty, "And why did they rise?", AskOptions(max_tokens=8), chat_id=chat_id)
    assert queries == [
        "And why did they rise?",
        "What did the volcano readings show?\nAnd why did they rise?",
        "What did the volcano readings show?",  # its own passages fused in
    ]
    assert follow.grounded is not False and follow.metrics.completion_tokens > 0
    assert [c.page for c in follow.passages] == [3]
    alone = ask(chatty, "And why did they rise?", AskOptions(max_tokens=8))  # no chat: nothing to add
    assert alone.grounded is False and queries[-1] == "And why did they rise?"


def test_history_enters_the_prompt_only_for_a_follow_up_and_never_an_unsupported_answer(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    volcano = [make_hit(1, "The volcano readings rose in spring because magma fed the vents.", page=3)]
    garden = [make_hit(1, "Unrelated text about gardening.", similarity=0.05)]

    def search(query: str, k: int) -> SearchResult:
        return SearchResult(query, (volcano if "volcano" in query else garden)[:k], 1.0)

    chat = make_answerer(test_settings, tmp_path / "library", search, engine=answerer.slot.engine)
    chat_id = chat.conversations.create()
    good = {"verdict": "answered"}
    chat.conversations.save(
        AnswerRecord("What did the volcano readings show?", "They rose in spring [1].", "", "stop", [], good),
        chat_id,
    )
    options = AskOptions(max_tokens=8)
    # a new question that names its subject stands on its own: no history in its prompt
    fresh = ask(chat, "Why did the volcano readings rise?", options, chat_id=chat_id)
    assert fresh.budget is not None and fresh.budget.history_turns_used == 0
    assert fresh.budget.history_tokens == 0
    # a follow-up that names little of its subject gets the chat's trusted answers
    follow = ask(chat, "And why did they rise?", options, chat_id=chat_id)
    assert follow.budget is not None and follow.budget.history_turns_used >= 1
    # an answer Folio found unsupported or not answering is never fed back as fact
    chat2 = chat.conversations.create()
    bad = {"verdict": "not_answered", "support_rate": 0.0}
    chat.conversations.save(
        AnswerRecord("What did the volcano readings show?", "They fell in winter [1].", "", "stop", [], bad),
        chat2,
    )
    after_bad = ask(chat, "And why did they rise?", options, chat_id=chat2)
    # its question is shown (the follow-up is about it), its answer withheld
    assert after_bad.budget is not None and after_bad.budget.history_turns_used == 1
    prompt = chat.slot.engine.detokenize(chat.slot.engine._llm._input_ids)
    assert "What did the volcano readings show?" in prompt and "They fell in winter" not in prompt
    assert after_bad.passages and after_bad.passages[0].page == 3  # the re-search still used it


def test_follow_up_reuses_the_prefix_and_carries_complete_history(answerer: Answerer) -> None:
    first = ask(answerer, "What decides the time to first token?", AskOptions(max_tokens=60))
    follow = ask(
        answerer, "And what decides tokens per second?", AskOptions(max_tokens=30), chat_id=first.chat_id
    )
    assert follow.chat_id == first.chat_id
    assert follow.budget is not None
    assert follow.budget.history_turns_used == (1 if first.complete else 0)
    assert follow.budget.cached_prompt_tokens > follow.budget.system_tokens  # instructions + passages reused
    assert [m.role for m in answerer.conversations.messages(first.chat_id or 0)] == ["user", "assistant"] * 2


def test_a_follow_up_shows_the_same_excerpts_and_reuses_the_whole_previous_prompt(
    answerer: Answerer, test_settings: Settings, tmp_path: Path
) -> None:
    rooms = " ".join(f"Room {n} of the museum shows tools of the {n}th century." for n in range(10, 16))
    hits = [
        make_hit(1, f"{rooms} The lighthouse tower is 31 metres tall. {rooms}", page=3),
        make_hit(2, f"{rooms} The lighthouse was first lit in 1871. {rooms}", page=4),
    ]
    first_search = fixed_search(hits)
    searches = iter([first_search, fixed_search(hits[::-1])])  # the follow-up ranks them the other way

    def search(query: str, k: int) -> SearchResult:
        return next(searches)(query, k)

    settings = test_settings.replace(evidence_selection=True)
    chat = make_answerer(settings, tmp_path / "library", search, engine=answerer.slot.engine)
    first = ask(chat, "How tall is the lighthouse tower?", AskOptions(max_tokens=40))
    follow = ask(chat, "When was the lighthouse first lit?", AskOptions(max_tokens=20), chat_id=first.chat_id)
    assert first.budget is not None and follow.budget is not None and first.complete
    assert first.budget.excerpts and follow.budget.excerpts == first.budget.excerpts
    assert follow.budget.passages_used == first.budget.passages_used == [1, 2]
    # the instructions, both passages as shown before and the first turn came from the KV cache
    reused = follow.budget.system_tokens + follow.budget.passages_tokens + follow.budget.history_tokens
    assert follow.budget.cached_prompt_tokens >= reused
