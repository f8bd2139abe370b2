"""The sentence-level dense leg measured by bench_sentence_leg.py: units of chunks in a FAISS index per
script, and a Retriever that fuses their hits beside the chunk legs (a measurement, not the library's)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.answering.evidence.sentences import split_sentences
from app.core.embed.embedder import FEW_TEXTS, Embedder
from app.core.fusion import ranked, reciprocal_rank_fusion
from app.core.retrieve import LegWeights, Retriever, query_script
from app.core.script import text_script
from app.core.store.records import ChunkRow

UNIT_HITS = 8  # units searched per chunk wanted: many units of one chunk may lead the ranking


def units_of(text: str, window: int) -> list[str]:
    """A chunk's sentences, or windows of `window` consecutive sentences (stride 1)."""
    sentences = split_sentences(text)
    if len(sentences) <= window:
        return [text]
    return [
        text[sentences[i].start : sentences[i + window - 1].end] for i in range(len(sentences) - window + 1)
    ]


class UnitIndex:
    """The units of every chunk, embedded, in one flat inner-product index per script."""

    def __init__(self, rows: Sequence[ChunkRow], window: int, embedder: Embedder, cache: Path) -> None:
        import faiss

        texts: list[str] = []
        owners: list[int] = []
        for row in rows:
            for unit in units_of(row.text, window):
                texts.append(unit)
                owners.append(row.chunk_id)
        self.owners = np.asarray(owners, dtype=np.int64)
        self.count = len(texts)
        self.embed_s = 0.0  # CPU seconds of this process (or of the processes that made the cache)
        if cache.is_file():
            saved = np.load(cache)
            vectors = saved["vectors"]
            if len(vectors) != len(texts):
                raise SystemExit(f"{cache} holds {len(vectors)} vectors for {len(texts)} units")
            self.embed_s = float(saved["embed_s"])
        else:
            started = time.process_time()
            # calls of FEW_TEXTS run on one thread: on a loaded machine, many threads spin and wait
            vectors = np.concatenate(
                [embedder.embed(texts[n : n + FEW_TEXTS]) for n in range(0, len(texts), FEW_TEXTS)]
            )
            self.embed_s = time.process_time() - started
            np.savez(cache, vectors=vectors, embed_s=self.embed_s)
        self.bytes = int(vectors.nbytes)
        script_of = {row.chunk_id: text_script(row.text) for row in rows}
        self.indexes: dict[str, tuple[Any, npt.NDArray[np.int64]]] = {}
        for script in ("latin", "cjk"):
            members = np.asarray(
                [n for n, cid in enumerate(owners) if script_of[cid] == script], dtype=np.int64
            )
            index = faiss.IndexFlatIP(vectors.shape[1])
            if len(members):
                index.add(np.ascontiguousarray(vectors[members]))
            self.indexes[script] = (index, members)
        self.search_ms: list[float] = []

    def ranking(self, query: npt.NDArray[np.float32], script: str, pool: int) -> list[tuple[int, float]]:
        """Chunks of `script` by their best unit's cosine to the query, at most `pool`."""
        started = time.perf_counter()
        index, members = self.indexes[script]
        if index.ntotal == 0:
            return []
        scores, found = index.search(query.reshape(1, -1), min(index.ntotal, pool * UNIT_HITS))
        best: dict[int, float] = {}
        for score, position in zip(scores[0], found[0], strict=True):
            if position < 0:
                continue
            chunk = int(self.owners[members[position]])
            if chunk not in best:
                best[chunk] = float(score)
        self.search_ms.append((time.perf_counter() - started) * 1000)
        return list(best.items())[:pool]


class SentenceLegRetriever(Retriever):
    """Retriever.fused with the unit legs: `ratio` x the dense weight among the query's own script,
    and (apart) fused into the other script's list at weight `ratio`."""

    units: UnitIndex
    ratio: float = 0.0

    def fused(self, normalized: str, pool: int, translated: str = "") -> tuple[np.ndarray, dict[int, float]]:
        if self.ratio <= 0:
            return super().fused(normalized, pool, translated)
        script = query_script(normalized)
        weights: LegWeights = self.weights[script]
        other_script = "latin" if script == "cjk" else "cjk"
        legs = [
            (weight, self.keyword_search(table, phrases, pool))
            for weight, table, phrases in self.keyword_legs(normalized)
        ]
        query_vector = self.embedder.embed_query([normalized])[0]
        dense = self.dense_legs(query_vector, script, weights, pool)
        own_units = [cid for cid, _ in self.units.ranking(query_vector, script, pool)]
        sentence_weight = self.ratio * (weights.dense or 0.5)
        if not (weights.apart and weights.other_script and weights.dense > 0):
            other_units = (
                [cid for cid, _ in self.units.ranking(query_vector, other_script, pool)]
                if weights.other_script
                else []
            )
            all_legs = [(w, [cid for cid, _ in found]) for w, found in dense] + legs
            all_legs += [
                (sentence_weight, own_units),
                (self.ratio * (weights.other_script or 0.0), other_units),
            ]
            return query_vector, reciprocal_rank_fusion([r for _, r in all_legs], [w for w, _ in all_legs])
        (own_w, own_found), (other_w, other_found) = dense[0], dense[1]
        own_legs = [(own_w, [cid for cid, _ in own_found]), (sentence_weight, own_units), *legs]
        own = ranked(reciprocal_rank_fusion([r for _, r in own_legs], [w for w, _ in own_legs]))
        other_units = [cid for cid, _ in self.units.ranking(query_vector, other_script, pool)]
        other = ranked(
            reciprocal_rank_fusion([[cid for cid, _ in other_found], other_units], [1.0, self.ratio])
        )
        best = [own_found[0][1] if own_found else -1.0, other_found[0][1] if other_found else -1.0]
        weight = other_w
        if weights.other_margin is not None and best[1] < best[0] - weights.other_margin:
            weight *= weights.other_damp
        return query_vector, reciprocal_rank_fusion([own, other], [1.0, weight])
