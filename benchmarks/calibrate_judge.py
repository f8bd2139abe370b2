"""Fit the one judge's policy on the calibration half of a `make eval` run; report both halves.

The model is not called: each answer of the run is judged again from what the run recorded (its text
without Folio's note, the passages in prompt order, the located sentences). The policy's thresholds
are searched on the calibration half only (benchmarks/eval/split.json): the most right answers called
"answered" while "answered" stays right at least --precision of the time and unanswerable questions
are held back at least --held-back of the time. The held-out half is only reported. With --write the
policy goes to resources/judge_policy.json under the run's embedder (the app reads it there), and the
figures to benchmarks/results/judge_calibration.json with record_env.

    .venv/bin/python benchmarks/calibrate_judge.py benchmarks/results/eval-<model>.json [--write]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
TRANSLATIONS = REPO / "resources" / "i18n" / "folio_zh_CN.ts"  # the interface's, not eval data

from app.core import paths  # noqa: E402
from app.core.answering.evidence.evidence import Evidence  # noqa: E402
from app.core.answering.judge.checking import embedding_verifier  # noqa: E402
from app.core.answering.judge.judge import decide  # noqa: E402
from app.core.answering.judge.policy import POLICY_NAME, Policy, policy_for  # noqa: E402
from app.core.answering.judge.signals import CrossLanguage, Signals, measure  # noqa: E402
from app.core.answering.presentation.verdict_text import strip_note  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402
from app.core.embed.engine import CosineScales  # noqa: E402
from app.core.embed.recent import RecentVectors  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from benchmarks.evaluation import scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.failures import CLASSES, classify  # noqa: E402
from benchmarks.judge_grid import Grid, answered_everywhere  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

AXES = {
    "support_cosine": (0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 2.0),  # 2.0: words only
    "support_gain": (-1.0, -0.1, -0.05, 0.0, 0.05, 0.1),
    "about_cosine": (0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 2.0),  # 2.0: words or located only
    "restate_cosine": (0.7, 0.8, 0.85, 0.9, 2.0),
    "restate_novelty": (0.2, 0.34, 0.5),
    "answered_share": (0.5, 0.67, 1.0),
    "quantity_needs_figure": (False, True),
    "figure_kind_must_match": (False, True),
    "words_gain": (-2.0, -0.3, -0.2, -0.15, -0.1, -0.05, 0.0),  # -2.0: not asked
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
ROWS = ("en", "zh", "en→zh", "zh→en", "all")


@dataclass(frozen=True)
class Case:
    """One recorded answer: what the judge measures of it, and whether it is right."""

    id: str
    half: str
    row: str  # its language, or its cross-language direction
    answerable: bool
    correct: bool  # the model's text (without Folio's note) matches the question's patterns
    refusal: bool
    finish_reason: str
    gated: bool  # the gate stopped it: no model text
    before: str | None  # the verdict the run recorded
    signals: Signals | None
    answer: str
    failure: str  # why a wrong answer to an answerable question is wrong (failures.py); "" otherwise


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", type=Path, nargs="+", help="results files of benchmarks/eval_answers.py")
    parser.add_argument(
        "--held-out",
        type=Path,
        nargs="+",
        default=[],
        metavar="RUN",
        help="report the held-out half from these runs' answers instead of the positional runs'",
    )
    parser.add_argument(
        "--precision",
        type=float,
        help="'answered' right at least this often on the calibration half; default: the precision "
        "(of 0.5 to 0.95) whose cross-validated 'answered' is right most often (chosen_precision)",
    )
    parser.add_argument(
        "--held-back", type=float, default=0.9, help="unanswerable held back at least this often"
    )
    parser.add_argument(
        "--cross",
        choices=("on", "off"),
        default="off",
        help="put cosines across Chinese and English on the within-script scale (measured on the "
        "interface's translations) before fitting; off by default: on the calibration half it gave "
        "precision 0.90 at coverage 0.28 (English 0.00) against 0.86 at 0.38 (English 0.08) off, "
        "the half holding no right cross-language answer for it to gain on (benchmarks/README.md)",
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="judge with the policy in resources/judge_policy.json, fitting nothing (e.g. to report a "
        "held-out run)",
    )
    parser.add_argument(
        "--change",
        action="append",
        default=[],
        metavar="FIELD=JSON",
        help="with --keep: the written policy with this field changed (e.g. answered_share=0.5), "
        "to try one candidate on the calibration half",
    )
    parser.add_argument(
        "--only-calibration", action="store_true", help="report the calibration half alone (choosing)"
    )
    parser.add_argument("--write", action="store_true", help="write resources/judge_policy.json")
    parser.add_argument("--lines", action="store_true", help="print every held-out question's line")
    parser.add_argument("--failures", action="store_true", help="classify the held-out half's wrong answers")
    parser.add_argument("--verdicts", type=Path, help="write every verdict, by question id, here")
    parser.add_argument(
        "--frontier",
        action="store_true",
        help="also print the policy the fit chooses at each precision from 0.5 to 0.95, on both halves",
    )
    return parser.parse_args(argv)


def cases_of(run: dict[str, Any], by_id: dict[str, Question], cross: CrossLanguage) -> Iterator[Case]:
    """The run's answers measured again, without the model and without a library: the word check
    takes the passages' vectors from their recorded texts, as the library stored them for the run."""
    embedder = run_embedder(run)
    embed = RecentVectors(embedder.embed)  # as the composition root builds it (app/core/services.py)
    for saved in run["answers"]:
        question = by_id.get(saved["id"])
        if question is None:
            continue
        yield _case(question, saved, embed, embedder.scales, cross)


