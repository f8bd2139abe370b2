"""TTFT and TPOT percentiles by prompt length through Folio's answer path, the TTFT split, prefix reuse.

Folio (`build_services` + `ask`) answers the eval's questions over the eval library (built once and
cached under benchmarks/.cache/, as `make eval` does) with the bundled chat model. For each prompt-length
bucket (≈ 256, 1k, 2k, 4k prompt tokens) every run asks a different question with as many passages
(passages_k) as bring its prompt closest to the bucket, cold: the KV cache is emptied before each run,
so the whole prompt is evaluated. Per bucket: the actual prompt tokens, TTFT and TPOT p50/p95, prefill
tok/s, and the p50 of the TTFT's parts (queue, retrieve, load, assemble, prefill). Then prefix reuse, in one
chat: a cold question, the same question again, a follow-up (TTFT over cold, cached prompt tokens).
Greedy decoding, fixed seed, no TTFT passage budget (ttft_target_s=0), n_ctx 8192.

Usage: python benchmarks/bench_latency.py [--runs 3] [--buckets 256,1024,2048,4096] [--tokens 48]
       [--reuse-rounds 2] [--reuse-tokens 256] [--threads N] [--threads-batch N] [--replot]
Prints the figures, writes benchmarks/results/latency.json (+ .env.json) and latency.png. Never run by
the tests.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.answering.types import Answer, AskOptions  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.generate.engine import Engine  # noqa: E402
from app.core.generate.threads import prefer_passive_openmp  # noqa: E402
from app.core.prompt.budget import build_messages  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.bench_generate import cold, spread  # noqa: E402
from benchmarks.bench_retrieval_scale import percentile  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.latency_plot import draw_latency_plot  # noqa: E402
from benchmarks.record_env import RESULTS, write_result  # noqa: E402

SEED = 42
PLOT = RESULTS / "latency.png"
N_CTX = 8192
MAX_PASSAGES = 50  # Settings' upper bound for passages_k
TTFT_PARTS = ("queue", "retrieve", "load", "assemble", "prefill")
# A cold question and a follow-up that names little of its subject, as a user types it in a chat.
FOLLOW_UPS = (
    ("What does error code E7 mean on the Aurelia KX-40?", "And what should I do when it shows up?"),
    ("清岚 S3 屏幕上出现 E2，应该先做什么？", "如果这样做了还是不行呢？"),
    ("Who founded Harbourton's first mill, and in which year?", "What happened to that mill later?"),
)

logging.getLogger("pypdf").setLevel(logging.ERROR)


def latency_settings(args: argparse.Namespace) -> Settings:
    """Folio's defaults with greedy decoding, no TTFT passage budget and room for 4k-token prompts."""
    return Settings(
        n_ctx=N_CTX,
        n_threads=args.threads,
        n_threads_batch=args.threads_batch,
        temperature=0.0,
        seed=SEED,
        max_tokens=args.tokens,
        ttft_target_s=0.0,
    )


def prompt_length(engine: Engine, question: str, hits: list[Any]) -> int:
    """Prompt tokens of the question over these passages, rendered as the answer path renders them."""
    rendered = engine.render_chat(build_messages(question, hits, []), enable_thinking=False)
    return len(engine.tokenize_prompt(rendered))


def passages_for(folio: Folio, engine: Engine, question: str, target: int) -> int:
    """The passages_k whose prompt comes closest to `target` tokens for this question."""
    hits = list(folio.library.search(question, MAX_PASSAGES).hits)
    best_k, best_gap = 1, None
    for k in range(1, len(hits) + 1):
        gap = prompt_length(engine, question, hits[:k]) - target
        if best_gap is None or abs(gap) < abs(best_gap):
            best_k, best_gap = k, gap
        if gap >= 0:
            break
    return best_k


