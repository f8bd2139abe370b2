"""Flat against IVF on the same vectors: build time, size, dense latency and recall@10 against flat.

Three kinds of synthetic vectors (none needs a library on disk):
- "random": unit vectors drawn uniformly; no cluster structure, the worst case for IVF;
- "topics": a two-level mixture (chunks around N/20 topics, topics around N/2000 random subjects),
  the usual shape of document embeddings (chunks of a document and of a subject sit together);
- "real": the same mixture whose subjects are real embeddings of the eval set's paragraphs
  (benchmarks/eval/texts_*.py) by the bundled embedder, so the geometry between subjects is that
  of real text (about 150 subjects, whatever N);
- "diffuse": "real" with chunks far looser around their topics (see DIFFUSE_SPREAD).
Queries are drawn the same way as the vectors (new points, not stored ones).
"""

from __future__ import annotations

import math
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.index.layout import TRAINING_POINTS_PER_LIST, ivf_layout, ivf_with_lists
from app.core.index.vector_index import VectorIndex

Vectors = npt.NDArray[np.float32]
KINDS = ("random", "topics", "real", "diffuse")
# Noise added to a centre, relative to its length: a chunk's cosine to its topic is
# 1/sqrt(1 + CHUNK_SPREAD^2) ~ 0.62, two chunks of one topic ~0.4, of two random topics ~0.
CHUNK_SPREAD = 1.25
# "diffuse": chunks far looser around their topic (cosine ~0.37 to it, ~0.14 between two of one
# topic, top-10 neighbours of a query ~0.23 against ~0.13 for the 99th percentile of all chunks):
# harder for IVF than real embeddings, kept as a bound between "real" and "random".
DIFFUSE_SPREAD = 2.5
# Topics around a subject: cosine ~0.8 to it.
TOPIC_SPREAD = 0.75


def _unit(rows: Vectors) -> Vectors:
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows


def _around(rng: np.random.Generator, centres: Vectors, n: int, spread: float) -> Vectors:
    """n unit vectors, each near a centre picked at random: cosine to it ~1/sqrt(1+spread^2)."""
    dim = centres.shape[1]
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, 100_000):
        part = min(100_000, n - start)
        picked = centres[rng.integers(0, len(centres), part)]
        noise = rng.standard_normal((part, dim)).astype(np.float32) * (spread / math.sqrt(dim))
        out[start : start + part] = _unit(picked + noise)
    return out


def random_vectors(n: int, dim: int, rng: np.random.Generator) -> Vectors:
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, 100_000):
        part = min(100_000, n - start)
        out[start : start + part] = _unit(rng.standard_normal((part, dim)).astype(np.float32))
    return out


Maker = Callable[[int, np.random.Generator], Vectors]


def vector_maker(kind: str, library_size: int, dim: int, real_centres: Vectors | None) -> Maker:
    """A function (n, rng) -> n vectors of this kind, from the same topics for the library and its
    queries. Two levels, as in a real library: subjects (library_size // 2000: random vectors, or
    the real paragraph embeddings), topics around them (library_size // 20, a document's worth of
    chunks each; topics of one subject overlap), and chunks around the topics."""
    if kind == "random":
        return lambda n, rng: random_vectors(n, dim, rng)
    topic_rng = np.random.default_rng(11)
    if kind == "topics":  # "real" and "diffuse" use the real subjects
        subjects = random_vectors(max(5, library_size // 2000), dim, topic_rng)
    else:
        assert real_centres is not None
        subjects = real_centres
    topics = _around(topic_rng, subjects, max(10, library_size // 20), TOPIC_SPREAD)
    spread = DIFFUSE_SPREAD if kind == "diffuse" else CHUNK_SPREAD
    return lambda n, rng: _around(rng, topics, n, spread)


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(values), 2), "p95": round(p95, 2)}


def _file_mb(index: VectorIndex) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "v.faiss"
        index.save(path)
        return round(path.stat().st_size / 1e6, 1)


def compare(vectors: Vectors, queries: Vectors, pool: int, probes: tuple[int, ...]) -> dict[str, object]:
    """Flat and IVF (the product's layout for this size) over `vectors`; recall@10 and recall@pool
    of IVF against flat for each nprobe in `probes` (the product's NPROBE among them)."""
    n, dim = vectors.shape
    ids = np.arange(1, n + 1, dtype=np.int64)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    flat = VectorIndex(dim)
    flat.add(ids, vectors)
    flat_build = time.perf_counter() - started
    layout = ivf_layout(n)
    started = time.perf_counter()
    size = min(n, layout.nlist * TRAINING_POINTS_PER_LIST)
    sample = np.random.default_rng(0).choice(n, size, replace=False)
    ivf = VectorIndex.empty(dim, layout, vectors[np.sort(sample)])
    train = time.perf_counter() - started
    ivf.add(ids, vectors)
    ivf_build = time.perf_counter() - started
    result: dict[str, object] = {
        "vectors": n,
        "flat": {"build_s": round(flat_build, 2), "file_mb": _file_mb(flat)},
        "ivf": {
            "nlist": layout.nlist,
            "nprobe": layout.nprobe,
            "train_s": round(train, 1),
            "build_s": round(ivf_build, 1),
            "file_mb": _file_mb(ivf),
        },
        "peak_rss_growth_mb": round((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024),
    }
    flat_ms: list[float] = []
    truth: list[list[int]] = []
    for query in queries:
        started = time.perf_counter()
        hits = flat.search(query, pool)
        flat_ms.append((time.perf_counter() - started) * 1000)
        truth.append([cid for cid, _ in hits])
    result["flat_dense_ms"] = _percentiles(flat_ms)
    sweep: dict[str, object] = {}
    for nprobe in probes:
        ivf._index.nprobe = min(nprobe, layout.nlist)
        times: list[float] = []
        at10: list[float] = []
        at_pool: list[float] = []
        for query, exact in zip(queries, truth, strict=True):
            started = time.perf_counter()
            found = [cid for cid, _ in ivf.search(query, pool)]
            times.append((time.perf_counter() - started) * 1000)
            at10.append(len(set(found[:10]) & set(exact[:10])) / min(10, len(exact)))
            at_pool.append(len(set(found) & set(exact)) / len(exact))
        sweep[str(nprobe)] = {
            "dense_ms": _percentiles(times),
            "recall_at_10": round(statistics.mean(at10), 4),
            f"recall_at_{pool}": round(statistics.mean(at_pool), 4),
        }
    ivf._index.nprobe = ivf_with_lists(layout.nlist).nprobe
    result["ivf_by_nprobe"] = sweep
    return result