def run_embedder(run: dict[str, Any]) -> Embedder:
    """The run's embedder, from this checkout's models folder."""
    return Embedder(paths.models_dir() / Path(run["embedder"]).name)


def translation_pairs(ts_file: Path = TRANSLATIONS) -> list[tuple[str, str]]:
    """English sentences of the interface and their Chinese translations (the .ts file): finished
    translations of at least four words, without placeholders or markup."""
    pairs = []
    for message in ET.parse(ts_file).iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
            continue
        if len(source.split()) >= 4 and translation.text and not any(c in source for c in "{%<"):
            pairs.append((source, translation.text))
    return pairs


def cross_language(embedder: Embedder) -> CrossLanguage:
    """Where the embedder's cosines stand across Chinese and English, from the interface's
    translations (not eval data): the median cosine of each sentence with its translation, and of
    each with the translation of another (a fixed shuffle)."""
    pairs = translation_pairs()
    english = embedder.embed([e for e, _ in pairs])
    chinese = embedder.embed([z for _, z in pairs])
    shuffled = np.random.default_rng(0).permutation(len(pairs))
    translation = float(np.median((english * chinese).sum(axis=1)))
    unrelated = float(np.median((english * chinese[shuffled]).sum(axis=1)))
    print(
        f"cross-language cosines ({len(pairs)} interface sentences and their translations): "
        f"translation {translation:.3f}, unrelated {unrelated:.3f}"
    )
    return CrossLanguage(unrelated, translation)


def _case(
    question: Question,
    saved: dict[str, Any],
    embed: RecentVectors,
    scales: CosineScales,
    cross: CrossLanguage,
) -> Case:
    record = scoring.AnswerRecord(**saved)
    judged = record.extra.get("judged") or {}
    passages = [Hit(**p) for p in judged.get("passages") or []]
    texts = {hit.chunk_id: hit.text for hit in passages}
    verifier = embedding_verifier(lambda ids: embed([texts[i] for i in ids]), embed, scales)
    text = strip_note(record.answer)
    fresh = scoring.score_answer(question, {"answer": text, "finish_reason": record.finish_reason})
    gated = not passages or record.finish_reason not in ("stop", "length")
    signals = None
    if not gated and text:
        attribution = verifier(question.question, text, passages)
        evidence = Evidence(question.question, passages, embed)
        located = [(int(f["chunk_id"]), str(f["sentence"])) for f in judged.get("located") or []]
        signals = measure(question.question, attribution, passages, evidence, located, cross)
    return Case(
        id=question.id,
        half=question.half,
        row=question.direction,
        answerable=question.answerable,
        correct=fresh.correct,
        refusal=fresh.refusal,
        finish_reason=record.finish_reason,
        gated=gated,
        before=record.extra.get("verdict"),
        signals=signals,
        answer=text,
        failure=(
            classify(question, text, judged.get("passages") or [])
            if question.answerable and not fresh.correct
            else ""
        ),
    )


def verdict(case: Case, policy: Policy) -> str | None:
    if case.gated:
        return case.before if case.finish_reason in ("stop", "length") else None
    if case.signals is None:
        return None
    return decide(case.signals, policy, False, case.finish_reason)[1]


