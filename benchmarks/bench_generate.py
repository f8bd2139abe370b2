"""Generation benchmark: decode tok/s of Folio's stream vs a raw Llama.generate loop, TTFT cold vs follow-up.

Usage: .venv/bin/python benchmarks/bench_generate.py [--rounds 5] [--tokens 128] [--threads 2]
Prints the figures and writes benchmarks/results/generate.json. Never run by the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.generate.engine import Engine, GenerationEnd, TokenStep, default_threads  # noqa: E402
from app.core.generate.model import Sampling  # noqa: E402
from app.core.generate.textstream import ChannelSplitter, Utf8Stream  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from app.core.prompt.budget import build_messages  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "generate.json"
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
    """The raw llama-cpp-python token loop on the same prompt, seed and threads."""
    import llama_cpp

    llm = engine._llm
    vocab = llm._model.vocab
    llm.set_seed(sampling.seed)
    started = time.perf_counter()
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
            if llama_cpp.llama_vocab_is_eog(vocab, token):
                break
            if count == 0:
                first = now
            last = now
            count += 1
            if count >= sampling.max_tokens:
                break
    return started, first, last, count


def decode_rate(first: float, last: float, count: int) -> float:
    return (count - 1) / (last - first) if count > 1 and last > first else 0.0


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
    parser.add_argument("--rounds", type=int, default=9, help="paired decode runs (ours, raw)")
    parser.add_argument("--ttft-rounds", type=int, default=3, help="cold + follow-up TTFT pairs")
    parser.add_argument("--tokens", type=int, default=128, help="decode tokens per run")
    parser.add_argument("--threads", type=int, default=default_threads())
    parser.add_argument("--prompt-tokens", type=int, default=2000)
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    args = parser.parse_args()

    engine = Engine(args.model, n_ctx=4096, n_threads=args.threads)
    info = engine.load()
    llm = engine._llm
    hits = passages(args.prompt_tokens - 150, engine)
    cold_prompt = prompt_tokens(engine, hits, "Explain in detail why the first token takes long to appear.")
    follow_prompt = prompt_tokens(engine, hits, "And what makes each later token faster?")
    shared = next(i for i, (a, b) in enumerate(zip(cold_prompt, follow_prompt, strict=False)) if a != b)
    sampling = Sampling(temperature=0.2, seed=42, max_tokens=args.tokens, repeat_penalty=1.1)
    print(f"model {info.name}, threads {args.threads}, prompt {len(cold_prompt)} tokens ({shared} shared)")

    # warm-up: page the weights in, allocate graphs
    run_stream(engine, cold_prompt, Sampling(max_tokens=8))

    ours: list[float] = []
    raw: list[float] = []
    counts: list[tuple[int, int]] = []
    ttft_cold: list[float] = []
    ttft_follow: list[float] = []
    prefill_rates: list[float] = []
    reused: list[int] = []
    for round_ in range(args.rounds):
        # decode: alternate which path goes first; both decode after the same (cached) prompt
        for path in ("ours", "raw") if round_ % 2 == 0 else ("raw", "ours"):
            if path == "ours":
                end, _, _ = run_stream(engine, cold_prompt, sampling)
                first, last = end.first_token_at or 0.0, end.last_token_at or 0.0
                ours.append(decode_rate(first, last, end.completion_tokens))
                ours_count = end.completion_tokens
            else:
                _, first, last, count = run_raw(engine, cold_prompt, sampling)
                raw.append(decode_rate(first, last, count))
                raw_count = count
        counts.append((ours_count, raw_count))
        print(f"decode round {round_ + 1}: ours {ours[-1]:.1f} tok/s, raw {raw[-1]:.1f} tok/s")
    for round_ in range(args.ttft_rounds):
        # TTFT: cold (nothing cached) then a follow-up question over the same passages
        with engine.lock:
            llm.reset()
        end, started, _ = run_stream(engine, cold_prompt, Sampling(max_tokens=1))
        assert end.first_token_at is not None and end.prefill_tokens_per_s is not None
        ttft_cold.append((end.first_token_at - started) * 1000.0)
        prefill_rates.append(end.prefill_tokens_per_s)
        end, started, _ = run_stream(engine, follow_prompt, Sampling(max_tokens=1))
        assert end.first_token_at is not None
        ttft_follow.append((end.first_token_at - started) * 1000.0)
        reused.append(end.cached_tokens)
        print(f"ttft round {round_ + 1}: cold {ttft_cold[-1]:.0f} ms, follow-up {ttft_follow[-1]:.0f} ms")

    overhead = per_token_overhead()
    result: dict[str, Any] = {
        "model": info.name,
        "threads": args.threads,
        "n_ctx": info.n_ctx,
        "prompt_tokens": len(cold_prompt),
        "follow_up_prompt_tokens": len(follow_prompt),
        "shared_prefix_tokens": shared,
        "decode_tokens_per_run": args.tokens,
        "rounds": args.rounds,
        "ttft_rounds": args.ttft_rounds,
        "decode_tokens_per_s": {
            "ours_median": statistics.median(ours),
            "raw_median": statistics.median(raw),
            "ratio": statistics.median(ours) / statistics.median(raw),
            "paired_ratio_median": statistics.median(o / r for o, r in zip(ours, raw, strict=True)),
            "ours": ours,
            "raw": raw,
            "completion_tokens_ours_raw": counts,
        },
        "ttft_ms": {
            "cold_median": statistics.median(ttft_cold),
            "follow_up_median": statistics.median(ttft_follow),
            "cold": ttft_cold,
            "follow_up": ttft_follow,
            "follow_up_reused_tokens": reused,
        },
        "prefill_tokens_per_s_median": statistics.median(prefill_rates),
        "text_path_overhead": overhead,
        "machine": {
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        },
        "command": " ".join([".venv/bin/python", "benchmarks/bench_generate.py", *sys.argv[1:]]),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    d, t = result["decode_tokens_per_s"], result["ttft_ms"]
    print(
        f"decode tok/s: ours {d['ours_median']:.1f}, raw {d['raw_median']:.1f}, ratio of medians "
        f"{d['ratio']:.3f}, median paired ratio {d['paired_ratio_median']:.3f}"
    )
    print(f"ttft: cold {t['cold_median']:.0f} ms, follow-up {t['follow_up_median']:.0f} ms")
    print(f"prefill: {result['prefill_tokens_per_s_median']:.0f} tok/s")
    print(
        f"text path: {overhead['first_window_us_per_token']:.2f} µs/token early, "
        f"{overhead['last_window_us_per_token']:.2f} µs/token after {overhead['tokens']} tokens"
    )
    print(f"wrote {RESULTS}")
    engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
