"""Compare two saved `eval_answers.py` runs question by question: right, citations, refusals, speed.

    .venv/bin/python benchmarks/compare_evals.py BEFORE.json AFTER.json

Prints the questions whose verdict changed (right, a right citation, refused), the totals of each
run over the questions both answered, and TTFT / tok/s: medians and the per-question ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any


def load(path: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {answer["id"]: answer for answer in data["answers"]}


def right_citation(answer: dict[str, Any]) -> bool:
    return any(cited.get("right") for cited in answer.get("cited") or [])


def marks(answer: dict[str, Any]) -> str:
    return (
        f"{'right' if answer['correct'] else 'wrong'}, "
        f"{'cites right' if right_citation(answer) else 'no right citation'}"
        f"{', refused' if answer['refusal'] else ''}"
    )


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = load(args.before), load(args.after)
    ids = [i for i in before if i in after]
    print(f"{len(ids)} questions in both runs\n")
    changed = 0
    for qid in ids:
        a, b = before[qid], after[qid]
        if (a["correct"], right_citation(a), a["refusal"]) != (b["correct"], right_citation(b), b["refusal"]):
            changed += 1
            print(f"{qid:7} {marks(a)}  ->  {marks(b)}")
        elif a.get("answer") != b.get("answer"):
            print(f"{qid:7} same verdict, other words")
    print(f"\n{changed} questions changed verdict\n")
    print("| run | right | ≥1 right citation | refused | TTFT p50 s | tok/s p50 |")
    print("|---|---|---|---|---|---|")
    for name, run in (("before", before), ("after", after)):
        answers = [run[i] for i in ids]
        ttft = median([a["ttft_ms"] / 1000 for a in answers if a.get("ttft_ms")])
        rate = median([a["tokens_per_s"] for a in answers if a.get("tokens_per_s")])
        print(
            f"| {name} | {sum(a['correct'] for a in answers)} | {sum(right_citation(a) for a in answers)} "
            f"| {sum(bool(a['refusal']) for a in answers)} | {ttft:.2f} | {rate:.1f} |"
            if ttft is not None and rate is not None
            else f"| {name} | {sum(a['correct'] for a in answers)} | – | – | – | – |"
        )
    ratios_ttft = [
        after[i]["ttft_ms"] / before[i]["ttft_ms"]
        for i in ids
        if before[i].get("ttft_ms") and after[i].get("ttft_ms")
    ]
    ratios_rate = [
        after[i]["tokens_per_s"] / before[i]["tokens_per_s"]
        for i in ids
        if before[i].get("tokens_per_s") and after[i].get("tokens_per_s")
    ]
    if ratios_ttft and ratios_rate:
        print(
            f"\nper question, after / before: TTFT median {statistics.median(ratios_ttft):.2f} "
            f"(min {min(ratios_ttft):.2f}, max {max(ratios_ttft):.2f}); tok/s median "
            f"{statistics.median(ratios_rate):.2f} (min {min(ratios_rate):.2f}, max {max(ratios_rate):.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
