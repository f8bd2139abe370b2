"""Search latency at library scale: a synthetic library of N chunks (default 100,000), half English
half Chinese, searched warm with the real embedder, store, keyword tables and FAISS index.

Usage: .venv/bin/python benchmarks/bench_retrieval_scale.py [--chunks N] [--queries Q] [--keep DIR]
       [--rebuild-index] [--embed-threads N] [--keyword-costs Q] [--ann | --ann-only] [--ann-queries Q]
       [--ann-kinds random,topics,real,diffuse] [--keyword-budget ROWS] [--keyword-agreement Q]
The chunk texts are random words drawn with a Zipf law (so bm25 sees realistic frequencies) and the
chunk vectors random unit vectors; the query is embedded by the real model. The vector index has
the layout the product gives a library of that size (app/core/index/layout.py: flat, or IVF from
APPROXIMATE_FROM chunks); its build time (when built in this run or with --rebuild-index), file
size and memory are reported. The keyword legs rank at most --keyword-budget matching rows each (the
product's RANKED_ROWS; 0: every row, exact bm25); --keyword-agreement Q compares them with exact
bm25 on Q queries per script (benchmarks/keyword_agreement.py). --ann compares flat and IVF on the
same N vectors of three kinds (benchmarks/ann_compare.py: random = worst case for IVF, topic
mixtures = realistic): dense p50/p95 and recall@10 against flat. Prints the figures and writes
benchmarks/results/retrieval_scale_SIZE.json (SIZE: 10k, 100k, 1M...) with its .env.json record.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import string
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core import paths  # noqa: E402
from app.core.embed.binding import bind_library_embedder  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402
from app.core.index.layout import ivf_layout  # noqa: E402
from app.core.index.sync import open_vector_index, rebuild_index  # noqa: E402
from app.core.index.vector_index import INDEX_FILE, VectorIndex  # noqa: E402
from app.core.ingest.chunker import ChunkDraft  # noqa: E402
from app.core.normalize import normalize_text  # noqa: E402
from app.core.retrieve import Retriever  # noqa: E402
from app.core.store.database import STORE_FILE  # noqa: E402
from app.core.store.keyword_tables import RANKED_ROWS  # noqa: E402
from app.core.store.library import LibraryStore  # noqa: E402
from app.core.store.records import NewChunk  # noqa: E402
from benchmarks import ann_compare, keyword_agreement  # noqa: E402
from benchmarks.eval import texts_en, texts_zh  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

CHUNKS_PER_DOCUMENT = 1000
WORDS_PER_CHUNK = 120
# Common Han characters: synthetic Chinese words are pairs and triples of them.
HAN = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所"
    "民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日"
    "那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想"
    "已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指"
    "几九区强放决西被干做必战先回则任取据处府研"
)
QUERY_WORDS = 8


def _zipf_vocabulary(rng: random.Random, size: int, make: str) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        if make == "en":
            words.add("".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 10))))
        else:
            words.add("".join(rng.choices(HAN, k=rng.choice((2, 2, 2, 3)))))
    return sorted(words)


def _zipf_weights(size: int) -> list[float]:
    return [1.0 / (rank**1.05) for rank in range(1, size + 1)]


def _texts(rng: random.Random, vocab: list[str], weights: list[float], lang: str, n: int) -> Iterator[str]:
    for _ in range(n):
        words = rng.choices(vocab, weights=weights, k=WORDS_PER_CHUNK)
        yield " ".join(words) + "." if lang == "en" else "".join(words) + "。"


def build_library(library: Path, embedder: Embedder, chunks: int, seed: int) -> tuple[LibraryStore, float]:
    rng = random.Random(seed)
    vectors_rng = np.random.default_rng(seed)
    vocab = {lang: _zipf_vocabulary(rng, 30_000, lang) for lang in ("en", "zh")}
    weights = _zipf_weights(30_000)
    store = LibraryStore(library)
    bind_library_embedder(store, embedder)
    dim = embedder.dimension
    started = time.perf_counter()
    documents = max(1, chunks // CHUNKS_PER_DOCUMENT)
    for doc in range(documents):
        lang = "en" if doc % 2 == 0 else "zh"
        count = CHUNKS_PER_DOCUMENT if doc < documents - 1 else chunks - CHUNKS_PER_DOCUMENT * (documents - 1)

        def batches(lang: str = lang, count: int = count) -> Iterator[list[NewChunk]]:
            texts = list(_texts(rng, vocab[lang], weights, lang, count))
            raw = vectors_rng.standard_normal((count, dim)).astype(np.float32)
            raw /= np.linalg.norm(raw, axis=1, keepdims=True)
            batch: list[NewChunk] = []
            for n, (body, vector) in enumerate(zip(texts, raw, strict=True)):
                page = n // 3 + 1
                draft = ChunkDraft(body, page, 0, page, len(body), WORDS_PER_CHUNK)
                batch.append(NewChunk(draft, vector))
                if len(batch) == 500:
                    yield batch
                    batch = []
            if batch:
                yield batch

        store.write_document(
            path=f"/synthetic/{lang}-{doc}.pdf",
            name=f"{lang}-{doc}.pdf",
            sha256=f"{doc:064d}",
            kind="pdf",
            size=0,
            batches=batches(),
        )
        print(f"document {doc + 1}/{documents} written", file=sys.stderr)
    return store, time.perf_counter() - started


def queries(seed: int, n: int) -> dict[str, list[str]]:
    """Queries of words from the same vocabularies (so they match), each script apart."""
    rng = random.Random(seed)
    vocab = {lang: _zipf_vocabulary(rng, 30_000, lang) for lang in ("en", "zh")}
    head = {lang: words[:3000] for lang, words in vocab.items()}
    return {
        "en": [" ".join(rng.sample(head["en"], QUERY_WORDS)) + "?" for _ in range(n)],
        "zh": ["".join(rng.sample(head["zh"], QUERY_WORDS)) + "？" for _ in range(n)],
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def leg_times(retriever: Retriever, query: str) -> dict[str, float]:
    """Milliseconds of each part alone for one query: embedding the query, the dense search and each
    keyword table's search with the expression the retriever would send."""
    normalized = normalize_text(query)
    started = time.perf_counter()
    vector = retriever.embedder.embed([normalized])[0]
    times = {"embed": (time.perf_counter() - started) * 1000}
    pool = retriever.candidates
    started = time.perf_counter()
    retriever.index.search(vector, pool)
    times["dense"] = (time.perf_counter() - started) * 1000
    for _, table, phrases in retriever.keyword_legs(normalized):
        started = time.perf_counter()
        retriever.keyword_search(table, phrases, pool)
        times[table] = (time.perf_counter() - started) * 1000
    return times


