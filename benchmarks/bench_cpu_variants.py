"""Prefill and decode tok/s per llama.cpp CPU variant, side by side in one run (same model, prompt).

With a build of loadable CPU variants (GGML_BACKEND_DL + GGML_CPU_ALL_VARIANTS), each round runs
one fresh process per variant (FOLIO_CPU_VARIANT forces it; app/core/generate/cpu_kernels.py),
in turn, so that every variant meets the same machine minutes; medians over the rounds and the
ratio of each variant to the one this CPU would choose. Variants the CPU cannot run are listed
with score 0 and skipped. With a build of one fixed kernel set, that set alone is measured.

Usage: python benchmarks/bench_cpu_variants.py [--variants haswell,sse42,x64] [--rounds 3]
       [--prompt-tokens 512] [--decode-tokens 32]
Prints the figures and writes benchmarks/results/cpu_variants.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.generate.cpu_kernels import VARIANT_ENV  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402


def child(model: Path, prompt_tokens: int, decode_tokens: int) -> dict[str, Any]:
    """One process: load, prefill the prompt, decode greedily; the figures and what ran."""
    from app.core.generate.cpu_kernels import load_cpu_kernels
    from app.core.generate.engine import Engine
    from app.core.generate.model import Sampling
    from app.core.generate.steps import GenerationEnd, TokenStep
    from benchmarks.bench_generate import passages
    from benchmarks.bench_generate import prompt_tokens as make_prompt

    engine = Engine(model, n_ctx=4096)
    engine.load()
    tokens = make_prompt(engine, passages(prompt_tokens, engine), "What does the manual say about prefill?")
    end: GenerationEnd | None = None
    produced: list[int] = []
    with engine.lock:
        for event in engine.stream(tokens, Sampling(temperature=0.0, max_tokens=decode_tokens)):
            if isinstance(event, TokenStep):
                produced.append(event.token)
            else:
                end = event
    assert end is not None and end.error is None, end
    decode = None
    if end.first_token_at and end.last_token_at and end.completion_tokens > 1:
        decode = (end.completion_tokens - 1) / (end.last_token_at - end.first_token_at)
    import llama_cpp

    return {
        "kernels": load_cpu_kernels().to_json(),
        "prompt_tokens": len(tokens),
        "prefill_tok_s": end.prefill_tokens_per_s,
        "decode_tok_s": decode,
        "tokens": produced,
        "system_info": llama_cpp.llama_print_system_info().decode(),
    }


def run_child(variant: str | None, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    if variant:
        env[VARIANT_ENV] = variant
    command = [sys.executable, __file__, "--child", "--model", str(args.model)]
    command += ["--prompt-tokens", str(args.prompt_tokens), "--decode-tokens", str(args.decode_tokens)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    parser.add_argument("--variants", help="comma-separated; default: every variant this CPU runs")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--prompt-tokens", type=int, default=512)
    parser.add_argument("--decode-tokens", type=int, default=32)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.model, args.prompt_tokens, args.decode_tokens)))
        return 0
    probe = run_child(None, args)
    if "error" in probe:
        print(f"the chosen kernels failed: {probe['error']}")
        return 1
    chosen = probe["kernels"]["variant"]
    scores: dict[str, int] = probe["kernels"]["scores"]
    if args.variants:
        names = args.variants.split(",")
    else:
        names = [name for name, score in sorted(scores.items(), key=lambda s: -s[1]) if score > 0]
    names = names or [chosen]
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for n in range(args.rounds):
        for name in names if n % 2 == 0 else list(reversed(names)):
            run = run_child(None if name == "built-in" else name, args)
            runs[name].append(run)
            figures = (
                "failed: " + " ".join(run["error"])
                if "error" in run
                else (f"prefill {run['prefill_tok_s']:.1f} tok/s, decode {run['decode_tok_s']:.1f} tok/s")
            )
            print(f"round {n + 1}, {name}: {figures}", flush=True)
    table: dict[str, Any] = {}
    for name, results in runs.items():
        ok = [r for r in results if "error" not in r]
        table[name] = {
            "score": scores.get(name),
            "runs": len(ok),
            "errors": [r["error"] for r in results if "error" in r],
            "prefill_tok_s": spread([r["prefill_tok_s"] for r in ok if r["prefill_tok_s"]]),
            "decode_tok_s": spread([r["decode_tok_s"] for r in ok if r["decode_tok_s"]]),
            "same_tokens_as_chosen": bool(ok) and all(r["tokens"] == probe["tokens"] for r in ok),
            "system_info": ok[0]["system_info"] if ok else None,
        }
    base = table.get(chosen)
    for name, row in table.items():
        for figure in ("prefill_tok_s", "decode_tok_s"):
            if base and base[figure] and row[figure]:
                row[f"{figure}_over_chosen"] = row[figure]["median"] / base[figure]["median"]
        print(
            f"{name} (score {row['score']}): prefill {row['prefill_tok_s']}, decode {row['decode_tok_s']}, "
            f"× chosen prefill {row.get('prefill_tok_s_over_chosen', 0):.2f} "
            f"decode {row.get('decode_tok_s_over_chosen', 0):.2f}; same tokens {row['same_tokens_as_chosen']}"
        )
    write_result(
        "cpu_variants",
        {
            "model": args.model.name,
            "chosen": chosen,
            "scores": scores,
            "prompt_tokens": probe["prompt_tokens"],
            "decode_tokens": args.decode_tokens,
            "rounds": args.rounds,
            "variants": table,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
