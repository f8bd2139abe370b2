"""Issue 34 item 3, measured: a sentence-level dense leg beside the chunk leg, fused per script.

Nothing in the library changes: every chunk of the cached eval library (the one
`eval_answers.py` builds) is split by the one passage splitter
(`app/core/answering/evidence/sentences.py`), its sentences (or windows of `--windows` consecutive
sentences) are embedded into an in-memory FAISS index per script, and a search adds one more dense
leg: the units' top hits mapped to their chunks (best unit per chunk), weighted `ratio` x the chunk
dense leg's weight among the query's own script, and fused into the other script's list (weight
`ratio`) when the multilingual weights fuse it apart. Ratio 0 is today's search.

Prints per configuration the hit@1/hit@5/MRR per language and cross-language of the chosen
questions, the fact questions' hit@5, and the costs: the CPU time of embedding the units of a
sample of chunks against that of the chunks themselves as ingestion embeds them (`--sample`), the
units' index size against the chunk index's, and the unit leg's search time; with `--latency N`,
one FAISS search over N random unit vectors, flat and IVF (p50/p95). The units' vectors are cached
in benchmarks/.cache/ (units-<library>-w<window>.npz).

Usage: python benchmarks/bench_sentence_leg.py --half calibration [--windows 1,2]
       [--ratios 0,0.25,0.5,1,2] [--ids-prefix u-,ux-] [--latency 100000] [--out NAME]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.embed.embedder import FEW_TEXTS, Embedder  # noqa: E402
from app.core.passage import with_heading  # noqa: E402
from app.core.services import build_services  # noqa: E402
from app.core.store.records import ChunkRow  # noqa: E402
from benchmarks.eval_answers import eval_settings  # noqa: E402
from benchmarks.eval_answers import parse_args as eval_args  # noqa: E402
from benchmarks.evaluation import report, scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import CACHE_ROOT, META_FILE, prepared_library, working_copy  # noqa: E402
from benchmarks.evaluation.unit_leg import SentenceLegRetriever, UnitIndex, units_of  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
COLUMNS = [("hit@1", "hit@1"), ("hit@5", "hit@5"), ("mrr", "MRR")]


def chosen_questions(args: argparse.Namespace) -> list[Question]:
    questions = [q for q in load_questions().questions if q.answerable]
    if args.half:
        questions = [q for q in questions if q.half == args.half]
    if args.ids_prefix:
        prefixes = tuple(p.strip() for p in args.ids_prefix.split(",") if p.strip())
        questions = [q for q in questions if q.id.startswith(prefixes)]
    return questions


def summary(records: Sequence[scoring.RetrievalRecord]) -> dict[str, Any]:
    out = scoring.by_language(records, scoring.summarize_retrieval)
    facts = [r for r in records if r.kind == "fact"]
    out["fact"] = scoring.summarize_retrieval(facts)
    out["every"] = scoring.summarize_retrieval(records)
    return out


def sample_costs(rows: Sequence[ChunkRow], window: int, embedder: Embedder, size: int) -> dict[str, float]:
    """Nothing for `size` 0; else the CPU seconds of embedding `size` chunks (spread over the
    library) as ingestion does, and of embedding their units, in turns (chunks, units, units,
    chunks), in calls of FEW_TEXTS texts that the embedder runs on one thread (on a loaded machine
    a multi-threaded call's CPU time counts its threads' waiting); their ratio is the extra
    embedding a page would cost at ingestion."""
    if size <= 0:
        return {}
    step = max(1, len(rows) // size)
    chosen = list(rows[::step][:size])
    chunks = [with_heading(row.heading, row.text) for row in chosen]
    units = [unit for row in chosen for unit in units_of(row.text, window)]
    spent = {"chunks": 0.0, "units": 0.0}
    for name in ("chunks", "units", "units", "chunks"):
        texts = chunks if name == "chunks" else units
        started = time.process_time()
        for start in range(0, len(texts), FEW_TEXTS):  # one thread each: no spinning threads counted
            embedder.embed(texts[start : start + FEW_TEXTS])
        spent[name] += time.process_time() - started
    return {
        "sample_chunks": len(chosen),
        "sample_chunk_cpu_s": spent["chunks"] / 2,
        "sample_unit_cpu_s": spent["units"] / 2,
        "embed_ratio": spent["units"] / spent["chunks"],
    }


def search_latency(count: int, dimension: int, queries: int = 40, ivf: bool = True) -> dict[str, Any]:
    """p50/p95 ms (wall, and CPU: what it costs on a quiet core) of one search (k 400, one thread,
    as VectorIndex searches) over `count` random unit vectors: in a flat index, and in the IVF the
    product's layout rule gives that many vectors (app/core/index/layout.py; random vectors have
    no clusters, so only its time is meaningful)."""
    from app.core.index.layout import ivf_layout
    from app.core.index.vector_index import VectorIndex

    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((count, dimension)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(count, dtype=np.int64)
    layout = ivf_layout(count)
    out: dict[str, Any] = {"vectors": count, "index_mb": count * dimension * 4 / 1e6}
    indexes = [("flat", VectorIndex(dimension, approximate_from=count + 1))]
    if ivf:
        training = vectors[rng.choice(count, min(count, layout.nlist * 64), replace=False)]
        indexes.append(
            (f"ivf{layout.nlist}/{layout.nprobe}", VectorIndex.empty(dimension, layout, training, 1))
        )
    for name, index in indexes:
        started = time.perf_counter()
        index.add(ids, vectors)
        build = time.perf_counter() - started
        times, cpu = [], []
        for _ in range(queries):
            query = rng.standard_normal(dimension).astype(np.float32)
            query /= np.linalg.norm(query)
            started, spent = time.perf_counter(), time.process_time()
            index.search(query, 400)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - spent) * 1000)
        out[name] = {
            "add_s": build,
            "p50_ms": float(np.percentile(times, 50)),
            "p95_ms": float(np.percentile(times, 95)),
            "cpu_p50_ms": float(np.percentile(cpu, 50)),
            "cpu_p95_ms": float(np.percentile(cpu, 95)),
        }
        del index
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("calibration", "held_out"))
    parser.add_argument(
        "--ids-prefix", help="only questions whose id starts with one of these (comma-separated)"
    )
    parser.add_argument("--windows", default="1,2", help="sentences per unit, comma-separated")
    parser.add_argument("--ratios", default="0,0.25,0.5,1,2", help="unit leg weight / dense leg weight")
    parser.add_argument(
        "--latency", type=int, nargs="*", default=[], help="flat search timing over N random vectors"
    )
    parser.add_argument("--out", help="results file name under benchmarks/results/")
    parser.add_argument(
        "--costs-only",
        action="store_true",
        help="no search: the units per chunk of the whole library, the sample's embedding cost, and "
        "with --latency the unit leg's search time at 100k chunks (N = 100k x units per chunk)",
    )
    parser.add_argument("--no-ivf", action="store_true", help="--latency: the flat index only")
    parser.add_argument(
        "--sample", type=int, default=64, help="chunks whose embedding cost is compared (0: none)"
    )
    parser.add_argument(
        "--library",
        type=Path,
        help="a built eval library folder (default: the one of today's ingestion code)",
    )
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    settings = eval_settings(eval_args(["--retrieval-only"]))
    questions = load_questions()
    library = args.library.resolve() if args.library else prepared_library(questions, settings)
    meta = json.loads((library / META_FILE).read_text(encoding="utf-8"))
    chosen = chosen_questions(args)
    print(f"library {library.name}, built in {meta['build_s']} s; {len(chosen)} answerable questions")
    results: dict[str, Any] = {"library": library.name, "build_s": meta["build_s"], "configs": {}}
    pages = sum(int(f.get("pages") or 0) for f in meta["files"])
    results["pages"] = pages
    with tempfile.TemporaryDirectory(prefix="folio-sentleg-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            reader = folio.library.reader
            index = reader.ready()
            store, embedder = reader.store, reader.embedder
            ids = [int(i) for i in store.all_chunk_ids()]
            rows = [
                row
                for start in range(0, len(ids), 500)
                for row in store.chunks(ids[start : start + 500]).values()
            ]
            rows.sort(key=lambda row: row.chunk_id)
            chunk_bytes = len(rows) * embedder.dimension * 4
            results["chunks"] = len(rows)
            print(f"{len(rows)} chunks of {pages} pages")
            if args.costs_only:
                results["costs"] = library_costs(rows, args, embedder)
                return write(results, args.out)
            retriever = SentenceLegRetriever(store, index, embedder, scripts=reader.scripts)
            retriever.search("warm-up 预热", scoring.SEARCH_K)
            today: dict[str, Any] | None = None  # ratio 0: today's search, the "before" of every table
            for window in (int(w) for w in args.windows.split(",")):
                units = UnitIndex(rows, window, embedder, CACHE_ROOT / f"units-{library.name}-w{window}.npz")
                retriever.units = units
                sample = sample_costs(rows, window, embedder, args.sample)
                cost = {
                    "units": units.count,
                    "units_per_chunk": units.count / len(rows),
                    "embed_cpu_s": units.embed_s,
                    **sample,
                    "index_mb": units.bytes / 1e6,
                    "index_ratio": units.bytes / chunk_bytes,
                }
                print(f"\n## window {window}: " + ", ".join(f"{k} {v:.3g}" for k, v in cost.items()))
                for ratio in (float(r) for r in args.ratios.split(",")):
                    retriever.ratio = ratio
                    units.search_ms = []
                    records = []
                    for question in chosen:
                        started = time.perf_counter()
                        result = retriever.search(question.question, scoring.SEARCH_K)
                        records.append(
                            scoring.score_retrieval(
                                question, result.hits, (time.perf_counter() - started) * 1000
                            )
                        )
                    found = summary(records)
                    name = f"w{window}-r{ratio:g}"
                    leg = (
                        [float(np.percentile(units.search_ms, q)) for q in (50, 95)]
                        if units.search_ms
                        else [0, 0]
                    )
                    results["configs"][name] = {
                        "window": window,
                        "ratio": ratio,
                        "cost": cost,
                        "unit_search_ms_p50_p95": leg,
                        "summary": found,
                        "records": [asdict(r) for r in records],
                    }
                    if ratio == 0:
                        today = found
                    print(f"\n### {name} (unit leg search p50/p95 {leg[0]:.1f}/{leg[1]:.1f} ms)\n")
                    print(report.table(found, COLUMNS, None if ratio == 0 else today))
        finally:
            folio.close()
    for count in args.latency:
        timing = search_latency(count, 512, ivf=not args.no_ivf)
        results.setdefault("latency", []).append(timing)
        print(f"search over {count} random vectors: {timing}")
    return write(results, args.out)


def write(results: dict[str, Any], out: str | None) -> int:
    if out:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / out).write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"wrote benchmarks/results/{out}")
    return 0


def library_costs(rows: Sequence[ChunkRow], args: argparse.Namespace, embedder: Embedder) -> dict[str, Any]:
    """Per window: units per chunk over the whole library, the sample's embedding CPU time (chunks
    against their units), the units' vectors against the chunks' at 100k chunks, and with
    `--latency` (any value) one search's time over that many random vectors."""
    costs: dict[str, Any] = {}
    for window in (int(w) for w in args.windows.split(",")):
        count = sum(len(units_of(row.text, window)) for row in rows)
        per_chunk = count / len(rows)
        found: dict[str, Any] = {"units": count, "units_per_chunk": per_chunk}
        found |= sample_costs(rows, window, embedder, args.sample)
        at_100k = round(100_000 * per_chunk)
        found["index_mb_at_100k_chunks"] = at_100k * embedder.dimension * 4 / 1e6
        found["chunk_index_mb_at_100k_chunks"] = 100_000 * embedder.dimension * 4 / 1e6
        if args.latency:
            found["search_at_100k_chunks"] = search_latency(at_100k, embedder.dimension, 20, not args.no_ivf)
        print(f"window {window}: {json.dumps(found)}")
        costs[f"w{window}"] = found
    return costs


if __name__ == "__main__":
    raise SystemExit(main())
