"""CLI start-up: wall time from process start to exit of `folio search/documents/ask`, cold (a new
process, `--no-server`) and through a running `folio serve`.

Usage: python benchmarks/bench_cli.py [--runs 3] [--served-runs 10] [--ask-runs 1] [--baseline TREE]
--baseline TREE also times the same cold calls with another checkout's `app` (e.g. /work/main),
alternated with this one. A temporary library holds one generated 2-page PDF; settings are the
defaults (a temporary config and cache dir). "search" runs with the embedder's load cache in place
(made by the ingest before, app/core/embed/usem3_cache.py); "first search" with an empty cache dir
each run, as the first call after installing does. Prints medians and range, writes
benchmarks/results/cli.json.
"""

from __future__ import annotations

import argparse
import os
import selectors
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.record_env import write_result  # noqa: E402
from tests.pdfgen import write_pdf  # noqa: E402

QUESTION = "How hot should the water be for black tea?"


def spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "min": ordered[0], "max": ordered[-1], "n": len(ordered)}


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from spawning `python -m app ARGV` to its exit (its output is complete then)."""
    started = time.perf_counter()
    # run from the tree: `python -m` puts the working directory before PYTHONPATH on sys.path
    done = subprocess.run(
        [sys.executable, "-m", "app", *argv],
        env=env,
        cwd=env.get("PYTHONPATH") or None,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - started
    cut_off = argv[0] == "ask" and done.returncode == 1 and '"finish_reason": "length"' in done.stdout
    if done.returncode != 0 and not cut_off:  # an answer cut at --max-tokens exits 1 by contract
        raise SystemExit(f"folio {' '.join(argv)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed


def start_service(library: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    service = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--library", str(library), "--idle-minutes", "30"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert service.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(service.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        if service.poll() is not None:
            raise SystemExit(f"folio serve exited: {service.stderr.read()}")
        if selector.select(timeout=1.0):
            line = service.stderr.readline()
            if "ready" in line:
                print(line.strip())
                return service
    raise SystemExit("folio serve did not get ready")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="cold runs per command")
    parser.add_argument("--served-runs", type=int, default=10, help="runs per command through the service")
    parser.add_argument("--ask-runs", type=int, default=1, help="cold `folio ask` runs (0: skip)")
    parser.add_argument("--baseline", type=Path, default=None, help="another checkout to compare with")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="folio-bench-cli-") as tmp:
        library, docs = Path(tmp) / "lib", Path(tmp) / "docs"
        docs.mkdir()
        write_pdf(docs / "tea.pdf", [["Green tea is steeped at 80 degrees."], ["Black tea: 95 degrees."]])
        env = {
            **os.environ,
            "FOLIO_CONFIG_DIR": str(Path(tmp) / "config"),
            "FOLIO_CACHE_DIR": str(Path(tmp) / "cache"),
            "HF_HUB_OFFLINE": "1",
        }
        trees = {"this": str(ROOT)}
        if args.baseline is not None:
            trees["baseline"] = str(args.baseline.resolve())
        envs = {name: {**env, "PYTHONPATH": tree} for name, tree in trees.items()}
        lib = ["--library", str(library)]
        timed(["ingest", str(docs), *lib, "--no-server"], envs["this"])

        calls = {
            "search": ["search", QUESTION, "--json", *lib],
            "first search": ["search", QUESTION, "--json", *lib],
            "documents": ["documents", "--json", *lib],
            "ask": ["ask", QUESTION, "--json", "--max-tokens", "16", "--seed", "1", *lib],
        }
        cold: dict[str, dict[str, list[float]]] = {name: {c: [] for c in calls} for name in trees}
        for run in range(max(args.runs, args.ask_runs)):
            order = list(trees) if run % 2 == 0 else list(reversed(trees))
            for name in order:
                for command, argv in calls.items():
                    if run >= (args.ask_runs if command == "ask" else args.runs):
                        continue
                    # no service runs yet; an older tree may not know --no-server
                    run_env = envs[name]
                    if command == "first search":
                        run_env = {**run_env, "FOLIO_CACHE_DIR": str(Path(tmp) / f"cache-{name}-{run}")}
                    seconds = timed(argv if name == "baseline" else [*argv, "--no-server"], run_env)
                    cold[name][command].append(seconds)
                    print(f"cold {name} {command}: {seconds:.2f} s (load {os.getloadavg()[0]:.1f})")

        service = start_service(library, envs["this"])
        served: dict[str, list[float]] = {c: [] for c in calls}
        try:
            for _ in range(args.served_runs):
                for command in ("search", "documents"):  # "first search" is a cold-start figure only
                    served[command].append(timed(calls[command], envs["this"]))
            for _ in range(min(args.served_runs, 3) if args.ask_runs else 0):
                served["ask"].append(timed(calls["ask"], envs["this"]))  # the first loads the model
            print("served: " + ", ".join(f"{c} {statistics.median(v):.2f} s" for c, v in served.items() if v))
        finally:
            service.send_signal(signal.SIGTERM)
            service.communicate(timeout=120)

    result: dict[str, Any] = {
        "question": QUESTION,
        "cold_s": {name: {c: spread(v) for c, v in per.items() if v} for name, per in cold.items()},
        "served_s": {c: spread(v) for c, v in served.items() if v},
        "served_ask_runs_s": served["ask"],
        "trees": trees,
        "load_average_end": list(os.getloadavg()),
    }
    print(f"\n{'command':<12} {'cold (s)':>22} {'through folio serve (s)':>26}")
    for command in calls:
        c = result["cold_s"]["this"].get(command)
        s = result["served_s"].get(command)
        cold_text = f"{c['median']:.2f} ({c['min']:.2f}-{c['max']:.2f})" if c else "-"
        served_text = f"{s['median']:.2f} ({s['min']:.2f}-{s['max']:.2f})" if s else "-"
        print(f"{command:<12} {cold_text:>22} {served_text:>26}")
    if "baseline" in cold:
        for command, values in result["cold_s"]["baseline"].items():
            print(f"baseline cold {command}: {values['median']:.2f} s")
    print(f"wrote {write_result('cli', result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