def size_label(chunks: int) -> str:
    if chunks >= 1_000_000 and chunks % 1_000_000 == 0:
        return f"{chunks // 1_000_000}M"
    return f"{chunks // 1000}k" if chunks % 1000 == 0 else str(chunks)


def rss_mb() -> float:
    """This process's resident memory now (MB)."""
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def open_index(
    store: LibraryStore, library: Path, dimension: int, rebuild: bool
) -> tuple[VectorIndex, dict[str, object]]:
    """The library's index in the product's layout for its size, timed when (re)built here."""
    path = library / INDEX_FILE
    figures: dict[str, object] = {}
    before = rss_mb()
    started = time.perf_counter()
    notices: list[str] = []
    if rebuild or not path.exists():
        index = rebuild_index(store, dimension, path)
        notices.append("rebuilt (--rebuild-index or no index file)")
    else:
        index = open_vector_index(store, dimension, path, notices.append)
    elapsed = time.perf_counter() - started
    layout = index.layout
    figures["index_layout"] = {"kind": layout.kind, "nlist": layout.nlist, "nprobe": layout.nprobe}
    if notices:
        figures["index_build_s"] = round(elapsed, 1)
        figures["index_build_note"] = notices[0]
    else:
        figures["index_load_s"] = round(elapsed, 1)
    figures["index_memory_mb"] = round(rss_mb() - before)
    figures["index_file_mb"] = round(path.stat().st_size / 1e6, 1)
    return index, figures


