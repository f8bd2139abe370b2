"""The first question after the model loads, with and without the prompt opening cached at load.

Folio answers eval questions over the eval library (as bench_latency.py, whose helpers it uses) at a
prompt-length bucket (≈ 1k tokens by default). Each question is asked twice in new chats, in
alternating order: cold (the KV cache emptied, as bench_latency's cold runs) and as the first
question after a load (the cache emptied, then `ModelSlot.prime`, which `load_model` runs: the chat
template's start and the instructions evaluated). Same question, passages and prompt both times.
Greedy decoding, no TTFT passage budget, n_ctx 8192.

Usage: python benchmarks/bench_first_question.py [--runs 6] [--bucket 1024] [--tokens 16]
Prints per-question TTFTs, the p50s and the median ratio (after load / cold); writes
benchmarks/results/first_question.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from itertools import cycle
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.answering.types import AskOptions  # noqa: E402
from app.core.generate.threads import prefer_passive_openmp  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.bench_generate import cold  # noqa: E402
from benchmarks.bench_latency import latency_settings, p50_p95, passages_for, record  # noqa: E402
from benchmarks.evaluation.dataset import load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402


def ask_as(folio: Folio, way: str, question: str, options: AskOptions) -> dict[str, Any]:
    """One answer in a new chat: "cold" from an empty cache, "after load" from the primed one."""
    slot = folio.answering.model_slot
    cold(slot.engine)
    primed = slot.prime() if way == "after load" else 0
    return record(folio.answering.ask(question, options), way=way, primed_tokens=primed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=6, help="questions, each asked both ways (default 6)")
    parser.add_argument("--bucket", type=int, default=1024, help="target prompt tokens (default 1024)")
    parser.add_argument("--tokens", type=int, default=16, help="max answer tokens (default 16)")
    args = parser.parse_args()
    args.threads = args.threads_batch = 0  # Folio's defaults (latency_settings reads them)
    prefer_passive_openmp()
    settings = latency_settings(args)
    questions = load_questions()
    library = prepared_library(questions, settings)
    by_lang = [
        [q for q in questions.questions if q.answerable and not q.cross and q.lang == lang]
        for lang in ("en", "zh")
    ]
    order = cycle([q for pair in zip(*by_lang, strict=False) for q in pair])
    pairs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="folio-first-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            info = folio.answering.load_model()
            folio.answering.ask("What does error code E7 mean?", AskOptions(passages_k=1, max_tokens=4))
            engine = folio.answering.model_slot.engine
            print(f"model {info.name}, load {os.getloadavg()[0]:.1f}", flush=True)
            while len(pairs) < args.runs:
                question = next(order)
                k = passages_for(folio, engine, question.question, args.bucket)
                options = AskOptions(passages_k=k, max_tokens=args.tokens)
                ways = ("cold", "after load") if len(pairs) % 2 == 0 else ("after load", "cold")
                rows = {way: ask_as(folio, way, question.question, options) for way in ways}
                if any(r["ttft_ms"] is None for r in rows.values()):
                    print(f"  {question.id}: no model call, next question")
                    continue
                a, b = rows["cold"], rows["after load"]
                pairs.append({"question_id": question.id, "passages_k": k, "cold": a, "after_load": b})
                print(
                    f"  {question.id} k={k}: {a['prompt_tokens']} prompt tokens; cold TTFT "
                    f"{a['ttft_ms']:.0f} ms, after load {b['ttft_ms']:.0f} ms ({b['cached_prompt_tokens']} "
                    f"cached, {b['primed_tokens']} primed; load {b['load_average_1m']})",
                    flush=True,
                )
        finally:
            folio.close()
    ratios = [p["after_load"]["ttft_ms"] / p["cold"]["ttft_ms"] for p in pairs]
    result = {
        "model": info.name,
        "bucket": args.bucket,
        "max_tokens": args.tokens,
        "prompt_tokens": [p["cold"]["prompt_tokens"] for p in pairs],
        "primed_tokens": [p["after_load"]["primed_tokens"] for p in pairs],
        "cold_ttft_ms": p50_p95([p["cold"]["ttft_ms"] for p in pairs]),
        "after_load_ttft_ms": p50_p95([p["after_load"]["ttft_ms"] for p in pairs]),
        "after_load_over_cold": round(statistics.median(ratios), 3),
        "ratios": [round(r, 3) for r in ratios],
        "pairs": pairs,
        "taken": time.strftime("%Y-%m-%d %H:%M"),
    }
    c, f = result["cold_ttft_ms"], result["after_load_ttft_ms"]
    assert c is not None and f is not None
    print(
        f"\nTTFT p50 at ≈{args.bucket} prompt tokens: cold {c['p50']:.0f} ms, first question after load "
        f"{f['p50']:.0f} ms; after load / cold median {result['after_load_over_cold']} "
        f"(pairs {result['ratios']})"
    )
    print(f"wrote {write_result('first_question', result).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
