"""Two saved `make eval` runs side by side: every half's tables before → after over the same questions.

Both runs' answers are scored again from their text with today's scoring (scoring.rescored), so a run
saved when Folio's appended note still counted as the model's words compares fairly. Prints the
retrieval and answer tables of each half, per language and cross-language, before → after, and a
line per question whose rank, rightness or verdict changed. Nothing is asked of the model.

    .venv/bin/python benchmarks/eval_compare.py AFTER.json --before BEFORE.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.eval_answers import load_before  # noqa: E402
from benchmarks.evaluation import report, scoring  # noqa: E402
from benchmarks.evaluation.dataset import load_questions  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("after", type=Path, help="a results file of benchmarks/eval_answers.py")
    parser.add_argument("--before", type=Path, required=True, help="an earlier results file")
    args = parser.parse_args(argv)
    questions = load_questions()
    retrieval, answers = load_before(args.after, questions)
    retrieval_before, answers_before = load_before(args.before, questions)
    ids = {r.id for r in retrieval} | {r.id for r in answers}
    after_data = json.loads(args.after.read_text(encoding="utf-8"))
    print(f"after: {args.after.name} ({after_data.get('date')}); before: {args.before.name}")
    print(f"{len(ids)} questions; both runs' answers scored again from their text (scoring.rescored)")
    if retrieval:
        text, _ = report.half_tables(
            retrieval,
            questions,
            scoring.summarize_retrieval,
            scoring.by_language,
            report.RETRIEVAL_COLUMNS,
            [r for r in retrieval_before if r.id in ids],
        )
        print("\n## Retrieval" + text)
        changed = report.changed_retrieval(retrieval_before, retrieval)
        print(f"\n### Retrieval: {len(changed)} question(s) changed\n")
        print("\n".join(changed))
    if answers:
        text, _ = report.half_tables(
            answers,
            questions,
            scoring.summarize_answers,
            scoring.by_language,
            report.ANSWER_COLUMNS,
            [r for r in answers_before if r.id in ids],
        )
        print("\n## Answers" + text)
        changed = report.changed_answers(answers_before, answers)
        print(f"\n### Answers: {len(changed)} question(s) changed\n")
        print("\n".join(changed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
