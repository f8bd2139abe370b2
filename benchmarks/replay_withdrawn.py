"""Which recorded answers Folio would withdraw for a made-up figure (judge/invented.py), with no model.

Each answer of saved `eval_answers.py` runs is checked against the passages its prompt had (kept with
the answer); prints, per half of the eval and per row (en, zh, en→zh, zh→en), how many answers it
withdraws to unanswerable questions, to answerable ones answered wrong, and to ones answered right
(the cost), then one line per withdrawn answer. An answer the run already withdrew is read as the
model wrote it (its first text).

Usage: python benchmarks/replay_withdrawn.py benchmarks/results/eval-calibration-main.json [...]
       [--half calibration|held_out]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.answering.judge.invented import invented_figures  # noqa: E402
from app.core.answering.presentation.verdict_text import strip_note  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from benchmarks.evaluation.dataset import half_of, load_questions, question_halves  # noqa: E402


def passage(data: dict[str, object]) -> Hit:
    """A recorded prompt passage as the check reads it (only its text matters)."""
    text = str(data["text"])
    return Hit(0, 0, str(data.get("document", "")), "", 1, 1, 0, len(text), text, 0.0, 0.0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="saved eval_answers.py runs")
    parser.add_argument("--half", choices=("calibration", "held_out"), help="only this half")
    args = parser.parse_args(argv)
    questions = {q.id: q for q in load_questions().questions}
    calibration, held_out_prefixes = question_halves()
    for path in args.results:
        counts: Counter[tuple[str, str, str]] = Counter()
        lines = []
        for record in json.loads(path.read_text(encoding="utf-8"))["answers"]:
            question = questions.get(record["id"])
            half = half_of(record["id"], calibration, held_out_prefixes)
            if question is None or (args.half and half != args.half):
                continue
            extra = record.get("extra") or {}
            text = strip_note(extra.get("reasked_from") if extra.get("withdrawn") else record["answer"])
            passages = [passage(p) for p in (extra.get("judged") or {}).get("passages", [])]
            figures = invented_figures(question.question, text, passages)
            if not figures:
                continue
            was = "unanswerable" if not question.answerable else "right" if record["correct"] else "wrong"
            counts[(half, question.direction, was)] += 1
            lines.append(f"{record['id']:10} {was:12} {', '.join(figures):12} {' '.join(text.split())[:80]}")
        print(f"\n## {path.name}: answers withdrawn (half, row, the answer was)\n")
        for (half, row, was), n in sorted(counts.items()):
            print(f"{half:12} {row:6} {was:12} {n}")
        print("\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
