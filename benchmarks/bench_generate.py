"""Generation overhead: Folio's stream against a raw llama-cpp-python loop, and prefix reuse.

Same model, prompt, seed, threads and max tokens; cold runs alternated A B / B A over --pairs pairs;
ratios ours/raw of decode tok/s and TTFT with medians and range. Then TTFT cold vs a follow-up.
Usage: python benchmarks/bench_generate.py [--pairs 5] [--prompt-tokens 1000] [--tokens 64]
Prints the figures and writes benchmarks/results/generate.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.generate.engine import Engine  # noqa: E402
from app.core.generate.model import Sampling  # noqa: E402
from app.core.generate.steps import GenerationEnd, TokenStep  # noqa: E402
from app.core.generate.textstream import ChannelSplitter, Utf8Stream  # noqa: E402
from app.core.generate.threads import prefer_passive_openmp  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from app.core.prompt.budget import build_messages  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

TOPICS = [
    "prefill evaluates the whole prompt at once and decides the time to first token",
    "decode produces one token per step and is bound by memory bandwidth",
    "the KV cache keeps keys and values of earlier tokens so they are not recomputed",
    "a shared prompt prefix can be reused when the next question follows the last one",
    "sampling with a low temperature keeps grounded answers close to the passages",
    "citations point to the page of the passage that supports each claim",
]


def passages(target_tokens: int, engine: Engine) -> list[Hit]:
    """Numbered passages totalling about `target_tokens` model tokens."""
    hits: list[Hit] = []
    total = 0
    n = 0
    while total < target_tokens:
        topic = TOPICS[n % len(TOPICS)]
        text = " ".join(f"Section {n}.{i}: in this manual, {topic}." for i in range(6))
        hits.append(
            Hit(n + 1, 1, "manual.pdf", "/bench/manual.pdf", n + 1, n + 1, 0, len(text), text, 0.1, 0.6)
        )
        total += engine.count_tokens(text) + 12
        n += 1
    return hits


def prompt_tokens(engine: Engine, hits: list[Hit], question: str) -> list[int]:
    rendered = engine.render_chat(build_messages(question, hits, []), enable_thinking=False)
    return engine.tokenize_prompt(rendered)


def run_stream(engine: Engine, tokens: list[int], sampling: Sampling) -> tuple[GenerationEnd, float, int]:
    """Folio's path: prefill (prefix reuse), decode, incremental detokenise, stop/thinking split."""
    started = time.perf_counter()
    end: GenerationEnd | None = None
    chars = 0
    with engine.lock:
        for event in engine.stream(tokens, sampling):
            if isinstance(event, TokenStep):
                chars += sum(len(text) for _, text in event.pieces)
            else:
                end = event
    assert end is not None
    return end, started, chars


def run_raw(engine: Engine, tokens: list[int], sampling: Sampling) -> tuple[float, float, float, int]:
    """The raw llama-cpp-python token loop on the same prompt, seed and threads (same Llama object)."""
    import llama_cpp

    llm = engine._llm
    vocab = llm._model.vocab
    started = time.perf_counter()
    llm.set_seed(sampling.seed)
    first = last = 0.0
    count = 0
    with engine.lock:
        for token in llm.generate(
            tokens,
            top_k=sampling.top_k,
            top_p=sampling.top_p,
            min_p=sampling.min_p,
            temp=sampling.temperature,
            repeat_penalty=sampling.repeat_penalty,
        ):
            now = time.perf_counter()
            if count == 0:
                first = now
            if llama_cpp.llama_vocab_is_eog(vocab, token):
                break
            last = now
            count += 1
            if count >= sampling.max_tokens:
                break
    return started, first, last, count


def decode_rate(first: float, last: float, count: int) -> float:
    return (count - 1) / (last - first) if count > 1 and last > first else 0.0


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "min": ordered[0], "max": ordered[-1]}


def cold(engine: Engine) -> None:
    """Forget the KV cache: the next run evaluates the whole prompt (TTFT = prefill + first step)."""
    with engine.lock:
        engine._llm.reset()


def paired_runs(engine: Engine, prompt: list[int], sampling: Sampling, pairs: int) -> dict[str, Any]:
    """Folio's stream (A) and the raw loop (B), cold each time, alternated A B, B A, ... so that a
    load change on the machine falls on both; ratios are A / B per pair (≥ 1 for decode is better,
    ≤ 1 for TTFT is better)."""
    runs: dict[str, dict[str, list[float]]] = {p: {"ttft_ms": [], "decode": [], "tokens": []} for p in "AB"}
    for pair in range(pairs):
        for path in ("A", "B") if pair % 2 == 0 else ("B", "A"):
            cold(engine)
            if path == "A":
                end, started, _ = run_stream(engine, prompt, sampling)
                first, last, count = (
                    end.first_token_at or 0.0,
                    end.last_token_at or 0.0,
                    end.completion_tokens,
                )
            else:
                started, first, last, count = run_raw(engine, prompt, sampling)
            runs[path]["ttft_ms"].append((first - started) * 1000.0)
            runs[path]["decode"].append(decode_rate(first, last, count))
            runs[path]["tokens"].append(count)
        a, b = runs["A"], runs["B"]
        print(
            f"pair {pair + 1}: ttft ours {a['ttft_ms'][-1]:.0f} ms raw {b['ttft_ms'][-1]:.0f} ms; decode "
            f"ours {a['decode'][-1]:.1f} raw {b['decode'][-1]:.1f} tok/s (load {os.getloadavg()[0]:.1f})"
        )
    a, b = runs["A"], runs["B"]
    decode_ratio = [x / y for x, y in zip(a["decode"], b["decode"], strict=True) if y > 0]
    ttft_ratio = [x / y for x, y in zip(a["ttft_ms"], b["ttft_ms"], strict=True) if y > 0]
    return {
        "pairs": pairs,
        "ours": {"ttft_ms": spread(a["ttft_ms"]), "decode_tokens_per_s": spread(a["decode"])},
        "raw": {"ttft_ms": spread(b["ttft_ms"]), "decode_tokens_per_s": spread(b["decode"])},
        "decode_ratio_ours_over_raw": spread(decode_ratio),
        "ttft_ratio_ours_over_raw": spread(ttft_ratio),
        "completion_tokens_ours": a["tokens"],
        "completion_tokens_raw": b["tokens"],
        "runs": runs,
    }


