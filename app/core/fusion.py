"""Reciprocal rank fusion: several rankings of ids into one score per id."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

RRF_K = 10  # damps the head of each ranking; tuned on the eval (the usual 60 let weak legs vote too much)

Id = TypeVar("Id", bound=Hashable)


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[Id]], weights: Sequence[float] | None = None, k: int = RRF_K
) -> dict[Id, float]:
    """Sum of weight / (k + rank) over the rankings each id appears in (rank 1-based)."""
    scores: dict[Id, float] = {}
    for n, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[n]
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return scores


def ranked(scores: dict[Id, float]) -> list[Id]:
    """The ids of a fusion, best first (ties in the ids' order, so that a ranking is reproducible)."""
    return [item for item, _ in sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))]
