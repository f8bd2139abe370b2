"""Time to first token before and after evidence selection and the prefill thread policy, question by
question on the eval library, alternated A B / B A.

  before: whole passages, one prompt thread (the policy when issue 13 was filed: cpu_count / 2 here)
  after:  evidence selection on, the automatic prompt threads (every physical core on 1-2 cores)
and, to tell the two apart, "threads only" (whole passages, automatic threads).

Same questions, model, passages (k = 6, no TTFT passage budget), greedy, max 32 answer tokens (TTFT
does not depend on it). Each question is asked cold: the model is reloaded between configurations and
no two questions share more than the instructions. Prints medians and ratios and writes
benchmarks/results/evidence.json (+ .env.json). Answer quality is the eval's job (`make eval`).

`--set focus` compares instead what the prompt shows of the located sentences (Settings.answer_from:
the passages, only the located sentences, both) and writes results/focus.json.

Usage: .venv/bin/python benchmarks/bench_evidence.py [--questions 12] [--model GGUF] [--set focus]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.answering.types import AskOptions  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

CONFIGS: dict[str, dict[str, Any]] = {
    "before": {"evidence_selection": False, "n_threads_batch": 1},
    "threads_only": {"evidence_selection": False, "n_threads_batch": 0},
    "after": {"evidence_selection": True, "n_threads_batch": 0},
}
# `--set focus`: what the prompt shows of the located sentences (Settings.answer_from), TTFT of
# "found" (only the located sentences: locate, then answer) and "hinted" against the passages.
FOCUS: dict[str, dict[str, Any]] = {
    "passages": {"answer_from": "passages", "n_threads_batch": 0},
    "found": {"answer_from": "found", "n_threads_batch": 0},
    "hinted": {"answer_from": "hinted", "n_threads_batch": 0},
}
SETS = {"evidence": CONFIGS, "focus": FOCUS}


def pick(questions: list[Question], count: int) -> list[Question]:
    """Answerable questions, the two languages taken in turn, spread over the set."""
    by_lang = {
        lang: [q for q in questions if q.answerable and not q.cross and q.lang == lang]
        for lang in ("en", "zh")
    }
    chosen: list[Question] = []
    for index in range(count):
        pool = by_lang["en" if index % 2 == 0 else "zh"]
        step = max(1, len(pool) // max(1, (count + 1) // 2))
        position = (index // 2) * step
        if position < len(pool):
            chosen.append(pool[position])
    return chosen


def ask(
    folio: Folio, base: Settings, configs: dict[str, dict[str, Any]], name: str, question: Question
) -> dict[str, Any]:
    folio.apply_settings(base.replace(**configs[name]))
    folio.answering.load_model()  # a changed prompt-thread count reloads now, outside the timed answer
    answer = folio.answering.ask(question.question, AskOptions(max_tokens=32, temperature=0.0, seed=42))
    budget = answer.budget
    return {
        "config": name,
        "id": question.id,
        "ttft_ms": answer.metrics.ttft_ms,
        "prefill_ms": answer.spans.get("prefill"),
        "assemble_ms": answer.spans.get("assemble"),
        "prompt_tokens": budget.prompt_tokens if budget else None,
        "passages_tokens": budget.passages_tokens if budget else None,
        "cached_prompt_tokens": budget.cached_prompt_tokens if budget else None,
        "evidence_saved_tokens": budget.evidence_saved_tokens if budget else None,
        "prefill_tokens_per_s": answer.metrics.prefill_tokens_per_s,
    }


def summary(rows: list[dict[str, Any]], name: str) -> dict[str, Any]:
    mine = [row for row in rows if row["config"] == name and row["ttft_ms"] is not None]

    def median(key: str) -> float:
        return round(statistics.median(float(row[key]) for row in mine), 1)

    return {
        "answers": len(mine),
        "ttft_ms_median": median("ttft_ms"),
        "prompt_tokens_median": median("prompt_tokens"),
        "passages_tokens_median": median("passages_tokens"),
        "prefill_tokens_per_s_median": median("prefill_tokens_per_s"),
        "assemble_ms_median": median("assemble_ms"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=12)
    parser.add_argument("--model", type=Path, help="chat model GGUF (default: the bundled one)")
    parser.add_argument("--set", choices=tuple(SETS), default="evidence", help="which configurations")
    args = parser.parse_args()
    configs = SETS[args.set]
    questions = load_questions()
    chosen = pick(list(questions.questions), args.questions)
    base = Settings(
        model_path=str(args.model.resolve()) if args.model else "",
        temperature=0.0,
        ttft_target_s=0.0,
        max_tokens=32,
    )
    library = prepared_library(questions, base)
    rows: list[dict[str, Any]] = []
    names = list(configs)
    with tempfile.TemporaryDirectory(prefix="folio-evidence-") as scratch:
        folio = build_services(base, working_copy(library, Path(scratch)))
        try:
            folio.library.search("warm-up 预热", 6)
            for index, question in enumerate(chosen):
                order = names if index % 2 == 0 else names[::-1]
                for name in order:
                    row = ask(folio, base, configs, name, question)
                    rows.append(row)
                    print(
                        f"{question.id:6} {name:12} TTFT {row['ttft_ms']:8.0f} ms  prompt "
                        f"{row['prompt_tokens']:5} tokens  saved {row['evidence_saved_tokens']:4}",
                        flush=True,
                    )
        finally:
            folio.close()
    result: dict[str, Any] = {"questions": [q.id for q in chosen], "configs": configs, "rows": rows}
    for name in names:
        result[name] = summary(rows, name)
    first = names[0]  # the configuration the others are compared with
    ratios: dict[str, list[float]] = {name: [] for name in names[1:]}
    for question in chosen:
        ttft = {row["config"]: row["ttft_ms"] for row in rows if row["id"] == question.id}
        for name, values in ratios.items():
            if ttft.get(first) and ttft.get(name):
                values.append(ttft[name] / ttft[first])
    for name, values in ratios.items():
        result[f"ttft_ratio_{name}_to_{first}"] = {
            "median": round(statistics.median(values), 3),
            "min": round(min(values), 3),
            "max": round(max(values), 3),
        }
    print()
    for name in names:
        print(name, result[name])
    for name in ratios:
        print(f"TTFT {name} / {first}:", result[f"ttft_ratio_{name}_to_{first}"])
    write_result(args.set, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
