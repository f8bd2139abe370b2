"""Flash attention on or off for an f16 KV cache: prefill and decode tok/s by prompt length, same tokens.

Usage: python benchmarks/bench_flash_attention.py [--rounds 3] [--lengths 1024,2048,4096]
       [--decode-tokens 32] [--model GGUF]
Two contexts of one model stay loaded side by side (llama.cpp's flash-attention kernels, and its
attention as separate matrix products), through Folio's own loader (the CPU kernels it picks). Each
round evaluates every prompt length in both, in an order that alternates between rounds, then decodes
greedily from the prompt; the greedy tokens of the two are compared. Prints medians (min-max) and the
ratio flash / plain, writes benchmarks/results/flash_attention.json (+ .env.json).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.generate.threads import default_batch_threads, default_threads  # noqa: E402
from benchmarks.bench_generate import spread  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

SETTINGS = {"plain": False, "flash": True}
TEXT = (
    "Section {n}. When the grinder stops before the cup is full, error E{m} shows on the panel: empty "
    "the bean hopper, clean the burrs, and descale every {c} cups; the tank holds 1.8 L. "
)


def greedy(llm: Any, prompt: list[int], tokens: int) -> tuple[float, float, list[int]]:
    """Prefill tok/s of `prompt`, then decode tok/s and the tokens of `tokens` greedy steps."""
    llm.reset()
    started = time.perf_counter()
    for start in range(0, len(prompt), llm.n_batch):
        llm.eval(prompt[start : start + llm.n_batch])
    prefill = len(prompt) / (time.perf_counter() - started)
    out: list[int] = []
    started = time.perf_counter()
    for _ in range(tokens):
        token = llm.sample(temp=0.0)
        out.append(token)
        llm.eval([token])
    return prefill, tokens / (time.perf_counter() - started), out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--lengths", default="1024,2048,4096", help="prompt tokens")
    parser.add_argument("--decode-tokens", type=int, default=32)
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    args = parser.parse_args()
    lengths = [int(n) for n in args.lengths.split(",")]

    from app.core.generate.cpu_kernels import load_cpu_kernels, new_llama

    n_ctx = max(lengths) + args.decode_tokens + 64
    llms = {
        name: new_llama(
            model_path=str(args.model),
            n_ctx=n_ctx,
            n_batch=512,
            n_threads=default_threads(),
            n_threads_batch=default_batch_threads(),
            flash_attn=flash,
            verbose=False,
        )
        for name, flash in SETTINGS.items()
    }
    text = "".join(TEXT.format(n=n, m=n % 9, c=7 * n) for n in range(600))
    prompt = llms["plain"].tokenize(text.encode(), add_bos=True)
    if len(prompt) < max(lengths):
        raise SystemExit(f"the text makes only {len(prompt)} tokens")
    print(
        f"model {args.model.name}, kernels {load_cpu_kernels().variant or 'built-in'}, "
        f"threads {default_threads()}/{default_batch_threads()}, lengths {lengths}, "
        f"decode {args.decode_tokens}; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for llm in llms.values():  # warm-up: weights paged in, graphs allocated
        greedy(llm, prompt[:64], 2)

    runs: dict[tuple[str, int], dict[str, list[float]]] = {
        (name, n): {"prefill": [], "decode": []} for name in SETTINGS for n in lengths
    }
    same: dict[int, bool] = {}
    loads: list[float] = []
    for round_ in range(args.rounds):
        order = list(SETTINGS) if round_ % 2 == 0 else list(reversed(SETTINGS))
        for n in lengths:
            tokens: dict[str, list[int]] = {}
            for name in order:
                prefill, decode, tokens[name] = greedy(llms[name], prompt[:n], args.decode_tokens)
                runs[(name, n)]["prefill"].append(prefill)
                runs[(name, n)]["decode"].append(decode)
            same[n] = same.get(n, True) and tokens["plain"] == tokens["flash"]
        loads.append(os.getloadavg()[0])
        print(
            f"round {round_ + 1}: "
            + ", ".join(
                f"{name}@{n} {runs[(name, n)]['prefill'][-1]:.0f}/{runs[(name, n)]['decode'][-1]:.1f}"
                for n in lengths
                for name in SETTINGS
            )
            + f" tok/s prefill/decode (load {loads[-1]:.1f})",
            flush=True,
        )
    for llm in llms.values():
        llm.close()

    rows: list[dict[str, Any]] = []
    print(
        f"\n{'tokens':>6} {'prefill plain':>16} {'prefill flash':>16} {'x':>5} "
        f"{'decode plain':>14} {'decode flash':>14} {'x':>5} same tokens"
    )
    for n in lengths:
        plain, flash = runs[("plain", n)], runs[("flash", n)]
        p0, p1 = spread(plain["prefill"]), spread(flash["prefill"])
        d0, d1 = spread(plain["decode"]), spread(flash["decode"])
        row = {
            "prompt_tokens": n,
            "prefill_plain": p0,
            "prefill_flash": p1,
            "prefill_ratio": p1["median"] / p0["median"],
            "decode_plain": d0,
            "decode_flash": d1,
            "decode_ratio": d1["median"] / d0["median"],
            "same_greedy_tokens": same[n],
            "runs": {name: runs[(name, n)] for name in SETTINGS},
        }
        rows.append(row)
        print(
            f"{n:>6} {p0['median']:>7.0f} ({p0['min']:.0f}-{p0['max']:.0f}) {p1['median']:>7.0f} "
            f"({p1['min']:.0f}-{p1['max']:.0f}) {row['prefill_ratio']:>5.2f} {d0['median']:>14.1f} "
            f"{d1['median']:>14.1f} {row['decode_ratio']:>5.2f} {'yes' if same[n] else 'no'}"
        )
    write_result(
        "flash_attention",
        {
            "model": args.model.name,
            "kernels": load_cpu_kernels().to_json(),
            "decode_tokens": args.decode_tokens,
            "rounds": args.rounds,
            "load_average_per_round": loads,
            "rows": rows,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
