"""How far the bounded keyword legs (the rarest phrases within a row budget) rank like exact bm25 over
every phrase: per leg and for the fused hits, on the same queries (bench_retrieval_scale.py)."""

from __future__ import annotations

import statistics
import time

from app.core.normalize import normalize_text
from app.core.retrieve import Retriever


def _overlap(exact: list[int], bounded: list[int]) -> float:
    """The fraction of the exact ranking's ids that the bounded one also found (1.0 for none)."""
    return len(set(exact) & set(bounded)) / len(exact) if exact else 1.0


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 3),
        "min": round(min(values), 3),
        "identical": round(sum(v == 1.0 for v in values) / len(values), 3),
    }


def agreement(bounded: Retriever, batches: dict[str, list[str]], k: int) -> dict[str, object]:
    """Per script: for each keyword leg, the overlap of the bounded top-`pool` and top-10 with the
    exact ones and both legs' median time; for the fused search, the share of queries whose top `k`
    hits are the same chunks in the same order, and the mean overlap of the top `k`."""
    exact = Retriever(
        bounded.store,
        bounded.index,
        bounded.embedder,
        bounded.candidates,
        bounded.weights,
        bounded.scripts,
        keyword_budget=None,
    )
    pool = bounded.candidates
    out: dict[str, object] = {"budget": bounded.keyword_budget, "pool": pool}
    for lang, queries in batches.items():
        legs: dict[str, dict[str, list[float]]] = {}
        same_order: list[float] = []
        fused_overlap: list[float] = []
        for query in queries:
            for _, table, phrases in bounded.keyword_legs(normalize_text(query)):
                figures = legs.setdefault(table, {"pool": [], "top10": [], "exact_ms": [], "bounded_ms": []})
                started = time.perf_counter()
                truth = exact.keyword_search(table, phrases, pool)
                figures["exact_ms"].append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                found = bounded.keyword_search(table, phrases, pool)
                figures["bounded_ms"].append((time.perf_counter() - started) * 1000)
                figures["pool"].append(_overlap(truth, found))
                figures["top10"].append(_overlap(truth[:10], found[:10]))
            truth_hits = [h.chunk_id for h in exact.search(query, k).hits]
            found_hits = [h.chunk_id for h in bounded.search(query, k).hits]
            same_order.append(1.0 if truth_hits == found_hits else 0.0)
            fused_overlap.append(_overlap(truth_hits, found_hits))
        for table, figures in legs.items():
            out[f"{table}_{lang}"] = {
                f"overlap_at_{pool}": _summary(figures["pool"]),
                "overlap_at_10": _summary(figures["top10"]),
                "exact_ms_p50": round(statistics.median(figures["exact_ms"]), 1),
                "bounded_ms_p50": round(statistics.median(figures["bounded_ms"]), 1),
            }
        out[f"fused_top{k}_{lang}"] = {
            "same_hits_same_order": round(statistics.fmean(same_order), 3),
            "overlap": _summary(fused_overlap),
        }
    return out
