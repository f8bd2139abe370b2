"""Determinism: the same prompt at temperature 0, three times, then under other batch sizes and thread
counts; which settings keep the answer's tokens bit-identical.

Usage: python benchmarks/bench_determinism.py [--model GGUF] [--prompt-tokens 600] [--tokens 48]
Every run is cold (KV cache reset, so the whole prompt is evaluated again). Prints one line per
configuration (identical, or the index of the first token that differs from the reference run) and
writes benchmarks/results/determinism.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.generate.engine import Engine  # noqa: E402
from app.core.generate.model import Sampling  # noqa: E402
from app.core.generate.steps import TokenStep  # noqa: E402
from benchmarks.bench_generate import cold, passages, prompt_tokens  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

QUESTION = "What decides the time to first token, and what does the KV cache keep?"
# (decode threads, prefill threads, n_batch): the reference first, then one change at a time
CONFIGS = [(1, 2, 512), (1, 2, 512), (1, 2, 512), (1, 2, 64), (1, 2, 128), (1, 1, 512), (2, 2, 512)]


def generate(engine: Engine, tokens: list[int], sampling: Sampling) -> list[int]:
    cold(engine)
    out: list[int] = []
    with engine.lock:
        for event in engine.stream(tokens, sampling):
            if isinstance(event, TokenStep):
                out.append(event.token)
    return out


def first_difference(a: list[int], b: list[int]) -> int | None:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=None, help="GGUF (default: the fast model)")
    parser.add_argument("--prompt-tokens", type=int, default=600)
    parser.add_argument("--tokens", type=int, default=48)
    args = parser.parse_args(argv)
    model = args.model or paths.models_dir() / paths.FAST_CHAT_MODEL_FILE
    sampling = Sampling(temperature=0.0, seed=42, max_tokens=args.tokens)
    reference: list[int] | None = None
    rows: list[dict[str, Any]] = []
    engines: dict[tuple[int, int, int], Engine] = {}
    prompt: list[int] | None = None
    for threads, batch_threads, n_batch in CONFIGS:
        key = (threads, batch_threads, n_batch)
        if key not in engines:
            for engine in engines.values():
                engine.close()
            engines = {key: Engine(model, 4096, threads, 0, n_batch=n_batch, n_threads_batch=batch_threads)}
            engines[key].load()
        engine = engines[key]
        if prompt is None:
            prompt = prompt_tokens(engine, passages(args.prompt_tokens, engine), QUESTION)
        tokens = generate(engine, prompt, sampling)
        if reference is None:
            reference = tokens
        differs = first_difference(reference, tokens)
        row = {
            "n_threads": threads,
            "n_threads_batch": batch_threads,
            "n_batch": n_batch,
            "tokens": len(tokens),
            "identical": differs is None,
            "first_difference": differs,
        }
        rows.append(row)
        verdict = "identical" if differs is None else f"differs from token {differs}"
        print(
            f"threads {threads} / prefill {batch_threads} / n_batch {n_batch:4}: "
            f"{len(tokens)} tokens, {verdict}"
        )
    for engine in engines.values():
        engine.close()
    path = write_result(
        "determinism",
        {"model": model.name, "prompt_tokens": len(prompt or []), "max_tokens": args.tokens, "runs": rows},
    )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
