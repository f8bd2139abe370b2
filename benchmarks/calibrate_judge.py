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
import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
TRANSLATIONS = REPO / "resources" / "i18n" / "folio_zh_CN.ts"  # the interface's, not eval data

from app.core.answering.judge.policy import POLICY_NAME, policy_for  # noqa: E402
from app.core.answering.judge.signals import CrossLanguage  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402
from benchmarks.evaluation.dataset import load_questions  # noqa: E402
from benchmarks.evaluation.failures import CLASSES  # noqa: E402
from benchmarks.evaluation.judge_cases import (  # noqa: E402
    ROWS,
    Case,
    by_row,
    cases_of,
    figures,
    run_embedder,
    table,
    verdict,
)
from benchmarks.evaluation.judge_fit import (  # noqa: E402
    ASKED,
    GridFigures,
    chosen_precision,
    cross_validated,
    fit,
    frontier,
    scan,
)
from benchmarks.record_env import write_result  # noqa: E402


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
        help="on: put cosines across Chinese and English on the within-script scale, measured on the "
        "interface's translations; off: leave them as they are; default: as the written policy does "
        "(on since 2026-12-07: with the kept policy the calibration half called more right "
        "cross-language answers answered at the same precision, benchmarks/README.md)",
    )
    parser.add_argument(
        "--relocate",
        action="store_true",
        help="find the sentences Folio shows before the model again, on each answer's recorded passages, "
        "with this checkout's locate (for runs made before a change to it) instead of the runs' own",
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
        "--scan",
        metavar="FIELD=JSON_LIST",
        help="with --keep: try the written policy with this field at each value of the list on the "
        "calibration half (e.g. 'fact_rival_margin=[0.05, 0.1, 0.15, 2.0]', the stricter first) and "
        "keep the most precise value that loses no right answer called answered and no unanswerable "
        "question held back (judge_fit.scan); with --write, the policy with that value is written",
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
    args = parser.parse_args(argv)
    if args.scan and not args.keep:
        parser.error("--scan tries one field of the written policy: give --keep too")
    return args


def asked_by(args: argparse.Namespace) -> str:
    """How the written policy was chosen, in words, for resources/judge_policy.json."""
    if not args.keep:
        return "given (--precision)" if args.precision is not None else "cross-validation"
    changes = [f"{c} (--change)" for c in args.change]
    if args.cross:
        changes.append(f"cross-language cosines aligned {args.cross} (--cross)")
    if args.scan:
        changes.append(f"{args.scan.split('=', 1)[0]} scanned (--scan)")
    return "the written policy" + (", " + ", ".join(changes) if changes else ", kept")


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
    written = policy_for(embedder)
    if args.cross == "on":
        cross = cross_language(run_embedder(runs[0]))
    else:
        cross = (
            CrossLanguage()
            if args.cross == "off"
            else CrossLanguage(written.cross_unrelated, written.cross_translation)
        )
    for run in runs:
        cases.extend(cases_of(run, by_id, cross, args.relocate))
    calibration = [c for c in cases if c.half == "calibration"]
    held_out = [c for c in cases if c.half == "held_out"]
    if reported:
        held_out = [
            c for run in reported for c in cases_of(run, by_id, cross, args.relocate) if c.half == "held_out"
        ]
    current = replace(written, cross_unrelated=cross.unrelated, cross_translation=cross.translation)
    if args.change:
        current = replace(current, **{k: json.loads(v) for k, v in (c.split("=", 1) for c in args.change)})
    if args.only_calibration:
        held_out = []
    needed = args.frontier or (args.precision is None and not args.keep)
    validated = cross_validated(calibration, current, args.held_back) if needed else {}
    grid = GridFigures.of(calibration, current) if needed or not args.keep else None
    asked = args.precision
    if args.scan:
        field, values = args.scan.split("=", 1)
        current, scanned = scan(calibration, current, field, json.loads(values))
        print(f"\n## {field} scanned on the calibration half\n\n{scanned}")
    if args.keep or grid is None:
        policy, fitted = current, figures(calibration, [verdict(c, current) for c in calibration])
    else:
        if asked is None:
            reachable = [a for a in ASKED if grid.best(a, args.held_back) is not None]
            asked = chosen_precision(validated, reachable)
        print(f"precision asked of the calibration half: {asked}")
        policy, fitted = fit(calibration, current, asked, args.held_back, grid)
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
    if args.frontier and grid is not None:  # --frontier always works the grid out
        print(frontier(calibration, held_out, current, args.held_back, validated, grid))
    if args.verdicts:
        args.verdicts.write_text(json.dumps({c.id: verdict(c, policy) for c in cases}, indent=0) + "\n")
    if args.write:
        target = REPO / "resources" / POLICY_NAME
        data = json.loads(target.read_text(encoding="utf-8")) if target.is_file() else {"embedders": {}}
        data["embedders"][embedder] = {
            "policy": policy.to_json(),
            "fitted_on": "calibration half of benchmarks/eval/split.json",
            "runs": [p.name for p in args.results],
            "precision_asked": asked,
            "asked_by": asked_by(args),
            "calibration": fitted,
        }
        target.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        write_result("judge_calibration", report)
        print(f"wrote {target.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
