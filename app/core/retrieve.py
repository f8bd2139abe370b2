"""Hybrid search: dense (FAISS) and keyword (FTS5 terms + trigram) ranks fused by reciprocal rank."""

from __future__ import annotations

import time

import numpy as np

from app.core.embed.embedder import Embedder
from app.core.errors import UsageError
from app.core.index.vector_index import VectorIndex
from app.core.ingest.normalize import normalize_text
from app.core.keywords import terms_query, trigram_query
from app.core.passage import Hit, SearchResult
from app.core.store.library import LibraryStore

RRF_K = 60  # the usual constant: damps the head of each ranking


def reciprocal_rank_fusion(rankings: list[list[int]], k: int = RRF_K) -> dict[int, float]:
    """Sum of 1 / (k + rank) over the rankings each id appears in (rank 1-based)."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return scores


class Retriever:
    """Finds the chunks that best answer a query, with page provenance."""

    def __init__(
        self, store: LibraryStore, index: VectorIndex, embedder: Embedder, candidates: int = 50
    ) -> None:
        self.store = store
        self.index = index
        self.embedder = embedder
        self.candidates = candidates

    def search(self, query: str, k: int) -> SearchResult:
        started = time.perf_counter()
        normalized = normalize_text(query)
        if not normalized:
            raise UsageError("the question is empty")
        if k < 1:
            raise UsageError("the number of results must be at least 1")
        pool = max(self.candidates, k)
        query_vector = self.embedder.embed([normalized])[0]
        dense = [cid for cid, _ in self.index.search(query_vector, pool)]
        rankings = [dense]
        for table, expression in (
            ("chunks_terms", terms_query(normalized)),
            ("chunks_trigram", trigram_query(normalized)),
        ):
            if expression:
                rankings.append(self.store.keyword_search(table, expression, pool))
        fused = reciprocal_rank_fusion(rankings)
        best = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:k]
        rows = self.store.chunks([cid for cid, _ in best])
        hits: list[Hit] = []
        for cid, score in best:
            row = rows.get(cid)
            if row is None:  # deleted between ranking and fetch
                continue
            vector = np.frombuffer(row.embedding, dtype=np.float32)
            hits.append(
                Hit(
                    chunk_id=cid,
                    document_id=row.document_id,
                    document=row.document,
                    path=row.path,
                    page=row.page_start,
                    page_end=row.page_end,
                    char_start=row.char_start,
                    char_end=row.char_end,
                    text=row.text,
                    score=score,
                    similarity=float(np.dot(vector, query_vector)),
                    section=row.section,
                )
            )
        return SearchResult(query, hits, (time.perf_counter() - started) * 1000)
