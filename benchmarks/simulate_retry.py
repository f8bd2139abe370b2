"""Check-and-retry, simulated from two saved eval runs of the same questions (issue 21): the first
run's answer stands when Folio's verdict is "answered" (or a refusal); otherwise the answer is
asked again the second run's way (e.g. `--answer-from found`: only the located sentences, so only
their figures) and the retry is kept when its verdict is better. Greedy decoding makes each run's
answer what the retry would have written, so the figures are exact for these questions; the cost
is one more answer for every retried question.

    .venv/bin/python benchmarks/simulate_retry.py FIRST.json RETRY.json

Each file is an `eval_answers.py` result (or a `recheck_eval.py` answers list).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

RANK = {"answered": 3, "partly": 2, "not_answered": 1, "not_in_documents": 0}


def answers(path: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data["answers"] if isinstance(data, dict) else data
    return {row["id"]: row for row in rows}


def verdict(row: dict[str, Any]) -> str | None:
    value = (row.get("extra") or {}).get("verdict")
    return str(value) if value is not None else None


def figures(rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Per language: right / answerable, refused / unanswerable, false refusals, and how often
    "answered" was right."""
    out = {}
    for lang in ("en", "zh"):
        mine = [r for r in rows if r["lang"] == lang]
        answerable = [r for r in mine if r["answerable"]]
        unanswerable = [r for r in mine if not r["answerable"]]
        said = [r for r in mine if verdict(r) == "answered"]
        out[lang] = (
            f"right {sum(r['correct'] for r in answerable)}/{len(answerable)}, "
            f"refused unanswerable {sum(r['refusal'] for r in unanswerable)}/{len(unanswerable)}, "
            f"false refusals {sum(r['refusal'] for r in answerable)}/{len(answerable)}, "
            f'"answered" right {sum(r["correct"] for r in said)}/{len(said)}'
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("retry", type=Path)
    args = parser.parse_args(argv)
    first, retry = answers(args.first), answers(args.retry)
    shared = [qid for qid in first if qid in retry]
    if not shared:
        raise SystemExit("the two runs share no question")
    combined, retried, kept = [], 0, 0
    for qid in shared:
        row, again = first[qid], retry[qid]
        if verdict(row) in ("answered", "not_in_documents"):
            combined.append(row)
            continue
        retried += 1
        better = RANK.get(verdict(again) or "", -1) > RANK.get(verdict(row) or "", -1)
        kept += better
        combined.append(again if better else row)
    print(f"{len(shared)} questions; retried {retried}, the retry kept for {kept}\n")
    for name, rows in (
        ("first run", [first[q] for q in shared]),
        ("retry run", [retry[q] for q in shared]),
        ("check-and-retry", combined),
    ):
        for lang, text in figures(rows).items():
            print(f"{name:16} {lang}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
