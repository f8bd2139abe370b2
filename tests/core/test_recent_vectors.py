"""RecentVectors: each distinct text reaches the real embedder once, with the vectors it gives."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from app.core.embed.embedder import Embedder
from app.core.embed.recent import RecentVectors

SENTENCES = [
    "The composite filter lasts about 3000 hours in normal use.",
    "复合滤网在正常使用下大约可以用 3000 小时。",
    "Hold the filter key for five seconds to reset the indicator.",
]


class Counted:
    """The real embedder, with the texts of every call written down."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.calls.append(list(texts))
        return self.embedder.embed(texts)


def test_the_same_vectors_as_the_embedder_and_each_text_embedded_once(
    multilingual_embedder: Embedder,
) -> None:
    counted = Counted(multilingual_embedder)
    recent = RecentVectors(counted)

    first = recent(SENTENCES[:2])
    again = recent(SENTENCES)

    assert np.allclose(first, multilingual_embedder.embed(SENTENCES[:2]), atol=1e-5)
    assert np.allclose(again, multilingual_embedder.embed(SENTENCES), atol=1e-5)
    assert counted.calls == [SENTENCES[:2], SENTENCES[2:]]


def test_a_text_repeated_in_one_call_is_embedded_once(multilingual_embedder: Embedder) -> None:
    counted = Counted(multilingual_embedder)
    recent = RecentVectors(counted)

    vectors = recent([SENTENCES[0], SENTENCES[1], SENTENCES[0]])

    assert counted.calls == [SENTENCES[:2]]
    assert vectors.shape[0] == 3
    assert np.array_equal(vectors[0], vectors[2])


def test_it_forgets_the_least_recently_used_beyond_what_it_keeps(multilingual_embedder: Embedder) -> None:
    counted = Counted(multilingual_embedder)
    recent = RecentVectors(counted, keep=2)

    recent(SENTENCES[:2])
    recent([SENTENCES[0]])  # used again: the second is now the oldest
    recent([SENTENCES[2]])
    recent([SENTENCES[0], SENTENCES[1]])

    assert len(recent) == 2
    assert counted.calls[-1] == [SENTENCES[1]]


def test_no_texts_gives_no_vectors(multilingual_embedder: Embedder) -> None:
    assert RecentVectors(multilingual_embedder.embed)([]).shape[0] == 0