def figures(cases: Sequence[Case], verdicts: Sequence[str | None]) -> dict[str, Any]:
    """Precision and coverage of "answered", unanswerable held back, counts."""
    said = [c for c, v in zip(cases, verdicts, strict=True) if v == "answered"]
    right = [(c, v) for c, v in zip(cases, verdicts, strict=True) if c.answerable and c.correct]
    unanswerable = [(c, v) for c, v in zip(cases, verdicts, strict=True) if not c.answerable]
    return {
        "n": len(cases),
        "answered": len(said),
        "precision": sum(1 for c in said if c.answerable and c.correct) / len(said) if said else None,
        "right_answers": len(right),
        "coverage": sum(1 for _, v in right if v == "answered") / len(right) if right else None,
        "unanswerable": len(unanswerable),
        "held_back": (
            sum(1 for c, v in unanswerable if v != "answered" or c.refusal) / len(unanswerable)
            if unanswerable
            else None
        ),
    }


def by_row(cases: Sequence[Case], verdicts: Sequence[str | None]) -> dict[str, dict[str, Any]]:
    out = {}
    for row in ROWS:
        pairs = [(c, v) for c, v in zip(cases, verdicts, strict=True) if row == "all" or c.row == row]
        if pairs:
            out[row] = figures([c for c, _ in pairs], [v for _, v in pairs])
    return out


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
    cases: Sequence[Case], base: Policy, precision: float, held_back: float
) -> tuple[Policy, dict[str, Any]]:
    """The grid policy GridFigures.best chooses on `cases`, and its figures there."""
    flat = GridFigures.of(cases, base).best(precision, held_back)
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
    holds on answers the fit did not see, from the calibration half alone."""
    parts = folds(cases)
    grids = [GridFigures.of(part, base) for part in parts]
    found = {}
    for asked in ASKED:
        judged: list[tuple[Case, str | None]] = []
        for grid, other in ((grids[0], parts[1]), (grids[1], parts[0])):
            flat = grid.best(asked, held_back)
            policy = GRID.policy(base, flat) if flat is not None else None
            judged += [(c, verdict(c, policy) if policy else None) for c in other]
        found[asked] = by_row([c for c, _ in judged], [v for _, v in judged])
    return found


def chosen_precision(validated: dict[float, dict[str, Any]]) -> float:
    """The precision to ask of the calibration half: the one whose cross-validated "answered" is
    right most often; ties go to more right answers called answered in the worse language, then to
    the higher precision asked."""

    def key(asked: float) -> tuple[float, float, float]:
        rows = validated[asked]
        worst = min((rows[lang]["coverage"] or 0.0) for lang in ("en", "zh") if lang in rows)
        return (rows["all"]["precision"] or 0.0, worst, asked)

    return max(validated, key=key)


def frontier(
    calibration: Sequence[Case],
    held_out: Sequence[Case],
    base: Policy,
    held_back: float,
    validated: dict[float, dict[str, Any]],
) -> str:
    """For each precision asked of the calibration half, the figures of the policy the fit chooses:
    on the calibration half itself, cross-validated within it (`validated`), and on the held-out half."""
    grid = GridFigures.of(calibration, base)
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
            _summary(validated[asked]),
            _summary(by_row(held_out, [verdict(c, policy) for c in held_out])) if held_out else "n/a",
        ]
        lines.append(f"| {asked} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _summary(rows: dict[str, dict[str, Any]]) -> str:
    langs = ", ".join(_cell(rows.get(lang, {}).get("coverage")) for lang in ("en", "zh"))
    every = rows["all"]
    return f"{_cell(every['precision'])} / {_cell(every['coverage'])} ({langs}) / {_cell(every['held_back'])}"


def _cell(value: Any) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def table(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> str:
    columns = ("precision", "coverage", "held_back", "answered", "right_answers", "unanswerable")
    lines = ["| | n | " + " | ".join(columns) + " |", "|---|---|" + "---|" * len(columns)]
    for row, figs in after.items():
        old = before.get(row, {})
        cells = [
            f"{_cell(old.get(k))} → {_cell(figs.get(k))}"
            if k in ("precision", "coverage", "held_back", "answered")
            else _cell(figs.get(k))
            for k in columns
        ]
        lines.append(f"| {row} | {figs['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def failure_table(cases: Sequence[Case]) -> str:
    """Wrong answers to answerable questions by class, per language and cross-language direction."""
    rows = [r for r in ROWS if r != "all"]
    lines = [
        "\n## Why the held-out half's wrong answers are wrong (answerable questions)\n",
        "| class | " + " | ".join(rows) + " | all |",
        "|---|" + "---|" * (len(rows) + 1),
    ]
    answerable = [c for c in cases if c.answerable]
    for name in (*CLASSES, "right"):
        counts = [
            sum(
                1
                for c in answerable
                if c.row == row and (c.failure == name or (name == "right" and c.correct))
            )
            for row in rows
        ]
        lines.append(f"| {name} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
    lines.append(
        "| questions | "
        + " | ".join(str(sum(1 for c in answerable if c.row == r)) for r in rows)
        + f" | {len(answerable)} |"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    questions = load_questions()
    by_id = {q.id: q for q in questions.questions}
    cases: list[Case] = []
    runs = [json.loads(path.read_text(encoding="utf-8")) for path in args.results]
    reported = [json.loads(path.read_text(encoding="utf-8")) for path in args.held_out]
    embedders = {Path(run["embedder"]).name for run in (*runs, *reported)}
    if len(embedders) != 1:
        raise SystemExit(f"the runs must share one embedder, not {sorted(embedders)}")
    embedder = embedders.pop()
    cross = cross_language(run_embedder(runs[0])) if args.cross == "on" else CrossLanguage()
    for run in runs:
        cases.extend(cases_of(run, by_id, cross))
    calibration = [c for c in cases if c.half == "calibration"]
    held_out = [c for c in cases if c.half == "held_out"]
    if reported:
        held_out = [c for run in reported for c in cases_of(run, by_id, cross) if c.half == "held_out"]
    current = replace(
        policy_for(embedder), cross_unrelated=cross.unrelated, cross_translation=cross.translation
    )
    if args.change:
        current = replace(current, **{k: json.loads(v) for k, v in (c.split("=", 1) for c in args.change)})
    if args.only_calibration:
        held_out = []
    needed = args.frontier or (args.precision is None and not args.keep)
    validated = cross_validated(calibration, current, args.held_back) if needed else {}
    asked = args.precision
    if args.keep:
        policy, fitted = current, figures(calibration, [verdict(c, current) for c in calibration])
    else:
        asked = args.precision if args.precision is not None else chosen_precision(validated)
        print(f"precision asked of the calibration half: {asked}")
        policy, fitted = fit(calibration, current, asked, args.held_back)
    report: dict[str, Any] = {
        "embedder": embedder,
        "policy": policy.to_json(),
        "precision_asked": asked,
        "cross_validated": {str(k): rows for k, rows in validated.items()},
        "halves": {},
    }
    for name, group in (("calibration", calibration), ("held_out", held_out)):
        if not group:
            continue
        before = by_row(group, [c.before for c in group])
        after = by_row(group, [verdict(c, policy) for c in group])
        report["halves"][name] = {"before": before, "after": after}
        print(f"\n## The {name.replace('_', '-')} half ({len(group)} answers): verdict before → after\n")
        print(table(before, after))
    print(f"\npolicy ({embedder}): {json.dumps(policy.to_json())}")
    if args.lines:
        print("\n## Held-out answers: right? verdict before → after\n")
        for case in held_out:
            mark = "ok" if case.correct and case.answerable else ("--" if not case.answerable else "✗")
            text = " ".join(case.answer.split())[:100]
            print(f"{case.id:9} {case.row:6} {mark:2} {case.before} → {verdict(case, policy)} | {text}")
    if args.failures:
        print(failure_table(held_out))
    if args.frontier:
        print(frontier(calibration, held_out, current, args.held_back, validated))
    if args.verdicts:
        args.verdicts.write_text(json.dumps({c.id: verdict(c, policy) for c in cases}, indent=0) + "\n")
    if args.write and not args.keep:
        target = REPO / "resources" / POLICY_NAME
        data = json.loads(target.read_text(encoding="utf-8")) if target.is_file() else {"embedders": {}}
        data["embedders"][embedder] = {
            "policy": policy.to_json(),
            "fitted_on": "calibration half of benchmarks/eval/split.json",
            "runs": [p.name for p in args.results],
            "precision_asked": asked,
            "asked_by": "given (--precision)" if args.precision is not None else "cross-validation",
            "calibration": fitted,
        }
        target.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        write_result("judge_calibration", report)
        print(f"wrote {target.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
