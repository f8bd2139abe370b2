"""The calibration grid judges every policy at once exactly as judge.decide judges each one."""

from __future__ import annotations

import random

import numpy as np

from app.core.answering.judge.judge import decide
from app.core.answering.judge.policy import Policy
from app.core.answering.judge.signals import SentenceSignals, Signals
from benchmarks.evaluation.judge_fit import GRID, chosen_precision
from benchmarks.evaluation.judge_grid import answered_everywhere


def _sentence(rng: random.Random, index: int) -> SentenceSignals:
    """A sentence with signals drawn around the grid's thresholds."""
    fact_about = rng.choice([2.0, rng.uniform(-0.2, 0.8)])
    new_figures = rng.random() < 0.4
    return SentenceSignals(
        index=index,
        lexical=rng.random() < 0.6,
        lexical_about=rng.choice([True, False, None]),
        problem=rng.choice(["", "", "", "wrong_binding"]),
        meaning=rng.uniform(0.2, 1.0),
        best=rng.choice([-1, 0, 3]),
        best_n=1,
        question_cosine=rng.uniform(0.0, 1.0),
        about_cosine=rng.uniform(0.0, 0.8),
        located=rng.random() < 0.4,
        missing=rng.choice([0, 0, 1]),
        novelty=rng.uniform(0.0, 1.0),
        new_facts=new_figures or rng.random() < 0.3,
        new_figures=new_figures,
        cjk=rng.random() < 0.5,
        fact_about=fact_about,
        fact_gap=rng.uniform(-0.3, 0.1) if fact_about <= 1.0 else 0.0,
        fact_located=rng.random() < 0.5,
        fact_rival=rng.choice([-2.0, rng.uniform(-0.1, 0.3)]),
        kind_clash=rng.random() < 0.2,
        other_name=rng.random() < 0.2,
        across=rng.random() < 0.2,
        former=rng.random() < 0.2,
    )


def test_every_grid_policy_gets_the_verdict_decide_gives() -> None:
    rng = random.Random(7)
    base = Policy(fact_rival_margin=0.1)  # off the grid's axes: the base's value is judged everywhere
    checked = answered = 0
    for _ in range(60):
        signals = Signals(
            tuple(_sentence(rng, i) for i in range(rng.randint(1, 4))),
            refused=rng.random() < 0.1,
            asks_quantity=rng.random() < 0.5,
        )
        finish = rng.choice(["stop", "stop", "stop", "length"])
        grid = answered_everywhere(signals, finish, GRID, base)
        assert grid.shape == GRID.shape
        picks = rng.sample(range(GRID.size), 40)
        said = np.flatnonzero(grid.ravel())
        picks += [int(i) for i in said[:: max(1, len(said) // 20)][:20]]  # some of each verdict
        for flat in picks:
            policy = GRID.policy(base, flat)
            expected = decide(signals, policy, False, finish)[1] == "answered"
            assert bool(grid.flat[flat]) == expected, policy
            checked += 1
            answered += expected
    assert checked > 2000 and 100 < answered < checked  # both verdicts were compared


def test_the_grid_enumerates_its_policies_in_flat_order() -> None:
    base = Policy()
    for flat, policy in zip(range(50), GRID.policies(base), strict=False):
        assert GRID.policy(base, flat) == policy


def _rows(precision: float, answered: int, en: float, zh: float) -> dict[str, dict[str, float | int]]:
    return {
        "all": {"precision": precision, "answered": answered},
        "en": {"coverage": en},
        "zh": {"coverage": zh},
    }


def test_the_precision_asked_is_chosen_by_the_one_standard_error_rule() -> None:
    noisy = {
        0.6: _rows(0.53, 70, 0.70, 0.68),  # within one standard error (0.06) of the best, covers most
        0.75: _rows(0.54, 60, 0.65, 0.50),  # the most often right, by a hundredth
        0.9: _rows(0.45, 30, 0.13, 0.29),
    }
    assert chosen_precision(noisy, noisy) == 0.6
    clear = {0.6: _rows(0.50, 400, 0.70, 0.68), 0.8: _rows(0.80, 400, 0.30, 0.30)}
    assert chosen_precision(clear, clear) == 0.8  # a real difference in precision wins over coverage


def test_a_precision_the_whole_calibration_half_cannot_reach_is_never_chosen() -> None:
    # the folds reached 0.95 and judged each other well; the whole half reaches no policy at 0.95
    validated = {0.6: _rows(0.52, 90, 0.70, 0.68), 0.95: _rows(0.70, 10, 0.80, 0.80)}
    assert chosen_precision(validated, validated) == 0.95
    assert chosen_precision(validated, (0.6, 0.7)) == 0.6
