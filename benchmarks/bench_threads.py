"""Thread policy: prefill and decode tok/s of raw llama-cpp-python for each (n_threads, n_threads_batch).

Usage: python benchmarks/bench_threads.py [--rounds 5] [--prompt-tokens 2000] [--decode-tokens 64]
       [--threads 1,2] [--batch-threads 1,2]
One model, one context; the thread counts change with llama_set_n_threads between runs, and the
order of the combinations rotates every round, so a load spike from other programs spreads over
all of them. Prints medians and spread, writes benchmarks/results/threads.json (+ .env.json).
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
from app.core.generate.threads import cpu_topology, default_batch_threads, default_threads  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

TEXT = (
    "Prefill evaluates the whole prompt at once and is bound by arithmetic; decode produces one "
    "token per step and is bound by memory bandwidth. Section {n} of the manual explains why. "
)


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "min": ordered[0], "max": ordered[-1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--prompt-tokens", type=int, default=2000)
    parser.add_argument("--decode-tokens", type=int, default=64)
    parser.add_argument("--threads", default="1,2", help="decode thread counts to try")
    parser.add_argument("--batch-threads", default="1,2", help="prefill thread counts to try")
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    args = parser.parse_args()

    import llama_cpp

    from app.core.generate.cpu_kernels import new_llama

    combos = [(int(t), int(b)) for t in args.threads.split(",") for b in args.batch_threads.split(",")]
    llm = new_llama(
        model_path=str(args.model), n_ctx=4096, n_batch=512, n_threads=1, n_threads_batch=1, verbose=False
    )
    text = "".join(TEXT.format(n=n) for n in range(400))
    prompt = llm.tokenize(text.encode(), add_bos=True)[: args.prompt_tokens]
    decode_input = prompt[1 : args.decode_tokens + 1]
    topology = cpu_topology()
    print(
        f"model {args.model.name}, prompt {len(prompt)} tokens, decode {args.decode_tokens} tokens; "
        f"cpu logical {topology.logical}, physical {topology.physical}, usable {topology.usable}; "
        f"load {os.getloadavg()[0]:.1f}"
    )
    llm.eval(prompt[:64])  # warm-up: weights paged in, graphs allocated
    llm.reset()

    prefill: dict[tuple[int, int], list[float]] = {c: [] for c in combos}
    decode: dict[tuple[int, int], list[float]] = {c: [] for c in combos}
    loads: list[float] = []
    for round_ in range(args.rounds):
        order = combos[round_ % len(combos) :] + combos[: round_ % len(combos)]
        for threads, batch in order:
            llama_cpp.llama_set_n_threads(llm.ctx, threads, batch)
            llm.reset()
            started = time.perf_counter()
            llm.eval(prompt)
            prefill[(threads, batch)].append(len(prompt) / (time.perf_counter() - started))
            started = time.perf_counter()
            for token in decode_input:  # one token per step: exactly what decode evaluates
                llm.eval([token])
            decode[(threads, batch)].append(len(decode_input) / (time.perf_counter() - started))
        loads.append(os.getloadavg()[0])
        print(
            f"round {round_ + 1}: "
            + ", ".join(
                f"t{t}/b{b} prefill {prefill[(t, b)][-1]:.0f} decode {decode[(t, b)][-1]:.0f}"
                for t, b in combos
            )
            + f" (load {loads[-1]:.1f})"
        )
    llm.close()

    rows: list[dict[str, Any]] = []
    base = statistics.median(prefill[combos[0]])
    base_decode = statistics.median(decode[combos[0]])
    print(f"\n{'n_threads':>9} {'n_threads_batch':>15} {'prefill tok/s':>22} {'decode tok/s':>20}")
    for combo in combos:
        p, d = spread(prefill[combo]), spread(decode[combo])
        rows.append(
            {
                "n_threads": combo[0],
                "n_threads_batch": combo[1],
                "prefill_tokens_per_s": p,
                "decode_tokens_per_s": d,
                "prefill_vs_first": p["median"] / base,
                "decode_vs_first": d["median"] / base_decode,
                "prefill_runs": prefill[combo],
                "decode_runs": decode[combo],
            }
        )
        prefill_text = f"{p['median']:.0f} ({p['min']:.0f}-{p['max']:.0f}) x{p['median'] / base:.2f}"
        decode_text = f"{d['median']:.0f} ({d['min']:.0f}-{d['max']:.0f}) x{d['median'] / base_decode:.2f}"
        print(f"{combo[0]:>9} {combo[1]:>15} {prefill_text:>22} {decode_text:>20}")
    result = {
        "model": args.model.name,
        "prompt_tokens": len(prompt),
        "decode_tokens": len(decode_input),
        "rounds": args.rounds,
        "load_average_per_round": loads,
        "topology": {"logical": topology.logical, "physical": topology.physical, "usable": topology.usable},
        "defaults": {
            "n_threads": default_threads(topology),
            "n_threads_batch": default_batch_threads(topology),
        },
        "combinations": rows,
    }
    print(f"wrote {write_result('threads', result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
