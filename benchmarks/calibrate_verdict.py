"""The answer verdict on labelled cases (tests/core/data/verdict_cases.json): precision and recall of
"answered" per language, every trap's verdict, and a sweep of the subject thresholds.

Usage: .venv/bin/python benchmarks/calibrate_verdict.py [--sweep]   (prints a table; JSON in
benchmarks/results/verdict_calibration.json with record_env)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from unittest import mock

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.answering import subject  # noqa: E402
from app.core.answering.attribution import attribute  # noqa: E402
from app.core.answering.verdict import answer_verdict  # noqa: E402
from benchmarks.record_env import record_env  # noqa: E402

CASES = REPO / "tests" / "core" / "data" / "verdict_cases.json"


def load_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
    return cases


def judge(case: dict[str, Any]) -> str | None:
    refused_or_checked = attribute(case["answer"], case["passages"], question=case["question"])
    return answer_verdict(refused_or_checked, False, "stop")


def scores(cases: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Precision and recall of "answered", per language and in all, and the cases judged wrong."""
    out: dict[str, Any] = {}
    judged = [(case, judge(case)) for case in cases]
    for lang in ("en", "zh", "all"):
        mine = [(c, v) for c, v in judged if lang == "all" or c["lang"] == lang]
        said = [c for c, v in mine if v == "answered"]
        right = [c for c in said if c["label"] == "answered"]
        wanted = [c for c, _ in mine if c["label"] == "answered"]
        out[lang] = {
            "n": len(mine),
            "answered_precision": len(right) / len(said) if said else None,
            "answered_recall": len(right) / len(wanted) if wanted else None,
            "traps_passed_as_answered": sum(1 for c, v in mine if c["trap"] != "none" and v == "answered"),
            "exact": sum(1 for c, v in mine if v == c["label"]) / len(mine) if mine else None,
        }
    out["wrong"] = [{"id": c["id"], "label": c["label"], "verdict": v} for c, v in judged if v != c["label"]]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep", action="store_true", help="also try other subject thresholds")
    args = parser.parse_args(argv)
    cases = load_cases()
    result = {"env": record_env(), "cases": len(cases), "default": scores(cases), "sweep": []}
    print(
        f"{len(cases)} labelled cases; ABOUT_THRESHOLD {subject.ABOUT_THRESHOLD}, "
        f"BINDING_MARGIN {subject.BINDING_MARGIN}"
    )
    print("| language | n | 'answered' precision | recall | traps passed as answered | exact verdict |")
    print("|---|---|---|---|---|---|")
    for lang in ("en", "zh", "all"):
        row = result["default"][lang]
        print(
            f"| {lang} | {row['n']} | {_f(row['answered_precision'])} | {_f(row['answered_recall'])} | "
            f"{row['traps_passed_as_answered']} | {_f(row['exact'])} |"
        )
    for wrong in result["default"]["wrong"]:
        print(f"  {wrong['id']}: labelled {wrong['label']}, judged {wrong['verdict']}")
    if args.sweep:
        print("\n| about | margin | precision | recall | exact |")
        print("|---|---|---|---|---|")
        for about in (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
            for margin in (0.1, 0.25, 0.4):
                with (
                    mock.patch.object(subject, "ABOUT_THRESHOLD", about),
                    mock.patch.object(subject, "BINDING_MARGIN", margin),
                ):
                    row = scores(cases)["all"]
                result["sweep"].append({"about": about, "margin": margin, **row})
                print(
                    f"| {about} | {margin} | {_f(row['answered_precision'])} | "
                    f"{_f(row['answered_recall'])} | {_f(row['exact'])} |"
                )
    out = REPO / "benchmarks" / "results" / "verdict_calibration.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


def _f(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    raise SystemExit(main())
