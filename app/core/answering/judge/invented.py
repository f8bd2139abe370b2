"""A figure made up: an answer to a quantity question whose figures no passage of the prompt states."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.answering.evidence.asked import asks_quantity, named_dimensions
from app.core.answering.evidence.facts import Facts, facts_of
from app.core.answering.evidence.lexical import normalize
from app.core.answering.evidence.quantities import (
    UNIT_BOUND,
    Quantity,
    clashes,
    dimensions,
    measure_another_kind,
    new_quantities,
)
from app.core.keywords import content_terms, is_number
from app.core.passage import Hit
from app.core.prompt.citations import strip_markers

# The kinds of figure a passage never states without a unit or a currency (quantities.UNIT_BOUND,
# money and shares): that none of the passages holds one is something Folio can tell.
STATED_WITH_UNIT = UNIT_BOUND | {"money", "share"}


def invented_figures(question: str, answer: str, passages: Sequence[Hit]) -> tuple[str, ...]:
    """The figures `answer` gives for a question that asks for a number, a measure or a date, or
    names the kind of figure it wants ("the retail price"; asked.py), when none of `passages` states
    them for it: not one of them is written in a passage (`unwritten`), or each is a figure of another
    kind than the one asked and no passage holds a figure of that kind (`of_another_kind`). The model
    made them up (it saw no other text). Empty when the question asks for no quantity or the answer
    gives no number the question does not name."""
    if not passages or not (asks_quantity(question) or named_dimensions(question)):
        return ()
    claimed = facts_of(strip_markers(answer))
    named = facts_of(question).numbers
    given = claimed.numbers - named
    if not given:
        return ()
    held = [facts_of(hit.text) for hit in passages]
    with_units = new_quantities(claimed.quantities, named)
    if unwritten(given, claimed, passages, held) or of_another_kind(question, with_units, held):
        return tuple(sorted(given))
    return ()


def unwritten(given: frozenset[str], claimed: Facts, passages: Sequence[Hit], held: Sequence[Facts]) -> bool:
    """No passage writes one of the `given` figures (in any form: "6", "六", "six"; also inside a
    name such as "Alt-F6", so that a figure a passage does state is never called made up) without
    contradicting its unit ("180 元" is not stated by "180 立方米每小时")."""
    for hit, facts in zip(passages, held, strict=True):
        written = {term for term in content_terms(normalize(hit.text)) if is_number(term)} | facts.numbers
        for figure in given & written:
            with_units = frozenset(q for q in claimed.quantities if q[0] == figure)
            if not clashes(with_units, facts.quantities):
                return False
    return True


def of_another_kind(question: str, given: frozenset[Quantity], held: Sequence[Facts]) -> bool:
    """The question asks for a kind of figure always stated with its unit (a price, a length, a
    weight…; asked.py), the figures with units the answer `given` (those the question does not name)
    all measure something else ("300 吨" for annual sales) and no passage holds a figure of the kind
    asked."""
    asked = named_dimensions(question)
    if not asked or not asked <= STATED_WITH_UNIT or not measure_another_kind(given, asked):
        return False
    return not any(dimensions(facts.quantities) & asked for facts in held)
