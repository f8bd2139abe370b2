"""The judge's policy fitted on the calibration half: its grid of candidate policies, the policy with
the most right answers called answered at a given precision, and that precision chosen by
cross-validation within the half."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from app.core.answering.judge.policy import Policy
from benchmarks.evaluation.judge_cases import Case, by_row, cell, figures, verdict
from benchmarks.evaluation.judge_grid import Grid, answered_everywhere

AXES = {
    "support_cosine": (0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 2.0),  # 2.0: words only
    "support_gain": (-1.0, -0.1, -0.05, 0.0, 0.05, 0.1),
    "about_cosine": (0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 2.0),  # 2.0: words or located only
    "restate_cosine": (0.7, 0.8, 0.85, 0.9, 2.0),
    "restate_novelty": (0.2, 0.34, 0.5),
    "answered_share": (0.5, 0.67, 1.0),
    "quantity_needs_figure": (False, True),
    "figure_kind_must_match": (False, True),
    "name_must_match": (False, True),
    "former_is_unsupported": (False, True),
    "words_gain": (-2.0, -0.2, 0.0),  # -2.0: not asked
}
# how the sentence stating a figure must be about the question: by its cosine with it, by how far it
# is from the sentence most about it, or by being a sentence Folio found for it, any being enough
# (cosine -1.0: any passes; gap 1.0: no gap is enough)
FACT_RULES = tuple(
    {"fact_about_cosine": cosine, "fact_about_gap": gap, "fact_located_enough": found}
    for cosine in (-1.0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 2.0)
    for gap in (1.0, -0.05, 0.0)
    for found in (False, True)
    if cosine != -1.0 or (gap == 1.0 and not found)  # any cosine passes already
)
GRID = Grid(AXES, FACT_RULES)


@dataclass(frozen=True)
class GridFigures:
    """The calibration figures of every policy of the grid (arrays of its shape)."""

    precision: np.ndarray  # of "answered" (0 where nothing is answered)
    coverage: np.ndarray  # right answers called answered
    worst: np.ndarray  # the coverage of the worse language, English or Chinese
    held_back: np.ndarray  # unanswerable questions not called answered (or refused)

    @classmethod
    def of(cls, cases: Sequence[Case], base: Policy) -> GridFigures:
        """Every policy of the grid judged at once on `cases` (judge_grid.py)."""
        shape = GRID.shape
        answered = np.zeros(shape, dtype=np.int16)
        right_answered = np.zeros(shape, dtype=np.int16)
        unanswerable_answered = np.zeros(shape, dtype=np.int16)
        right_by_language = {lang: np.zeros(shape, dtype=np.int16) for lang in ("en", "zh")}
        for case in cases:
            if case.gated or case.signals is None:
                said = np.asarray(verdict(case, base) == "answered")
            else:
                said = answered_everywhere(case.signals, case.finish_reason, GRID, base)
            answered += said
            if case.answerable and case.correct:
                right_answered += said
                if case.row in right_by_language:
                    right_by_language[case.row] += said
            if not case.answerable and not case.refusal:
                unanswerable_answered += said
        right = sum(1 for c in cases if c.answerable and c.correct)
        unanswerable = sum(1 for c in cases if not c.answerable)
        worst: np.ndarray = np.ones(shape)
        for lang, called in right_by_language.items():
            count = sum(1 for c in cases if c.row == lang and c.answerable and c.correct)
            if any(c.row == lang for c in cases):
                worst = np.minimum(worst, called / count if count else np.zeros(shape))
        return cls(
            precision=np.where(answered > 0, right_answered / np.maximum(answered, 1), 0.0),
            coverage=right_answered / right if right else np.zeros(shape),
            worst=worst,
            held_back=1.0 - unanswerable_answered / unanswerable if unanswerable else np.ones(shape),
        )

    def best(self, precision: float, held_back: float) -> int | None:
        """The flat index of the policy whose worse language has the most right answers called
        answered, while "answered" is right at least `precision` of the time and unanswerable
        questions are held back at least `held_back`; ties go to more right answers called answered
        overall, then to the higher precision, then to the earlier (stricter) grid point."""
        feasible = (self.precision >= precision) & (self.held_back >= held_back)
        if not feasible.any():
            return None
        for key in (self.worst, self.coverage, self.precision):
            feasible &= key == key[feasible].max()
        return int(np.flatnonzero(feasible)[0])


# the precisions the fit may ask of the calibration half; which one is chosen by cross-validation
ASKED = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.92, 0.95)


def fit(
    cases: Sequence[Case], base: Policy, precision: float, held_back: float, grid: GridFigures | None = None
) -> tuple[Policy, dict[str, Any]]:
    """The grid policy GridFigures.best chooses on `cases` (`grid`: their figures, when already
    worked out), and its figures there."""
    flat = (grid or GridFigures.of(cases, base)).best(precision, held_back)
    if flat is None:
        raise SystemExit(f"no policy of the grid reaches precision {precision} on the calibration half")
    chosen = GRID.policy(base, flat)
    return chosen, figures(cases, [verdict(c, chosen) for c in cases])


def folds(cases: Sequence[Case]) -> tuple[list[Case], list[Case]]:
    """The calibration half in two folds, fixed by question id (the second byte of sha256(id); the
    first decides the halves), for fitting on one and judging the other."""
    second = [hashlib.sha256(c.id.encode()).digest()[1] % 2 for c in cases]
    return [c for c, k in zip(cases, second, strict=True) if k == 0], [
        c for c, k in zip(cases, second, strict=True) if k == 1
    ]


def cross_validated(cases: Sequence[Case], base: Policy, held_back: float) -> dict[float, dict[str, Any]]:
    """For each precision the fit may ask, the figures of "answered" on `cases` when each answer is
    judged by the policy fitted, at that precision, on the other fold: how far the precision asked
    holds on answers the fit did not see, from the calibration half alone. A precision that either
    fold cannot reach is left out: half the answers judged by no policy is no cross-validation."""
    parts = folds(cases)
    grids = [GridFigures.of(part, base) for part in parts]
    found = {}
    for asked in ASKED:
        flats = [flat for grid in grids if (flat := grid.best(asked, held_back)) is not None]
        if len(flats) < len(grids):
            continue
        judged: list[tuple[Case, str | None]] = []
        for flat, other in zip(flats, (parts[1], parts[0]), strict=True):
            policy = GRID.policy(base, flat)
            judged += [(c, verdict(c, policy)) for c in other]
        found[asked] = by_row([c for c, _ in judged], [v for _, v in judged])
    return found


def chosen_precision(validated: dict[float, dict[str, Any]], reachable: Collection[float]) -> float:
    """The precision to ask of the calibration half, by the one-standard-error rule: of the precisions
    whose cross-validated "answered" is right within one standard error of the most often right one,
    the one with the most right answers called answered in the worse language (then the higher
    precision asked). Cross-validated precisions a few hundredths apart are noise on a few dozen
    answers; choosing between them by precision alone would pick the noise. Only precisions some
    policy reaches on the whole half (`reachable`) are candidates: a fold can reach what it cannot."""
    validated = {asked: rows for asked, rows in validated.items() if asked in reachable}
    if not validated:
        raise SystemExit("no precision asked is reached on both folds and the whole calibration half")

    def precision(asked: float) -> float:
        return float(validated[asked]["all"]["precision"] or 0.0)

    def worst(asked: float) -> float:
        rows = validated[asked]
        return min(float(rows[lang]["coverage"] or 0.0) for lang in ("en", "zh") if lang in rows)

    best = max(validated, key=lambda asked: (precision(asked), asked))
    said = max(int(validated[best]["all"]["answered"]), 1)
    error = (precision(best) * (1.0 - precision(best)) / said) ** 0.5
    near = [asked for asked in validated if precision(asked) >= precision(best) - error]
    return max(near, key=lambda asked: (worst(asked), asked))


def frontier(
    calibration: Sequence[Case],
    held_out: Sequence[Case],
    base: Policy,
    held_back: float,
    validated: dict[float, dict[str, Any]],
    grid: GridFigures,
) -> str:
    """For each precision asked of the calibration half, the figures of the policy the fit chooses
    (`grid`: the calibration half's figures): on the calibration half itself, cross-validated within
    it (`validated`; n/a where a fold reaches no policy), and on the held-out half."""
    lines = [
        "\n## The fit at each precision asked of the calibration half: precision / coverage (en, zh) "
        "/ held back\n",
        "| precision asked | calibration | calibration, cross-validated | held-out |",
        "|---|---|---|---|",
    ]
    for asked in ASKED:
        flat = grid.best(asked, held_back)
        if flat is None:
            lines.append(f"| {asked} | none reaches it | | |")
            continue
        policy = GRID.policy(base, flat)
        cells = [
            _summary(by_row(calibration, [verdict(c, policy) for c in calibration])),
            _summary(validated[asked]) if asked in validated else "n/a",
            _summary(by_row(held_out, [verdict(c, policy) for c in held_out])) if held_out else "n/a",
        ]
        lines.append(f"| {asked} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _summary(rows: dict[str, dict[str, Any]]) -> str:
    langs = ", ".join(cell(rows.get(lang, {}).get("coverage")) for lang in ("en", "zh"))
    every = rows["all"]
    return f"{cell(every['precision'])} / {cell(every['coverage'])} ({langs}) / {cell(every['held_back'])}"


def scan(cases: Sequence[Case], base: Policy, field: str, values: Sequence[Any]) -> tuple[Policy, str]:
    """One field of the written policy tried at each of `values` on the calibration `cases`, every
    other field kept: the value with the most precise "answered" among those that call as many right
    answers answered and hold back as many unanswerable questions as `base` does (ties to the
    earlier value: list the stricter first); `base` itself when none does. Returns the policy and
    the table of the values' figures."""
    kept = figures(cases, [verdict(c, base) for c in cases])
    lines = [f"| {field} | answered | precision | coverage | held_back |", "|---|---|---|---|---|"]
    chosen, best = base, kept["precision"] or 0.0
    for value in values:
        policy = replace(base, **{field: value})
        got = figures(cases, [verdict(c, policy) for c in cases])
        lines.append(
            f"| {value} | {got['answered']} | {cell(got['precision'])} | {cell(got['coverage'])} | "
            f"{cell(got['held_back'])} |"
        )
        keeps = (got["coverage"] or 0.0) >= (kept["coverage"] or 0.0) and (got["held_back"] or 0.0) >= (
            kept["held_back"] or 0.0
        )
        if keeps and (got["precision"] or 0.0) > best:
            chosen, best = policy, got["precision"] or 0.0
    lines.append(f"\nchosen: {field} = {getattr(chosen, field)}")
    return chosen, "\n".join(lines)
