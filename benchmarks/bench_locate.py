"""How often Folio's "Found on …" sentences hold the answer, on the passages an eval run recorded.

The model is not called: for each answerable question of `make eval` runs, the passages the run put
in the prompt (in their order) are located again with this checkout's code and the default
embedder, as the pipeline does before the model runs. A found line "holds the answer" when it
matches every pattern group of the question's answer (benchmarks/eval/questions.json; most patterns
are written in both languages); "the three" are the found lines read together. Reported per half of
the split and per language and cross-language direction; --before compares with an earlier result of
this script, question by question; --across-weights tries values of the cosine weight of a sentence
in the other script than the question (excerpts.ACROSS_COSINE_WEIGHT) on the calibration half.
Writes benchmarks/results/NAME.json (default "locate") with record_env.

    .venv/bin/python benchmarks/bench_locate.py benchmarks/results/eval-calibration-*.json \\
        benchmarks/results/eval-held-out-names.json [--before benchmarks/results/locate.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core import paths  # noqa: E402
from app.core.answering.evidence import excerpts  # noqa: E402
from app.core.answering.evidence.evidence import Evidence  # noqa: E402
from app.core.answering.evidence.locate import locate  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402
from app.core.embed.recent import RecentVectors  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from benchmarks.evaluation.dataset import Question, answer_matches, load_questions  # noqa: E402
from benchmarks.evaluation.judge_cases import ROWS  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

MEASURES = ("first holds", "three hold", "first on a right page", "nothing found")


def located_lines(question: Question, saved: dict[str, Any], embedder: Embedder) -> dict[str, Any] | None:
    """The question's found lines on the run's recorded passages, and what they hold; None when the
    run recorded no passages for it."""
    recorded = (saved.get("extra") or {}).get("judged", {}).get("passages") or []
    if not recorded:
        return None
    hits = [Hit(**p) for p in recorded]  # as judge_cases reads them
    embed = RecentVectors(embedder.embed)
    found = locate(question.question, hits, embed, embedder.scales, Evidence(question.question, hits, embed))
    lines = [f.sentence for f in found]
    first = found[0].citation if found else None
    right_page = (
        first is not None
        and first.document == question.document
        and any(first.page <= page <= first.page_end for page in question.pages)
    )
    return {
        "lines": lines,
        "first holds": bool(lines) and answer_matches(question.answers, lines[0]),
        "three hold": bool(lines) and answer_matches(question.answers, " ".join(lines)),
        "first on a right page": right_page,
        "nothing found": not lines,
    }


def table(rows: dict[str, dict[str, list[bool]]], before: dict[str, dict[str, list[bool]]] | None) -> str:
    lines = ["| | n | " + " | ".join(MEASURES) + " |", "|---|---|" + "---|" * len(MEASURES)]
    for row, measured in rows.items():
        cells = []
        for measure in MEASURES:
            now = measured[measure]
            share = f"{sum(now) / len(now):.2f}" if now else "n/a"
            earlier = (before or {}).get(row, {}).get(measure)
            if earlier:
                share = f"{sum(earlier) / len(earlier):.2f} → {share}"
            cells.append(share)
        lines.append(f"| {row} | {len(measured[MEASURES[0]])} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def by_row(
    per_question: dict[str, dict[str, Any]], questions: dict[str, Question], half: str
) -> dict[str, Any]:
    rows: dict[str, dict[str, list[bool]]] = {}
    for row in ROWS:
        chosen = [
            measured
            for qid, measured in per_question.items()
            if questions[qid].half == half and row in ("all", questions[qid].direction)
        ]
        if chosen:
            rows[row] = {measure: [bool(m[measure]) for m in chosen] for measure in MEASURES}
    return rows


def measure(
    runs: Sequence[Path], questions: dict[str, Question], embedder: Embedder, half: str | None = None
) -> dict[str, dict[str, Any]]:
    """Every answerable question's found lines (of `half`, or both), from the first run that has it."""
    per_question: dict[str, dict[str, Any]] = {}
    for run in runs:
        for saved in json.loads(run.read_text(encoding="utf-8"))["answers"]:
            question = questions.get(saved["id"])
            if question is None or not question.answerable or question.id in per_question:
                continue
            if half is not None and question.half != half:
                continue
            measured = located_lines(question, saved, embedder)
            if measured is not None:
                per_question[question.id] = measured
    return per_question


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", type=Path, nargs="+", help="results files of benchmarks/eval_answers.py")
    parser.add_argument("--before", type=Path, help="an earlier result of this script to compare with")
    parser.add_argument("--name", default="locate", help="results/NAME.json")
    parser.add_argument(
        "--across-weights",
        help="comma-separated values of excerpts.ACROSS_COSINE_WEIGHT to try on the calibration half",
    )
    args = parser.parse_args(argv)
    questions = {q.id: q for q in load_questions().questions}
    embedder = Embedder(paths.models_dir() / paths.DEFAULT_EMBED_MODEL_DIR)
    if args.across_weights:
        tried: dict[str, Any] = {}
        for weight in (float(w) for w in args.across_weights.split(",")):
            excerpts.ACROSS_COSINE_WEIGHT = weight
            rows = by_row(measure(args.runs, questions, embedder, "calibration"), questions, "calibration")
            tried[str(weight)] = rows
            print(f"\n## calibration half, a sentence in the other script weighs its cosine {weight}\n")
            print(table(rows, None))
        write_result(args.name, {"runs": [p.name for p in args.runs], "across_weights": tried})
        return 0
    per_question = measure(args.runs, questions, embedder)
    earlier = json.loads(args.before.read_text(encoding="utf-8")) if args.before else None
    report: dict[str, Any] = {"runs": [p.name for p in args.runs], "questions": per_question, "halves": {}}
    for half in ("calibration", "held_out"):
        rows = by_row(per_question, questions, half)
        if not rows:
            continue
        report["halves"][half] = rows
        before = None
        if earlier is not None:
            kept = {q: m for q, m in earlier["questions"].items() if q in per_question}
            before = by_row(kept, questions, half)
        print(f"\n## {half.replace('_', '-')} half: found lines that hold the answer\n")
        print(table(rows, before))
    if earlier is not None:
        print("\n## Questions whose found lines changed\n")
        for qid, measured in per_question.items():
            old = earlier["questions"].get(qid)
            if old is None or old["lines"] == measured["lines"]:
                continue
            marks = " ".join(
                f"{m.split()[0]}:{int(bool(old[m]))}→{int(bool(measured[m]))}" for m in MEASURES[:3]
            )
            print(f"{qid:9} {questions[qid].half:11} {marks} | {(measured['lines'] or [''])[0][:90]}")
    write_result(args.name, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