def time_searches(retriever: Retriever, seed: int, per_script: int, k: int) -> dict[str, object]:
    """p50/p95/max of the hybrid search and of each of its parts alone, per script."""
    results: dict[str, object] = {}
    for query in ("warm-up", "预热查询"):
        retriever.search(query, k)
    for lang, batch in queries(seed, per_script).items():
        parts = ("hybrid", "embed", "dense", "chunks_terms", "chunks_trigram")
        latencies: dict[str, list[float]] = {part: [] for part in parts}
        for query in batch:
            started = time.perf_counter()
            retriever.search(query, k)
            latencies["hybrid"].append((time.perf_counter() - started) * 1000)
            for leg, elapsed in leg_times(retriever, query).items():
                latencies[leg].append(elapsed)
        for leg, values in latencies.items():
            if values:
                results[f"{leg}_ms_{lang}"] = {
                    "p50": round(statistics.median(values), 1),
                    "p95": round(percentile(values, 0.95), 1),
                    "max": round(max(values), 1),
                }
    return results


# The statement of app/core/store/keyword_tables.search_keywords, with the retriever's pool.
RANKED = "SELECT rowid FROM {t} WHERE {t} MATCH :q ORDER BY bm25({t}) LIMIT 50"


def keyword_costs(retriever: Retriever, seed: int, per_script: int) -> dict[str, object]:
    """Why the keyword legs cost what they cost: per leg, the rows the OR expression matches, the
    time to rank them all by bm25 (what the retriever does) against the time only to count them,
    and SQLite's query plan."""
    from sqlalchemy import text

    out: dict[str, object] = {}
    with retriever.store.sessions() as session:
        for lang, batch in queries(seed, per_script).items():
            for _, table, phrases in retriever.keyword_legs(normalize_text(batch[0])):
                plan = session.execute(
                    text(f"EXPLAIN QUERY PLAN {RANKED.format(t=table)}"), {"q": " OR ".join(phrases)}
                ).all()
                out[f"plan_{table}"] = [row[-1] for row in plan]
                out[f"phrase_rows_{table}_{lang}"] = {
                    phrase: session.execute(
                        text(f"SELECT count(*) FROM {table} WHERE {table} MATCH :q"), {"q": phrase}
                    ).scalar_one()
                    for phrase in phrases
                }
            rows: dict[str, list[dict[str, float]]] = {}
            for query in batch:
                for _, table, phrases in retriever.keyword_legs(normalize_text(query)):
                    expression = " OR ".join(phrases)
                    started = time.perf_counter()
                    session.execute(text(RANKED.format(t=table)), {"q": expression}).all()
                    ranked = (time.perf_counter() - started) * 1000
                    started = time.perf_counter()
                    matches = session.execute(
                        text(f"SELECT count(*) FROM {table} WHERE {table} MATCH :q"), {"q": expression}
                    ).scalar_one()
                    counted = (time.perf_counter() - started) * 1000
                    rows.setdefault(table, []).append(
                        {"matches": matches, "bm25_top50_ms": round(ranked, 1), "count_ms": round(counted, 1)}
                    )
            for table, values in rows.items():
                out[f"{table}_{lang}"] = {
                    "matches_p50": statistics.median(v["matches"] for v in values),
                    "bm25_top50_ms_p50": round(statistics.median(v["bm25_top50_ms"] for v in values), 1),
                    "count_only_ms_p50": round(statistics.median(v["count_ms"] for v in values), 1),
                    "us_per_matched_row": round(
                        1000
                        * sum(v["bm25_top50_ms"] for v in values)
                        / max(1, sum(v["matches"] for v in values)),
                        2,
                    ),
                }
    return out


def real_centres(embedder: Embedder) -> np.ndarray:
    """Embeddings of the eval set's paragraphs (English and Chinese): real topic centres."""
    paragraphs = [
        paragraph
        for documents in (texts_en.DOCUMENTS, texts_zh.DOCUMENTS)
        for _, pages in documents.values()
        for page in pages
        for paragraph in page
        if len(paragraph) > 40
    ]
    return embedder.embed(paragraphs)


