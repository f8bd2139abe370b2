"""Issue 34 item 3's ingestion cost: pages/s of `Folio.ingest` as today against the same ingestion
that also embeds every chunk's sentences (or windows of them), as a sentence-level dense leg would.

The chunks are embedded as today (`Ingester._embed`); the variant then embeds the units of the same
chunks (`evaluation/unit_leg.units_of`) in the same batch and throws them away, so only the extra
embedding is timed (storing them would cost more). Runs alternate A B B A … over fresh libraries.

Usage: python benchmarks/bench_sentence_ingest.py FILE [--window 1] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.config import Settings  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402
from app.core.ingest import pipeline  # noqa: E402
from app.core.passage import ChunkDraft  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation.unit_leg import units_of  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"


def ingest_once(file: Path, embedder: Embedder, window: int | None) -> tuple[float, float, int, int]:
    """Wall seconds, this process's CPU seconds (the extraction worker's not counted), pages and
    chunks of one ingest of `file` into a new library (the units embedded too: `window`)."""
    plain = pipeline.Ingester._embed

    def with_units(self: pipeline.Ingester, drafts: list[ChunkDraft]) -> list[pipeline.NewChunk]:
        chunks = plain(self, drafts)
        self.embedder.embed([unit for draft in drafts for unit in units_of(draft.text, window or 1)])
        return chunks

    with tempfile.TemporaryDirectory(prefix="folio-sentingest-") as scratch:
        folio = build_services(Settings(), Path(scratch) / "library", embedder=embedder)
        if window:
            pipeline.Ingester._embed = with_units  # type: ignore[method-assign]
        try:
            started, cpu = time.perf_counter(), time.process_time()
            report = folio.library.ingest([file])
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        finally:
            pipeline.Ingester._embed = plain  # type: ignore[method-assign]
            folio.close()
    done = report.files[0]
    if done.status == "failed":
        raise SystemExit(f"{file}: {done.error}")
    return elapsed, cpu, done.pages, done.chunks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--window", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2, help="A B B A pairs")
    parser.add_argument("--out", help="results file name under benchmarks/results/")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    embedder = Embedder(Settings().embed_model_path())
    embedder.load()
    embedder.embed(["warm-up"])
    runs: dict[str, list[float]] = {"today": [], "units": [], "today_cpu": [], "units_cpu": []}
    pages = chunks = 0
    for round_ in range(args.rounds):
        order = ("today", "units") if round_ % 2 == 0 else ("units", "today")
        for name in order:
            seconds, cpu, pages, chunks = ingest_once(
                args.file, embedder, args.window if name == "units" else None
            )
            runs[name].append(seconds)
            runs[f"{name}_cpu"].append(cpu)
            print(
                f"{name}: {seconds:.1f} s, {pages / seconds:.2f} pages/s, CPU {cpu:.1f} s "
                f"({pages} pages, {chunks} chunks)"
            )
    today, units = sum(runs["today"]), sum(runs["units"])
    cpu = sum(runs["today_cpu"]) / sum(runs["units_cpu"])
    print(f"pages/s with units / today: {today / units:.2f}; by CPU time: {cpu:.2f} (window {args.window})")
    if args.out:
        RESULTS.mkdir(parents=True, exist_ok=True)
        result = {"file": str(args.file), "window": args.window, "pages": pages, "chunks": chunks, **runs}
        result["pages_per_s_ratio"] = today / units
        result["cpu_ratio"] = cpu
        (RESULTS / args.out).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
