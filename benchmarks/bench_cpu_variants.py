"""Prefill and decode tok/s per llama.cpp CPU variant, side by side in one run (same model, prompt).

With a build of loadable CPU variants (GGML_BACKEND_DL + GGML_CPU_ALL_VARIANTS), each round runs
one fresh process per variant (FOLIO_CPU_VARIANT forces it; app/core/generate/cpu_kernels.py),
in turn, so that every variant meets the same machine minutes; medians over the rounds. Variants
the CPU cannot run are listed with score 0 and skipped. With a build of one fixed kernel set, that
set alone is measured. `--build NAME=PYTHON` adds another build (the python of another venv, e.g.
an AVX2-only build), run with its own kernels in the same rounds; this repository's code runs in
every child, so only the llama.cpp build differs.

Besides tok/s (wall time), each phase is counted in tokens per CPU-second: the child's own
user + system time (os.times()) over the prefill and over the decode. On a shared machine the wall
rates swing with the other jobs; the CPU-time rates much less. Ratios are to `--baseline` (default:
the first `--build`, else the variant this CPU would choose).

Usage: python benchmarks/bench_cpu_variants.py [--variants zen4,haswell,x64] [--rounds 3]
       [--prompt-tokens 512] [--decode-tokens 32] [--build built-in=/path/to/venv/bin/python]
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
    cpu_start = cpu_seconds()
    cpu_marks: list[float] = []  # the CPU time at each token: the first ends the prefill
    with engine.lock:
        for event in engine.stream(tokens, Sampling(temperature=0.0, max_tokens=decode_tokens)):
            if isinstance(event, TokenStep):
                cpu_marks.append(cpu_seconds())
                produced.append(event.token)
            else:
                end = event
    assert end is not None and end.error is None, end
    decode = decode_cpu = None
    if end.first_token_at and end.last_token_at and end.completion_tokens > 1:
        decode = (end.completion_tokens - 1) / (end.last_token_at - end.first_token_at)
    if len(cpu_marks) > 1 and cpu_marks[-1] > cpu_marks[0]:
        decode_cpu = (len(cpu_marks) - 1) / (cpu_marks[-1] - cpu_marks[0])
    prefilled = end.prompt_tokens - end.cached_tokens
    prefill_cpu = prefilled / (cpu_marks[0] - cpu_start) if cpu_marks and cpu_marks[0] > cpu_start else None
    import llama_cpp

    import app

    return {
        "kernels": load_cpu_kernels().to_json(),
        "llama_cpp": llama_cpp.__file__,
        "app": app.__file__,
        "prompt_tokens": len(tokens),
        "prefill_tok_s": end.prefill_tokens_per_s,
        "decode_tok_s": decode,
        "prefill_tok_per_cpu_s": prefill_cpu,
        "decode_tok_per_cpu_s": decode_cpu,
        "tokens": produced,
        "system_info": llama_cpp.llama_print_system_info().decode(),
    }


def cpu_seconds() -> float:
    """This process's CPU time so far, every thread, user + system."""
    times = os.times()
    return times.user + times.system


def run_child(variant: str | None, args: argparse.Namespace, python: str = sys.executable) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop(VARIANT_ENV, None)
    if variant:
        env[VARIANT_ENV] = variant
    command = [python, __file__, "--child", "--model", str(args.model)]
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


FIGURES = ("prefill_tok_s", "prefill_tok_per_cpu_s", "decode_tok_s", "decode_tok_per_cpu_s")


def other_build(text: str) -> tuple[str, str]:
    """`NAME=PYTHON` of --build."""
    name, sep, python = text.partition("=")
    if not sep or not name or not python:
        raise argparse.ArgumentTypeError(f"--build takes NAME=PYTHON, not {text!r}")
    return name, python


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    parser.add_argument("--variants", help="comma-separated; default: every variant this CPU runs")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--prompt-tokens", type=int, default=512)
    parser.add_argument("--decode-tokens", type=int, default=32)
    parser.add_argument(
        "--build", type=other_build, action="append", default=[], metavar="NAME=PYTHON",
        help="another build to measure in the same rounds: the python of its venv (repeatable)",
    )  # fmt: skip
    parser.add_argument("--baseline", help="the name the ratios are to (default: the first --build)")
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
    # what each name runs: this python with a variant forced (None: its built-in kernels), or another build
    entries: dict[str, tuple[str, str | None]] = {
        name: (sys.executable, None if name == "built-in" else name) for name in names
    }
    for name, python in args.build:
        if name in entries:
            parser.error(f"--build {name}: the name is taken")
        entries[name] = (python, None)
    order = list(entries)
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in order}
    for n in range(args.rounds):
        for name in order if n % 2 == 0 else list(reversed(order)):
            python, variant = entries[name]
            run = run_child(variant, args, python)
            runs[name].append(run)
            figures = (
                "failed: " + " ".join(run["error"])
                if "error" in run
                else (
                    f"prefill {run['prefill_tok_s']:.1f} tok/s {run['prefill_tok_per_cpu_s']:.1f} tok/CPU-s, "
                    f"decode {run['decode_tok_s']:.1f} tok/s {run['decode_tok_per_cpu_s']:.1f} tok/CPU-s "
                    f"({run['kernels']['variant']})"
                )
            )
            print(f"round {n + 1}, {name}: {figures}", flush=True)
    table: dict[str, Any] = {}
    for name, results in runs.items():
        ok = [r for r in results if "error" not in r]
        table[name] = {
            "python": entries[name][0],
            "kernels": ok[0]["kernels"]["variant"] if ok else None,
            "score": scores.get(name),
            "runs": len(ok),
            "errors": [r["error"] for r in results if "error" in r],
            **{figure: spread([r[figure] for r in ok if r[figure]]) for figure in FIGURES},
            "same_tokens_as_chosen": bool(ok) and all(r["tokens"] == probe["tokens"] for r in ok),
            "llama_cpp": ok[0]["llama_cpp"] if ok else None,
            "system_info": ok[0]["system_info"] if ok else None,
        }
    baseline = args.baseline or (args.build[0][0] if args.build else chosen)
    base = table.get(baseline)
    print(f"medians over {args.rounds} rounds; ratios to {baseline}")
    heads = ("prefill tok/s", "tok/CPU-s", "decode tok/s", "tok/CPU-s")
    print(f"{'':12} {heads[0]:>14} {heads[1]:>10} {heads[2]:>13} {heads[3]:>10}   ratios (CPU-s)")
    for name, row in table.items():
        for figure in FIGURES:
            if base and base[figure] and row[figure]:
                row[f"{figure}_over_baseline"] = row[figure]["median"] / base[figure]["median"]
        medians = [f"{row[f]['median']:.1f}" if row[f] else "-" for f in FIGURES]
        print(
            f"{name:12} {medians[0]:>14} {medians[1]:>10} {medians[2]:>13} {medians[3]:>10}   "
            f"prefill ×{row.get('prefill_tok_per_cpu_s_over_baseline', 0):.2f} "
            f"decode ×{row.get('decode_tok_per_cpu_s_over_baseline', 0):.2f}; "
            f"same tokens as {chosen}: {row['same_tokens_as_chosen']}"
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
            "baseline": baseline,
            "variants": table,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