def per_token_overhead(n_tokens: int = 20000) -> dict[str, float]:
    """Python cost per token of the text path (UTF-8 + stops + think split), early vs late in a stream."""
    pieces = [" word", " 模", "型", " [1]", ".", "\n"]
    data = [piece.encode() for piece in pieces]
    utf8, splitter = Utf8Stream(), ChannelSplitter(stops=["<|im_end|>", "<|im_start|>"])
    times: list[float] = []
    for i in range(n_tokens):
        t = time.perf_counter_ns()
        splitter.feed(utf8.feed(data[i % len(data)]))
        times.append((time.perf_counter_ns() - t) / 1000.0)
    window = 2000
    return {
        "tokens": n_tokens,
        "first_window_us_per_token": statistics.median(times[:window]),
        "last_window_us_per_token": statistics.median(times[-window:]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=5, help="cold A B pairs (Folio, raw)")
    parser.add_argument("--ttft-rounds", type=int, default=2, help="cold + follow-up TTFT pairs")
    parser.add_argument("--tokens", type=int, default=64, help="decode tokens per run")
    parser.add_argument("--threads", type=int, default=0, help="decode threads (0 = Folio's default)")
    parser.add_argument("--threads-batch", type=int, default=0, help="prefill threads (0 = default)")
    parser.add_argument("--prompt-tokens", type=int, default=1000)
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    args = parser.parse_args()

    prefer_passive_openmp()
    engine = Engine(args.model, n_ctx=4096, n_threads=args.threads, n_threads_batch=args.threads_batch)
    info = engine.load()
    hits = passages(args.prompt_tokens - 150, engine)
    cold_prompt = prompt_tokens(engine, hits, "Explain in detail why the first token takes long to appear.")
    follow_prompt = prompt_tokens(engine, hits, "And what makes each later token faster?")
    shared = next(i for i, (a, b) in enumerate(zip(cold_prompt, follow_prompt, strict=False)) if a != b)
    sampling = Sampling(temperature=0.2, seed=42, max_tokens=args.tokens, repeat_penalty=1.1)
    print(
        f"model {info.name}, threads decode {engine.n_threads} prefill {engine.n_threads_batch}, "
        f"prompt {len(cold_prompt)} tokens ({shared} shared), load {os.getloadavg()[0]:.1f}"
    )
    run_stream(engine, cold_prompt[:64], Sampling(max_tokens=4))  # warm-up: weights, graphs

    paired = paired_runs(engine, cold_prompt, sampling, args.pairs)
    ttft_cold: list[float] = []
    ttft_follow: list[float] = []
    reused: list[int] = []
    for round_ in range(args.ttft_rounds):
        # prefix reuse: a cold question, then a follow-up over the same passages
        cold(engine)
        end, started, _ = run_stream(engine, cold_prompt, Sampling(max_tokens=1))
        assert end.first_token_at is not None
        ttft_cold.append((end.first_token_at - started) * 1000.0)
        end, started, _ = run_stream(engine, follow_prompt, Sampling(max_tokens=1))
        assert end.first_token_at is not None
        ttft_follow.append((end.first_token_at - started) * 1000.0)
        reused.append(end.cached_tokens)
        print(f"ttft round {round_ + 1}: cold {ttft_cold[-1]:.0f} ms, follow-up {ttft_follow[-1]:.0f} ms")

    overhead = per_token_overhead()
    result: dict[str, Any] = {
        "model": info.name,
        "n_threads": engine.n_threads,
        "n_threads_batch": engine.n_threads_batch,
        "n_ctx": info.n_ctx,
        "prompt_tokens": len(cold_prompt),
        "follow_up_prompt_tokens": len(follow_prompt),
        "shared_prefix_tokens": shared,
        "decode_tokens_per_run": args.tokens,
        "ours_vs_raw": paired,
        "prefix_reuse": {
            "cold_ttft_ms": spread(ttft_cold) if ttft_cold else None,
            "follow_up_ttft_ms": spread(ttft_follow) if ttft_follow else None,
            "follow_up_over_cold": statistics.median(ttft_follow) / statistics.median(ttft_cold)
            if ttft_cold
            else None,
            "follow_up_reused_tokens": reused,
        },
        "text_path_overhead": overhead,
    }
    path = write_result("generate", result)
    d, t = paired["decode_ratio_ours_over_raw"], paired["ttft_ratio_ours_over_raw"]
    print(f"decode tok/s ours/raw: median {d['median']:.3f} (range {d['min']:.3f}-{d['max']:.3f})")
    print(f"TTFT ours/raw: median {t['median']:.3f} (range {t['min']:.3f}-{t['max']:.3f})")
    if ttft_cold:
        print(
            f"prefix reuse: cold {statistics.median(ttft_cold):.0f} ms, follow-up "
            f"{statistics.median(ttft_follow):.0f} ms"
        )
    print(
        f"text path: {overhead['first_window_us_per_token']:.2f} µs/token early, "
        f"{overhead['last_window_us_per_token']:.2f} µs/token after {overhead['tokens']} tokens"
    )
    print(f"wrote {path}")
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
