"""Hybrid search: dense (FAISS) and keyword (FTS5 terms + trigram) ranks, fused with per-script
weights, then one hit per place (overlapping chunks of a page collapse into the best one)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from app.core.embed.embedder import Embedder
from app.core.errors import UsageError
from app.core.fusion import ranked, reciprocal_rank_fusion
from app.core.index.scripts import ScriptPartition
from app.core.index.vector_index import VectorIndex
from app.core.keywords import terms_phrases, trigram_phrases
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.names import about_another, names_in
from app.core.normalize import normalize_text
from app.core.passage import Hit, SearchResult
from app.core.script import has_cjk
from app.core.store.keyword_tables import RANKED_ROWS
from app.core.store.library import LibraryStore
from app.core.store.records import ChunkRow

# The keyword legs run beside the query embedding and the dense search (SQLite and torch release the
# GIL): same rankings, but a search costs about its slowest leg instead of the sum of them (the
# legs' times at 10k-1M chunks: benchmarks/README.md, "Retrieval at scale"). Threads start on
# first use.
_KEYWORD_WORKERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="folio-keywords")


@dataclass(frozen=True)
class LegWeights:
    """How much each ranking's vote counts in the fusion (0 = that leg is not run).

    `other_script` None: one dense ranking over every chunk. Otherwise two dense rankings, one
    among the chunks in the query's own script (weight `dense`) and one among the others (this
    weight): a page in the other language is then not crowded out by the question's own. With
    `apart`, the other script's ranking is not one more leg but a list of its own, fused by rank
    with the fusion of all the rest: its best passages come in among the first few whatever the
    keyword legs found in the question's language.
    """

    dense: float
    terms: float
    trigram: float
    other_script: float | None = None
    apart: bool = False
    translated: float = 0.8  # the legs of the query's translation, among the other script's chunks
    # With `apart`: when the other script's best cosine is more than `other_margin` below the own
    # script's best, that list's weight is multiplied by `other_damp` (None: never)
    other_margin: float | None = None
    other_damp: float = 1.0


# Tuned on the retrieval eval (benchmarks/eval: 70 answerable questions, English and Chinese) by a
# grid over the weights and RRF_K, choosing a point whose neighbours score nearly as well. The
# bundled embedder all-MiniLM-L6-v2 was trained on English: on Chinese queries its ranking still
# helps a little as a tie-breaker, so it keeps a small vote. The terms and trigram legs see the
# same words (correlated); on Chinese the trigram leg gets half the terms leg's weight. The dense leg
# is ranked per script (`other_script`): on the eval that left every same-language figure as it was
# and found English pages for Chinese questions sooner (MRR 0.53 -> 0.65), the other script's
# chunks no longer crowded out by the ones in the question's own script.
WEIGHTS = {
    "latin": LegWeights(dense=0.5, terms=1.0, trigram=1.0, other_script=0.8),
    "cjk": LegWeights(dense=0.25, terms=1.0, trigram=0.5, other_script=0.8),
}
# For an embedder trained on both languages (Embedder.multilingual), whose dense ranking among the
# other script's chunks is worth more. Both `other_script` weights: bench_embedders.py --grid over
# the eval's same- and cross-language questions (benchmarks/README.md, "Embedders"). The other
# script's list counts a quarter when its best cosine is more than 0.05 below the own script's
# best: bench_other_language.py --margins over the eval (same-language hit@5 en 0.89 -> 0.91,
# zh 0.92 -> 0.93, cross-language unchanged; margins 0.02-0.05 and damps 0-0.25 score alike).
MULTILINGUAL_WEIGHTS = {
    "latin": LegWeights(
        dense=0.5, terms=1.0, trigram=1.0, other_script=0.8, apart=True, other_margin=0.05, other_damp=0.25
    ),
    "cjk": LegWeights(
        dense=0.5, terms=1.0, trigram=0.5, other_script=0.8, apart=True, other_margin=0.05, other_damp=0.25
    ),
}


# A chunk that is mostly a table of contents or an index (Hit.contents) keeps this share of its fused
# score: it names the question's topic (its headings) but says nothing about it, so the pages it
# points at come first. A prior, not yet fitted: benchmarks/bench_contents_weight.py fits it on the
# calibration half of the eval (benchmarks/README.md, "Contents pages and heading paths").
CONTENTS_WEIGHT = 0.25
# A chunk about a sibling of a model or version the question names, and not about that one (by its
# file name and heading path first, else its text: the KX-40's manual for a question about the KX-60;
# app/core/names.py), keeps this share of its fused score: its figures are the sibling's. Fitted on
# the calibration half (benchmarks/bench_contents_weight.py --of other_name; benchmarks/README.md).
OTHER_NAME_WEIGHT = 0.5


def query_script(query: str) -> str:
    """ "cjk" when the query has any CJK character, else "latin"."""
    return "cjk" if has_cjk(query) else "latin"


def same_place(a: ChunkRow, b: ChunkRow) -> bool:
    """True when two chunks of one document overlap (neighbours share their overlap sentences)."""
    if a.document_id != b.document_id:
        return False
    return (a.page_start, a.char_start) < (b.page_end, b.char_end) and (b.page_start, b.char_start) < (
        a.page_end,
        a.char_end,
    )


def row_hit(row: ChunkRow, score: float, query_vector: np.ndarray) -> Hit:
    """A stored chunk as a hit for a query: its place, text, fused score and cosine to the query."""
    vector = np.frombuffer(row.embedding, dtype=np.float32)
    return Hit(
        chunk_id=row.chunk_id,
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
        heading=row.heading,
        contents=row.contents,
    )


def document_passages(
    store: LibraryStore, document_id: int, dimension: int
) -> tuple[list[Hit], npt.NDArray[np.float32]]:
    """A document's chunks in reading order, as passages (no query: similarity 0), with their
    stored vectors of `dimension`, one row each."""
    ids = store.document_chunk_ids(document_id)
    found = store.chunks(ids)
    rows = [found[chunk] for chunk in ids if chunk in found]
    no_query = np.zeros(dimension, dtype=np.float32)
    hits = [row_hit(row, 0.0, no_query) for row in rows]
    vectors = [np.frombuffer(row.embedding, dtype=np.float32) for row in rows]
    return hits, np.stack(vectors) if vectors else np.zeros((0, no_query.shape[0]), dtype=np.float32)


def stored_vectors(store: LibraryStore, chunk_ids: Sequence[int]) -> npt.NDArray[np.float32] | None:
    """The stored vectors of these chunks, one row each in that order; None if one is gone."""
    rows = store.chunks(chunk_ids)
    if any(chunk not in rows for chunk in chunk_ids):
        return None
    return np.stack([np.frombuffer(rows[chunk].embedding, dtype=np.float32) for chunk in chunk_ids])


class Retriever:
    """Finds the chunks that best answer a query, with page provenance."""

    def __init__(
        self,
        store: LibraryStore,
        index: VectorIndex,
        embedder: Embedder,
        candidates: int = 50,
        weights: dict[str, LegWeights] | None = None,
        scripts: ScriptPartition | None = None,
        keyword_budget: int | None = RANKED_ROWS,
        contents_weight: float = CONTENTS_WEIGHT,
        other_name_weight: float = OTHER_NAME_WEIGHT,
    ) -> None:
        self.store = store
        self.index = index
        self.embedder = embedder
        self.candidates = candidates
        self.weights = weights or (MULTILINGUAL_WEIGHTS if embedder.multilingual else WEIGHTS)
        self._scripts = scripts
        self.keyword_budget = keyword_budget  # rows each keyword leg ranks at most (None: all)
        self.contents_weight = contents_weight
        self.other_name_weight = other_name_weight

    @property
    def scripts(self) -> ScriptPartition:
        """Which chunks are CJK (built here when the caller keeps none: a whole read of the texts)."""
        if self._scripts is None:
            self._scripts = ScriptPartition(self.store)
        return self._scripts

    def fused(self, normalized: str, pool: int, translated: str = "") -> tuple[np.ndarray, dict[int, float]]:
        """The query's vector and each chunk's fused score. The keyword legs run in worker threads
        while the query is embedded and searched densely (once, or once per script). `translated`:
        the query in the other script's language; its legs, fused, make one more list (weight
        `translated`), which joins the other script's list when that is fused apart."""
        script = query_script(normalized)
        weights = self.weights[script]
        keyword: list[tuple[float, Future[list[int]]]] = [
            (weight, _KEYWORD_WORKERS.submit(self.keyword_search, table, phrases, pool))
            for weight, table, phrases in self.keyword_legs(normalized)
        ]
        translation = self._translation_ranking(translated, script, weights, pool) if translated else []
        legs: list[tuple[float, list[int]]] = []
        best: list[float] = []  # each dense leg's best cosine
        try:
            query_vector = self.embedder.embed_query([normalized])[0]
            for weight, found in self.dense_legs(query_vector, script, weights, pool):
                legs.append((weight, [cid for cid, _ in found]))
                best.append(found[0][1] if found else -1.0)
        finally:
            legs += [(weight, future.result()) for weight, future in keyword]
        if not (weights.apart and weights.other_script and weights.dense > 0):
            votes = reciprocal_rank_fusion([r for _, r in legs], [w for w, _ in legs])
            if not translation:
                return query_vector, votes
            return query_vector, reciprocal_rank_fusion(
                [ranked(votes), translation], [1.0, weights.translated]
            )
        apart = legs.pop(1)  # dense_legs: the own script's ranking, then the other script's
        own = ranked(reciprocal_rank_fusion([r for _, r in legs], [w for w, _ in legs]))
        other, weight = apart[1], apart[0]
        if translation:  # the other script's list: its own ranking and the translation's
            other = ranked(reciprocal_rank_fusion([other, translation], [1.0, weights.translated]))
        elif weights.other_margin is not None and len(best) > 1 and best[1] < best[0] - weights.other_margin:
            weight *= weights.other_damp  # the other language's pages are much further from the query
        return query_vector, reciprocal_rank_fusion([own, other], [1.0, weight])

    def _translation_ranking(self, translated: str, script: str, weights: LegWeights, pool: int) -> list[int]:
        """The translated query's ranking of the other script's chunks: its dense leg among them and
        its keyword legs (the keyword tables hold both scripts; a translation matches its own),
        fused with that script's own weights. Empty for a "translation" in the query's own script."""
        text = normalize_text(translated)
        if not text or query_script(text) == script or weights.translated <= 0:
            return []
        other = query_script(text)
        own = self.weights[other]
        vector = self.embedder.embed_query([text])[0]
        legs = [
            (own.dense, [cid for cid, _ in self.index.search(vector, pool, self.scripts.selector(other))])
        ]
        legs += [
            (weight, self.keyword_search(table, phrases, pool))
            for weight, table, phrases in self.keyword_legs(text)
        ]
        return ranked(reciprocal_rank_fusion([r for w, r in legs if w > 0], [w for w, _ in legs if w > 0]))

    def dense_legs(
        self, query_vector: np.ndarray, script: str, weights: LegWeights, pool: int
    ) -> list[tuple[float, list[tuple[int, float]]]]:
        """(weight, ranking with cosines) of the dense leg: one ranking, or one among each script's
        chunks (the query's own script first)."""
        if weights.other_script is None:
            if weights.dense <= 0:
                return []
            return [(weights.dense, self.index.search(query_vector, pool))]
        other = "latin" if script == "cjk" else "cjk"
        return [
            (weight, self.index.search(query_vector, pool, self.scripts.selector(name)))
            for weight, name in ((weights.dense, script), (weights.other_script, other))
            if weight > 0
        ]

    def keyword_legs(self, normalized: str) -> list[tuple[float, str, list[str]]]:
        """(weight, table, FTS5 phrases) of each keyword leg this query runs."""
        weights = self.weights[query_script(normalized)]
        return [
            (weight, table, phrases)
            for weight, table, phrases in (
                (weights.terms, "chunks_terms", terms_phrases(normalized)),
                (weights.trigram, "chunks_trigram", trigram_phrases(normalized)),
            )
            if weight > 0 and phrases
        ]

    def keyword_search(self, table: str, phrases: list[str], pool: int) -> list[int]:
        """One keyword leg's ranking, within this retriever's row budget."""
        return self.store.keyword_search(table, phrases, pool, self.keyword_budget)

    def search(self, query: str, k: int, translated: str = "") -> SearchResult:
        """The best `k` passages for `query`; `translated` (optional) is the query in the library's
        other language, whose legs help find that language's pages."""
        started = time.perf_counter()
        normalized = normalize_text(query)
        if not normalized:
            raise UsageError(QT_TRANSLATE_NOOP("Core", "the question is empty"))
        if k < 1:
            raise UsageError(QT_TRANSLATE_NOOP("Core", "the number of results must be at least 1"))
        pool = max(self.candidates, k)
        query_vector, fused = self.fused(normalized, pool, translated)
        if not fused:  # no leg with a vote found anything: the dense ranking is better than none
            fused = reciprocal_rank_fusion([[cid for cid, _ in self.index.search(query_vector, pool)]])
        fused = self.weigh_names(normalized, self.weigh_contents(fused))
        ranked = sorted(fused.items(), key=lambda item: (-item[1], item[0]))  # scores kept for the hits
        hits = [row_hit(row, score, query_vector) for row, score in self._distinct_places(ranked, k)]
        return SearchResult(query, hits, (time.perf_counter() - started) * 1000)

    def passages(self, query: str, chunk_ids: Sequence[int]) -> SearchResult:
        """The named chunks as hits of `query` (their cosine to it; no rank score), in the order
        given; a chunk no longer in the library is left out. A chat's next question keeps its
        previous passages this way (answering/pipeline/carry.py)."""
        started = time.perf_counter()
        normalized = normalize_text(query)
        if not normalized:
            raise UsageError(QT_TRANSLATE_NOOP("Core", "the question is empty"))
        query_vector = self.embedder.embed_query([normalized])[0]
        rows = self.store.chunks(list(chunk_ids))
        hits = [row_hit(rows[cid], 0.0, query_vector) for cid in chunk_ids if cid in rows]
        return SearchResult(query, hits, (time.perf_counter() - started) * 1000)

    def search_document(self, query: str, document_id: int, k: int) -> SearchResult:
        """The best `k` passages for `query` within one document: its chunks ranked by cosine
        (exactly, from their stored vectors) and by the keyword legs restricted to it, fused with
        the query script's weights (the across-files path: the best passage of each document)."""
        started = time.perf_counter()
        normalized = normalize_text(query)
        if not normalized:
            raise UsageError(QT_TRANSLATE_NOOP("Core", "the question is empty"))
        weights = self.weights[query_script(normalized)]
        ids = self.store.document_chunk_ids(document_id)
        rows = self.store.chunks(ids)
        query_vector = self.embedder.embed_query([normalized])[0]
        vectors = {cid: np.frombuffer(row.embedding, dtype=np.float32) for cid, row in rows.items()}
        cosines = {cid: float(np.dot(vector, query_vector)) for cid, vector in vectors.items()}
        legs = [(weights.dense or 0.5, sorted(cosines, key=lambda cid: (-cosines[cid], cid)))]
        legs += [  # one document's rows are few: its keyword legs are ranked exactly (budget None)
            (weight, self.store.keyword_search(table, phrases, len(ids) or 1, None, document_id))
            for weight, table, phrases in self.keyword_legs(normalized)
        ]
        fused = self.weigh_contents(reciprocal_rank_fusion([r for _, r in legs], [w for w, _ in legs]))
        ranked = sorted(fused.items(), key=lambda item: (-item[1], item[0]))
        hits = [row_hit(row, score, query_vector) for row, score in self._distinct_places(ranked, k)]
        return SearchResult(query, hits, (time.perf_counter() - started) * 1000)

    def weigh_contents(self, fused: dict[int, float]) -> dict[int, float]:
        """The fused scores with each table-of-contents or index chunk's multiplied by
        `contents_weight` (one look-up of the candidates' flags)."""
        if self.contents_weight == 1.0:
            return fused
        contents = self.store.contents_chunks(list(fused))
        return {
            cid: score * self.contents_weight if cid in contents else score for cid, score in fused.items()
        }

    def weigh_names(self, normalized: str, fused: dict[int, float]) -> dict[int, float]:
        """The fused scores with each chunk that names a sibling of a name the query gives, and not
        that name, multiplied by `other_name_weight` (the candidates read once, only for a query
        that names a model or a version)."""
        asked = names_in(normalized)
        if not asked or self.other_name_weight == 1.0:
            return fused
        rows = self.store.chunks(list(fused))
        other = {cid for cid, row in rows.items() if about_another(asked, row)}
        return {
            cid: score * self.other_name_weight if cid in other else score for cid, score in fused.items()
        }

    def _distinct_places(self, ranked: list[tuple[int, float]], k: int) -> list[tuple[ChunkRow, float]]:
        """The best `k` chunks of which no two overlap; a chunk overlapping a better one is skipped."""
        chosen: list[tuple[ChunkRow, float]] = []
        start = 0
        while len(chosen) < k and start < len(ranked):
            batch = ranked[start : start + 2 * k]
            start += len(batch)
            rows = self.store.chunks([cid for cid, _ in batch])
            for cid, score in batch:
                row = rows.get(cid)
                if row is None:  # deleted between ranking and fetch
                    continue
                if any(same_place(row, kept) for kept, _ in chosen):
                    continue
                chosen.append((row, score))
                if len(chosen) == k:
                    break
        return chosen
