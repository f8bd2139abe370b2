"""Search latency at library scale: a synthetic library of N chunks (default 100,000), half English
half Chinese, searched warm with the real embedder, store, keyword tables and FAISS index.

Usage: .venv/bin/python benchmarks/bench_retrieval_scale.py [--chunks N] [--queries Q]
The chunk texts are random words drawn with a Zipf law (so bm25 sees realistic frequencies) and the
chunk vectors random unit vectors (vector search costs the same whatever the vectors mean); the
query is embedded by the real model. Prints the figures and writes
benchmarks/results/retrieval_scale.json.
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
from app.core.index.sync import rebuild_index  # noqa: E402
from app.core.index.vector_index import VectorIndex  # noqa: E402
from app.core.ingest.chunker import ChunkDraft  # noqa: E402
from app.core.ingest.normalize import normalize_text  # noqa: E402
from app.core.retrieve import Retriever  # noqa: E402
from app.core.store.library import LibraryStore  # noqa: E402
from app.core.store.records import NewChunk  # noqa: E402

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
    for _, table, expression in retriever.keyword_legs(normalized):
        started = time.perf_counter()
        retriever.store.keyword_search(table, expression, pool)
        times[table] = (time.perf_counter() - started) * 1000
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40, help="per script")
    parser.add_argument("-k", type=int, default=6)
    parser.add_argument("--keep", type=Path, help="build the library in this folder once and reuse it")
    args = parser.parse_args()
    seed = 7
    embedder = Embedder(paths.default_embed_model())
    embedder.load()
    results: dict[str, object] = {
        "chunks": args.chunks,
        "cpu_count": os.cpu_count(),
        "k": args.k,
    }
    with tempfile.TemporaryDirectory(prefix="folio-scale-") as tmp:
        library = args.keep or Path(tmp) / "library"
        if (library / "vectors.faiss").exists():
            store = LibraryStore(library)
            index = VectorIndex.load(library / "vectors.faiss", embedder.dimension)
            results["reused_library"] = str(library)
        else:
            store, build_s = build_library(library, embedder, args.chunks, seed)
            index_started = time.perf_counter()
            index = rebuild_index(store, embedder.dimension, library / "vectors.faiss")
            results["store_build_s"] = round(build_s, 1)
            results["index_build_s"] = round(time.perf_counter() - index_started, 1)
        results["library_mb"] = round(sum(f.stat().st_size for f in library.rglob("*")) / 1e6, 1)
        retriever = Retriever(store, index, embedder)
        for query in ("warm-up", "预热查询"):
            retriever.search(query, args.k)
        for lang, batch in queries(seed, args.queries).items():
            parts = ("hybrid", "embed", "dense", "chunks_terms", "chunks_trigram")
            latencies: dict[str, list[float]] = {part: [] for part in parts}
            for query in batch:
                started = time.perf_counter()
                retriever.search(query, args.k)
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
        store.close()
    print(json.dumps(results, indent=2))
    out = REPO / "benchmarks" / "results" / "retrieval_scale.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
