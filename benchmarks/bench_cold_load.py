"""A cold process's model load, as `folio ask` pays it before prefill: with the prefill rate stored
by an earlier run (generate/rate_store.py) against an empty cache dir (the calibration prompt runs).

Each round starts two fresh processes in turn (order alternated): import, Engine.load() (llama.cpp
load, chat template, KV shape) and Engine.prefill_rate(); their wall times, medians and the ratio
stored/empty per round. Usage: python benchmarks/bench_cold_load.py [--rounds 5] [--model PATH]
Prints the figures and writes benchmarks/results/cold_load.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402


def child(model: Path) -> dict[str, float]:
    started = time.perf_counter()
    from app.core.generate.engine import Engine

    engine = Engine(model)
    engine.load()
    loaded = time.perf_counter()
    with engine.lock:
        engine.prefill_rate()
    return {"load_s": loaded - started, "rate_s": time.perf_counter() - loaded}


def run(model: Path, cache_dir: Path) -> dict[str, float]:
    env = {**os.environ, "FOLIO_CACHE_DIR": str(cache_dir)}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--child", "--model", str(model)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return {**figures, "wall_s": time.perf_counter() - started}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.model)))
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        stored_dir = Path(scratch) / "stored"
        run(args.model, stored_dir)  # measures once and stores the rate
        runs: dict[str, list[dict[str, float]]] = {"stored": [], "empty": []}
        for n in range(args.rounds):
            for kind in ("stored", "empty") if n % 2 == 0 else ("empty", "stored"):
                cache = stored_dir if kind == "stored" else Path(scratch) / f"empty-{n}"
                runs[kind].append(run(args.model, cache))
                print(f"round {n + 1}, {kind}: {runs[kind][-1]}", flush=True)
    summary = {
        kind: {
            figure: statistics.median(r[figure] for r in results) for figure in ("wall_s", "load_s", "rate_s")
        }
        for kind, results in runs.items()
    }
    ratios = [s["wall_s"] / e["wall_s"] for s, e in zip(runs["stored"], runs["empty"], strict=True)]
    result = {
        "model": args.model.name,
        "rounds": args.rounds,
        "median": summary,
        "wall_ratio_stored_over_empty": {
            "median": statistics.median(ratios),
            "min": min(ratios),
            "max": max(ratios),
        },
        "runs": runs,
    }
    write_result("cold_load", result)
    print(
        f"cold process to a known prefill rate, median wall: stored {summary['stored']['wall_s']:.2f} s, "
        f"empty cache {summary['empty']['wall_s']:.2f} s; "
        f"×{result['wall_ratio_stored_over_empty']['median']:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