def record(answer: Answer, **extra: Any) -> dict[str, Any]:
    """The figures of one answer: tokens, TTFT, TPOT, prefill rate and the spans, in ms."""
    metrics, budget = answer.metrics, answer.budget
    return {
        **extra,
        "finish_reason": answer.finish_reason,
        "prompt_tokens": metrics.prompt_tokens,
        "cached_prompt_tokens": budget.cached_prompt_tokens if budget else 0,
        "passages_used": len(answer.passages),
        "history_turns_used": budget.history_turns_used if budget else 0,
        "completion_tokens": metrics.completion_tokens,
        "ttft_ms": metrics.ttft_ms,
        "tpot_ms": metrics.tpot_ms,
        "prefill_tokens_per_s": metrics.prefill_tokens_per_s,
        "spans_ms": {name: round(ms, 2) for name, ms in answer.spans.items()},
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


def p50_p95(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"p50": round(statistics.median(values), 1), "p95": round(percentile(values, 0.95), 1)}


def summarize_bucket(target: int, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Percentiles over a bucket's answered runs (those that reached the model)."""
    answered = [r for r in runs if r["ttft_ms"] is not None]
    ttft = [r["ttft_ms"] for r in answered]
    tpot = [r["tpot_ms"] for r in answered if r["tpot_ms"] is not None]
    prefill = [r["prefill_tokens_per_s"] for r in answered if r["prefill_tokens_per_s"]]
    parts = {
        name: round(statistics.median(r["spans_ms"].get(name, 0.0) for r in answered), 1)
        for name in TTFT_PARTS
    }
    return {
        "target_prompt_tokens": target,
        "runs": len(answered),
        "prompt_tokens": [r["prompt_tokens"] for r in answered],
        "prompt_tokens_median": statistics.median(r["prompt_tokens"] for r in answered) if answered else None,
        "passages_k": [r["passages_k"] for r in answered],
        "ttft_ms": p50_p95(ttft),
        "tpot_ms": p50_p95(tpot),
        "tpot_runs": len(tpot),
        "prefill_tokens_per_s": {k: round(v, 1) for k, v in spread(prefill).items()} if prefill else None,
        "ttft_parts_p50_ms": parts if answered else None,
        "answers": runs,
    }


def ask_cold(folio: Folio, question: str, options: AskOptions, chat_id: int | None = None) -> Answer:
    cold(folio.answering.model_slot.engine)
    return folio.answering.ask(question, options, chat_id)


def bucket_runs(
    folio: Folio, questions: Iterator[Question], target: int, runs: int, tokens: int
) -> list[dict[str, Any]]:
    """`runs` cold answers to different questions, each with the passages_k nearest `target`."""
    engine = folio.answering.model_slot.engine
    done: list[dict[str, Any]] = []
    tries = 0
    while len([r for r in done if r["ttft_ms"] is not None]) < runs and tries < 3 * runs:
        tries += 1
        question = next(questions)
        k = passages_for(folio, engine, question.question, target)
        answer = ask_cold(folio, question.question, AskOptions(passages_k=k, max_tokens=tokens))
        row = record(answer, question_id=question.id, passages_k=k)
        done.append(row)
        if row["ttft_ms"] is None:  # the grounding gate answered without the model
            print(f"  {question.id}: no model call ({answer.finish_reason}), next question")
            continue
        parts = " ".join(f"{n} {row['spans_ms'].get(n, 0.0):.0f}" for n in TTFT_PARTS)
        tpot = f"{row['tpot_ms']:.1f}" if row["tpot_ms"] is not None else "-"
        print(
            f"  {question.id} k={k}: {row['prompt_tokens']} prompt tokens, TTFT {row['ttft_ms']:.0f} ms "
            f"({parts}), TPOT {tpot} ms over {row['completion_tokens']} tokens, "
            f"prefill {row['prefill_tokens_per_s'] or 0:.0f} tok/s (load {row['load_average_1m']})",
            flush=True,
        )
    return done


def prefix_reuse(folio: Folio, rounds: int, tokens: int) -> dict[str, Any]:
    """Per round, in one new chat (default passages_k): a cold question; the same question again
    (its search gives the same passages: the most today's prompt order, instructions and passages
    first, can reuse); then a follow-up that names little of its subject, as users type them."""
    options = AskOptions(max_tokens=tokens)  # long enough to finish: only complete answers are history
    rows: list[dict[str, Any]] = []
    for (first, follow), _ in zip(cycle(FOLLOW_UPS), range(rounds), strict=False):
        start = ask_cold(folio, first, options)
        again = folio.answering.ask(first, options, start.chat_id)
        then = folio.answering.ask(follow, options, start.chat_id)
        row: dict[str, Any] = {
            "cold": record(start, question=first),
            "same_again": record(again, question=first),
            "follow_up": record(then, question=follow),
            "follow_up_same_passages": [h.chunk_id for h in start.passages]
            == [h.chunk_id for h in then.passages],
        }
        rows.append(row)
        line = []
        for name in ("cold", "same_again", "follow_up"):
            r = row[name]
            ttft = f"{r['ttft_ms']:.0f} ms" if r["ttft_ms"] is not None else "no model call"
            line.append(
                f"{name} {ttft} ({r['cached_prompt_tokens']}/{r['prompt_tokens']} cached, "
                f"{r['history_turns_used']} history turns, {r['finish_reason']})"
            )
        print(f"  {'; '.join(line)}; follow-up same passages: {row['follow_up_same_passages']}", flush=True)
    measured = [r for r in rows if r["cold"]["ttft_ms"] and r["follow_up"]["ttft_ms"]]
    ratios = [r["follow_up"]["ttft_ms"] / r["cold"]["ttft_ms"] for r in measured]
    again_ratios = [
        r["same_again"]["ttft_ms"] / r["cold"]["ttft_ms"] for r in measured if r["same_again"]["ttft_ms"]
    ]
    return {
        "rounds": len(measured),
        "follow_up_over_cold": round(statistics.median(ratios), 3) if ratios else None,
        "ratios": [round(r, 3) for r in ratios],
        "same_again_over_cold": round(statistics.median(again_ratios), 3) if again_ratios else None,
        "same_again_ratios": [round(r, 3) for r in again_ratios],
        "cold_ttft_ms": p50_p95([r["cold"]["ttft_ms"] for r in measured]),
        "follow_up_ttft_ms": p50_p95([r["follow_up"]["ttft_ms"] for r in measured]),
        "follow_up_cached_prompt_tokens": [r["follow_up"]["cached_prompt_tokens"] for r in measured],
        "follow_up_prompt_tokens": [r["follow_up"]["prompt_tokens"] for r in measured],
        "same_again_cached_prompt_tokens": [r["same_again"]["cached_prompt_tokens"] for r in measured],
        "same_again_prompt_tokens": [r["same_again"]["prompt_tokens"] for r in measured],
        "rounds_detail": rows,
    }


def print_table(buckets: list[dict[str, Any]], reuse: dict[str, Any]) -> None:
    print(
        "\n| target | prompt tokens (runs) | TTFT p50 / p95 ms | TPOT p50 / p95 ms | prefill tok/s "
        "median (min–max) | TTFT p50 parts: queue / retrieve / load / assemble / prefill ms |"
    )
    print("|---|---|---|---|---|---|")
    for b in buckets:
        if not b["runs"]:
            continue
        t, d, p, parts = b["ttft_ms"], b["tpot_ms"], b["prefill_tokens_per_s"], b["ttft_parts_p50_ms"]
        tokens = ", ".join(str(n) for n in b["prompt_tokens"])
        tpot = f"{d['p50']:.1f} / {d['p95']:.1f}" if d else "-"
        rate = f"{p['median']:.0f} ({p['min']:.0f}–{p['max']:.0f})" if p else "-"
        split = " / ".join(f"{parts[n]:.0f}" for n in TTFT_PARTS)
        print(
            f"| ≈{b['target_prompt_tokens']} | {tokens} ({b['runs']}) | {t['p50']:.0f} / {t['p95']:.0f} "
            f"| {tpot} | {rate} | {split} |"
        )
    if reuse["follow_up_over_cold"] is not None:
        print(
            f"\nprefix reuse: TTFT follow-up / cold median {reuse['follow_up_over_cold']:.2f} "
            f"(per pair {reuse['ratios']}; goal ≤ 0.3); follow-up cached prompt tokens "
            f"{reuse['follow_up_cached_prompt_tokens']} of {reuse['follow_up_prompt_tokens']}; "
            f"the same question again: {reuse['same_again_over_cold']} "
            f"({reuse['same_again_cached_prompt_tokens']} of {reuse['same_again_prompt_tokens']} cached)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold answers per bucket (default 3)")
    parser.add_argument("--buckets", default="256,1024,2048,4096", help="target prompt tokens")
    parser.add_argument("--tokens", type=int, default=48, help="max answer tokens (default 48)")
    parser.add_argument("--reuse-rounds", type=int, default=2, help="prefix-reuse chats (default 2)")
    parser.add_argument(
        "--reuse-tokens",
        type=int,
        default=256,
        help="max answer tokens in the prefix-reuse chats (default 256)",
    )
    parser.add_argument("--threads", type=int, default=0, help="decode threads (0: Folio's default)")
    parser.add_argument("--threads-batch", type=int, default=0, help="prefill threads (0: default)")
    parser.add_argument("--replot", action="store_true", help="only redraw latency.png from latency.json")
    args = parser.parse_args()
    if args.replot:
        return replot()
    targets = [int(t) for t in args.buckets.split(",") if t.strip()]
    if args.runs < 1 or not targets or max(targets) + args.tokens >= N_CTX:
        raise SystemExit(f"need --runs ≥ 1 and buckets below {N_CTX - args.tokens} tokens")

    prefer_passive_openmp()
    settings = latency_settings(args)
    questions = load_questions()
    started = time.perf_counter()
    library = prepared_library(questions, settings)
    print(f"library: {library.relative_to(ROOT)} (ready in {time.perf_counter() - started:.1f} s)")
    # English and Chinese questions alternately, every run a new one
    by_lang = [
        [q for q in questions.questions if q.answerable and not q.cross and q.lang == lang]
        for lang in ("en", "zh")
    ]
    order = cycle([q for pair in zip(*by_lang, strict=False) for q in pair])

    with tempfile.TemporaryDirectory(prefix="folio-latency-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            info = folio.answering.load_model()
            engine = folio.answering.model_slot.engine
            folio.answering.ask(
                "What does error code E7 mean?", AskOptions(passages_k=1, max_tokens=4)
            )  # warm-up
            print(
                f"model {info.name}, n_ctx {info.n_ctx}, threads decode {engine.n_threads} prefill "
                f"{engine.n_threads_batch}, load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            buckets = []
            for target in targets:
                print(f"bucket ≈{target} prompt tokens", flush=True)
                runs = bucket_runs(folio, order, target, args.runs, args.tokens)
                buckets.append(summarize_bucket(target, runs))
            print("prefix reuse (default passages_k)", flush=True)
            reuse = prefix_reuse(folio, args.reuse_rounds, args.reuse_tokens)
        finally:
            folio.close()

    result: dict[str, Any] = {
        "model": info.name,
        "n_ctx": info.n_ctx,
        "n_threads": engine.n_threads,
        "n_threads_batch": engine.n_threads_batch,
        "max_tokens": args.tokens,
        "reuse_max_tokens": args.reuse_tokens,
        "runs_per_bucket": args.runs,
        "cold": "KV cache emptied (Llama.reset) before every bucket run and every cold question; "
        "every run asks a different eval question",
        "ttft": "question submitted → first token (Answer.metrics.ttft_ms); parts are Answer.spans",
        "percentiles": "p50 = median, p95 = nearest rank (the maximum below 11 runs)",
        "library": library.name,
        "buckets": buckets,
        "prefix_reuse": reuse,
    }
    print_table(buckets, reuse)
    path = write_result("latency", result)
    plot = draw_latency_plot(buckets, PLOT, plot_title(result, time.strftime("%Y-%m-%d %H:%M")))
    print(f"wrote {path.relative_to(ROOT)} and {plot.relative_to(ROOT)}")
    return 0


def plot_title(result: dict[str, Any], when: str) -> str:
    loads = [r["load_average_1m"] for b in result["buckets"] for r in b["answers"]]
    return (
        f"{result['model']}, {result['n_threads_batch']} prefill / {result['n_threads']} decode threads, "
        f"{result['runs_per_bucket']} cold runs per bucket, {when}, "
        f"load average {min(loads, default=0):.1f}–{max(loads, default=0):.1f}"
    )


def replot() -> int:
    """Redraw the PNG from the last results/latency.json (its env record gives the time)."""
    result = json.loads((RESULTS / "latency.json").read_text(encoding="utf-8"))
    env = json.loads((RESULTS / "latency.env.json").read_text(encoding="utf-8"))
    when = env["taken_at"][:16].replace("T", " ")
    print(f"wrote {draw_latency_plot(result['buckets'], PLOT, plot_title(result, when)).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
