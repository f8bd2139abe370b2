"""Every policy of a grid judged at once: judge.decide's "answered" as arrays over the grid's axes.

judge_fit.py searches a grid of some tens of millions of policies; calling judge.decide for each
policy and answer would take hours. Here each answer sentence's ruling is computed once per value of
the axes it depends on and broadcast over the rest, so the whole grid is judged in about a second per
answer. `answered_everywhere` must agree with judge.decide for every policy of the grid
(tests/core/test_judge_grid.py checks it on random signals and policies).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from app.core.answering.judge.policy import Policy
from app.core.answering.judge.signals import Signals

# the grid's axes, in the order policies are enumerated (the last varies fastest); the fact rule is
# one axis of (fact_about_cosine, fact_about_gap, fact_located_enough) triples
FACT_RULE = "fact_rule"


@dataclass(frozen=True)
class Grid:
    """Named axes of policy values; `fact_rules` the triples of the fact rule axis (last)."""

    axes: dict[str, tuple[Any, ...]]
    fact_rules: tuple[dict[str, Any], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return (*self.axes, FACT_RULE)

    @property
    def shape(self) -> tuple[int, ...]:
        return (*(len(v) for v in self.axes.values()), len(self.fact_rules))

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    def policy(self, base: Policy, flat: int) -> Policy:
        """The grid's policy at flat index `flat` (C order over `shape`), on top of `base`."""
        index = np.unravel_index(flat, self.shape)
        values = {name: self.axes[name][int(i)] for name, i in zip(self.axes, index[:-1], strict=True)}
        return replace(base, **values, **self.fact_rules[int(index[-1])])

    def policies(self, base: Policy) -> Any:
        """Every policy of the grid in flat order."""
        for values in itertools.product(*self.axes.values()):
            for fact_rule in self.fact_rules:
                yield replace(base, **dict(zip(self.axes, values, strict=True)), **fact_rule)

    def along(self, name: str, values: Sequence[Any] | np.ndarray) -> np.ndarray:
        """`values` (one per point of axis `name`) shaped to broadcast over the grid."""
        shape = [1] * len(self.shape)
        shape[self.names.index(name)] = len(values)
        return np.asarray(values).reshape(shape)

    def value(self, name: str, base: Policy) -> np.ndarray:
        """The policy field `name` over the grid: along its axis, else the base policy's value."""
        if name in self.axes:
            return self.along(name, self.axes[name])
        fact_fields = ("fact_about_cosine", "fact_about_gap", "fact_located_enough")
        if name in fact_fields and self.fact_rules:
            return self.along(FACT_RULE, [rule.get(name, getattr(base, name)) for rule in self.fact_rules])
        return np.asarray(getattr(base, name))


def answered_everywhere(signals: Signals, finish_reason: str, grid: Grid, base: Policy) -> np.ndarray:
    """Whether judge.decide says "answered" for the answer under each policy of the grid (a boolean
    array of the grid's shape)."""
    if finish_reason != "stop" or not signals.sentences:
        return np.zeros(grid.shape, dtype=bool)

    def v(name: str) -> np.ndarray:
        return grid.value(name, base)

    stated_count: np.ndarray = np.zeros((), dtype=np.int16)
    answering_count: np.ndarray = np.zeros((), dtype=np.int16)
    figures: np.ndarray = np.zeros((), dtype=bool)
    for s in signals.sentences:
        restated = (s.question_cosine >= v("restate_cosine")) & (s.novelty <= v("restate_novelty"))
        restated = restated & (not s.new_facts)
        meaning_counts = v("meaning_cjk") | (not s.cjk)
        by_meaning = (
            meaning_counts
            & (s.best >= 0)
            & (s.meaning >= v("support_cosine"))
            & (s.gain >= v("support_gain"))
            & (s.missing == 0)
        )
        words_ok = s.across or s.best < 0 or (s.gain >= v("words_gain"))
        fact_ok = (
            (s.fact_about >= v("fact_about_cosine"))
            | (s.fact_gap >= v("fact_about_gap"))
            | (v("fact_located_enough") & s.fact_located)
        )
        former = v("former_is_unsupported") & s.former
        rival_ok = s.fact_rival < v("fact_rival_margin")
        supported = (not s.problem) & ~former & rival_ok & (s.lexical | by_meaning) & words_ok & fact_ok
        about_by = (s.lexical_about is True) | s.located | (s.about_cosine >= v("about_cosine"))
        about = (
            supported
            & ~(v("figure_kind_must_match") & s.kind_clash)
            & ~(v("name_must_match") & s.other_name)
            & about_by
        )
        stated = ~restated
        answering = stated & supported & about
        stated_count = stated_count + stated
        answering_count = answering_count + answering
        if s.new_figures:
            figures = figures | answering
    held_back_for_figure = v("quantity_needs_figure") & signals.asks_quantity & ~figures
    answered = (
        (answering_count > 0)
        & (answering_count >= v("answered_share") * stated_count)
        & ~held_back_for_figure
    )
    return np.broadcast_to(answered, grid.shape)
