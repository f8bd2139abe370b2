"""Per question, where the first answer page came in two retrieval evals (eval_answers.py
--retrieval-only results): which questions got better, worse or stayed, and every hit list that moved.

Usage: .venv/bin/python benchmarks/compare_retrieval_ranks.py BEFORE.json AFTER.json
Exit status 1 when any question's first answer rank got worse (or was lost).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _records(path: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {record["id"]: record for record in data["retrieval"]}


def _rank(record: dict[str, Any]) -> float:
    """The first answer page's rank, infinity when none of the hits is on one."""
    rank = record["first_rank"]
    return float("inf") if rank is None else float(rank)


def compare(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """Question ids by outcome: better, worse, same rank (and same hits), same rank (other hits),
    and those only one of the two runs has."""
    out: dict[str, list[str]] = {"better": [], "worse": [], "same": [], "same_rank_other_hits": []}
    out["missing"] = sorted(set(before) ^ set(after))
    for qid in sorted(set(before) & set(after)):
        old, new = before[qid], after[qid]
        if _rank(new) < _rank(old):
            out["better"].append(qid)
        elif _rank(new) > _rank(old):
            out["worse"].append(qid)
        elif old["hits"] == new["hits"]:
            out["same"].append(qid)
        else:
            out["same_rank_other_hits"].append(qid)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = _records(args.before), _records(args.after)
    outcome = compare(before, after)
    for qid in outcome["better"] + outcome["worse"]:
        print(f"{qid}: first answer rank {before[qid]['first_rank']} -> {after[qid]['first_rank']}")
    print(json.dumps({key: len(ids) for key, ids in outcome.items()}))
    if outcome["same_rank_other_hits"]:
        print("same rank, other hits:", ", ".join(outcome["same_rank_other_hits"]))
    return 1 if outcome["worse"] else 0


if __name__ == "__main__":
    sys.exit(main())