def flat_against_ivf(
    chunks: int, embedder: Embedder, queries_n: int, pool: int, kinds: list[str]
) -> dict[str, object]:
    """ann_compare.compare on `chunks` vectors of each kind, with probes around the product's."""
    nprobe = ivf_layout(chunks).nprobe
    probes = tuple(sorted({max(1, nprobe // 2), nprobe, nprobe * 2, nprobe * 4}))
    centres = real_centres(embedder)
    out: dict[str, object] = {"real_centres": len(centres), "queries": queries_n}
    for kind in kinds:
        make = ann_compare.vector_maker(kind, chunks, embedder.dimension, centres)
        vectors = make(chunks, np.random.default_rng(1))
        asked = make(queries_n, np.random.default_rng(2))
        out[kind] = ann_compare.compare(vectors, asked, pool, probes)
        del vectors
        print(f"flat against IVF on {kind} vectors: done", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40, help="per script")
    parser.add_argument("-k", type=int, default=6)
    parser.add_argument("--keep", type=Path, help="build the library in this folder once and reuse it")
    parser.add_argument("--rebuild-index", action="store_true", help="rebuild (and time) the vector index")
    parser.add_argument("--ann", action="store_true", help="also compare flat and IVF on N vectors")
    parser.add_argument("--ann-queries", type=int, default=100)
    parser.add_argument(
        "--ann-only", action="store_true", help="only the flat/IVF comparison (results/..._SIZE_ann.json)"
    )
    parser.add_argument(
        "--embed-threads",
        type=int,
        help="torch intra-op threads for the query embedding (default: the product's); .._embedN.json",
    )
    parser.add_argument("--keyword-costs", type=int, default=0, metavar="Q", help="explain the keyword legs")
    parser.add_argument("--ann-kinds", default=",".join(ann_compare.KINDS), help="comma-separated")
    parser.add_argument(
        "--keyword-budget", type=int, default=RANKED_ROWS, help="rows a keyword leg ranks (0: all); _kwN.json"
    )
    parser.add_argument("--keyword-agreement", type=int, default=0, metavar="Q", help="bounded vs exact bm25")
    args = parser.parse_args()
    kinds = args.ann_kinds.split(",")
    if not set(kinds) <= set(ann_compare.KINDS):
        parser.error(f"--ann-kinds: choose among {', '.join(ann_compare.KINDS)}")
    seed = 7
    embedder = Embedder(paths.default_embed_model())
    embedder.load()
    results: dict[str, object] = {"chunks": args.chunks, "cpu_count": os.cpu_count(), "k": args.k}
    variant = ""
    if args.embed_threads:
        import torch

        torch.set_num_threads(args.embed_threads)
        results["embed_threads"] = args.embed_threads
        variant = f"_embed{args.embed_threads}"
    if args.keyword_budget != RANKED_ROWS:
        results["keyword_budget"] = args.keyword_budget or None
        variant += f"_kw{args.keyword_budget or 'all'}"
    if args.ann_only:
        results["flat_against_ivf"] = flat_against_ivf(args.chunks, embedder, args.ann_queries, 50, kinds)
        print(json.dumps(results, indent=2))
        write_result(f"retrieval_scale_{size_label(args.chunks)}_ann", results)
        return 0
    with tempfile.TemporaryDirectory(prefix="folio-scale-") as tmp:
        library = args.keep or Path(tmp) / "library"
        if (library / STORE_FILE).exists():
            store = LibraryStore(library)
            results["reused_library"] = str(library)
            results["chunks"] = args.chunks = store.chunk_count()
        else:
            store, build_s = build_library(library, embedder, args.chunks, seed)
            results["store_build_s"] = round(build_s, 1)
        index, figures = open_index(store, library, embedder.dimension, args.rebuild_index)
        results.update(figures)
        results["library_mb"] = round(sum(f.stat().st_size for f in library.rglob("*")) / 1e6, 1)
        retriever = Retriever(store, index, embedder, keyword_budget=args.keyword_budget or None)
        results.update(time_searches(retriever, seed, args.queries, args.k))
        if args.keyword_costs:
            results["keyword_costs"] = keyword_costs(retriever, seed, args.keyword_costs)
        if args.keyword_agreement:
            asked = queries(seed, args.keyword_agreement)
            results["keyword_agreement"] = keyword_agreement.agreement(retriever, asked, args.k)
        store.close()
        del retriever, index
    if args.ann:
        results["flat_against_ivf"] = flat_against_ivf(args.chunks, embedder, args.ann_queries, 50, kinds)
    print(json.dumps(results, indent=2))
    write_result(f"retrieval_scale_{size_label(args.chunks)}{variant}", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
