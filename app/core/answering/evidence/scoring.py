"""The figures the gate, evidence selection and attribution share: term weights, coverage, cosines."""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from app.core.answering.evidence.lexical import background
from app.core.keywords import is_number
from app.core.names import is_name_term

Matrix = npt.NDArray[np.float64]
# texts -> their embeddings, one row each
Embed = Callable[[list[str]], npt.ArrayLike]

# How cosines read as evidence is the embedder's own (embed/engine.py CosineScales).


@dataclass(frozen=True)
class Weights:
    """Term weights for one set of passages: inverse passage frequency damped by background commonness."""

    document_frequency: dict[str, int]
    passages: int

    @classmethod
    def of(cls, passage_terms: Sequence[Iterable[str]]) -> Weights:
        frequency: dict[str, int] = {}
        for passage in passage_terms:
            for term in set(passage):
                frequency[term] = frequency.get(term, 0) + 1
        return cls(frequency, len(passage_terms))

    def weight(self, term: str, number_boost: float) -> float:
        rarity = math.log(1.0 + (self.passages + 1) / (self.document_frequency.get(term, 0) + 0.5))
        boost = number_boost if is_number(term) or is_name_term(term) else 1.0
        return rarity * (1.0 - 0.8 * background(term)) * boost


@dataclass(frozen=True)
class WeightedTerms:
    """The terms of a question or an answer sentence with their weights, in order, and their total."""

    weight: dict[str, float]
    total: float

    @classmethod
    def of(cls, terms: Iterable[str], weights: Weights, number_boost: float) -> WeightedTerms:
        weight = {term: weights.weight(term, number_boost) for term in terms}
        return cls(weight, sum(weight.values()))

    def weight_of(self, held: Iterable[str]) -> float:
        """The summed weight of `held`, in its order (a term not among these weighs nothing)."""
        return sum(self.weight.get(term, 0.0) for term in held)

    def found_in(self, found: Container[str], covered: Container[str] = ()) -> float:
        """The summed weight of these terms that `found` holds and `covered` does not, in term order."""
        return self.weight_of(term for term in self.weight if term in found and term not in covered)

    def share(self, weight: float) -> float:
        """`weight` as a share of the total, 0 without terms."""
        return weight / self.total if self.total > 0 else 0.0

    def coverage(self, found: Container[str]) -> float:
        """Weighted coverage: the share of the terms' weight that `found` holds."""
        return self.share(self.found_in(found))


def scaled_cosine(cosine: float, floor: float, ceiling: float) -> float:
    """(cosine - floor) / (ceiling - floor) clamped to [0, 1]: 0 up to the floor, 1 from the ceiling."""
    span = max(ceiling - floor, 1e-6)
    return min(max((cosine - floor) / span, 0.0), 1.0)


def cosine_matrix(rows: npt.ArrayLike, columns: npt.ArrayLike) -> Matrix:
    """Cosines of each row vector with each column vector (a 1-D `columns` is one vector: a column
    of cosines comes back flat); a zero vector has cosine 0 with everything."""
    result: Matrix = _unit(rows) @ _unit(columns).T
    return result


def _unit(vectors: npt.ArrayLike) -> Matrix:
    array = np.asarray(vectors, dtype=np.float64)
    result: Matrix = array / np.maximum(np.linalg.norm(array, axis=-1, keepdims=True), 1e-12)
    return result
