"""A figure made up: an answer to a quantity question whose figures are in none of the prompt's passages."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.answering.evidence.asked import asks_quantity
from app.core.answering.evidence.facts import facts_of
from app.core.answering.evidence.quantities import clashes
from app.core.answering.evidence.lexical import normalize
from app.core.keywords import content_terms, is_number
from app.core.passage import Hit
from app.core.prompt.citations import strip_markers


def invented_figures(question: str, answer: str, passages: Sequence[Hit]) -> tuple[str, ...]:
    """The figures `answer` gives for a question that asks for a number, a measure or a date
    (asked.py), when not one of them is written in any of `passages`: the model made them up (it
    saw no other text). Empty when the question asks for no quantity, the answer gives no number the
    question does not name, or a passage writes one of them (in any form: "6", "六", "six"; also
    inside a name such as "Alt-F6", so that a figure a passage does state is never called made up)
    without contradicting its unit ("180 元" is not stated by "180 立方米每小时")."""
    if not passages or not asks_quantity(question):
        return ()
    claimed = facts_of(strip_markers(answer))
    given = claimed.numbers - facts_of(question).numbers
    if not given:
        return ()
    for hit in passages:
        held = facts_of(hit.text)
        written = {term for term in content_terms(normalize(hit.text)) if is_number(term)} | held.numbers
        for figure in given & written:
            with_units = frozenset(q for q in claimed.quantities if q[0] == figure)
            if not clashes(with_units, held.quantities):
                return ()
    return tuple(sorted(given))
