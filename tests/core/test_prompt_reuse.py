"""A follow-up's passages: the previous prompt's first, in its order and with the text it showed."""

from __future__ import annotations

from app.core.prompt.budget import Budget
from app.core.prompt.reuse import follow_up_order
from tests.core.answer_helpers import make_hit

STORED = [make_hit(n, f"Stored passage {n}. It has a second sentence.", page=n) for n in range(1, 6)]


def _previous(used: list[int], excerpts: dict[int, str] | None = None) -> Budget:
    return Budget(4096, 256, 3840, None, passages_used=used, excerpts=excerpts or {})


def test_passages_shown_before_come_first_in_their_old_order_and_old_text() -> None:
    shown = [STORED[4], STORED[2], STORED[0]]  # this question ranks 5, 3, 1
    previous = _previous([1, 2, 3], {3: "… It has a second sentence."})
    ordered = follow_up_order(shown, previous, STORED)
    assert [hit.chunk_id for hit in ordered] == [1, 3, 5]  # 1 and 3 as before, 2 not found again
    assert ordered[0].text == STORED[0].text  # shown whole before: whole again
    assert ordered[1].text == "… It has a second sentence."  # the excerpt shown before
    assert ordered[2] == STORED[4]


def test_a_passage_cut_now_but_whole_before_is_shown_whole_again() -> None:
    cut_now = [make_hit(2, "… It has a second sentence.", page=2)]
    ordered = follow_up_order(cut_now, _previous([2]), STORED)
    assert ordered[0].text == STORED[1].text


def test_without_a_previous_prompt_the_rank_order_stays() -> None:
    shown = [STORED[3], STORED[1]]
    assert follow_up_order(shown, None, STORED) == shown
    assert follow_up_order(shown, _previous([]), STORED) == shown


def test_excerpts_survive_the_trace_round_trip() -> None:
    previous = _previous([4, 2], {4: "… excerpt"})
    again = Budget.from_json(previous.to_json())
    assert again is not None and again.excerpts == {4: "… excerpt"} and again.passages_used == [4, 2]
