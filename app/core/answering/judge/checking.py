"""The answer check the pipeline runs: attribution, with or without the embedder, and the citations kept."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from app.core.answering.evidence.scoring import Embed
from app.core.answering.judge.attribution import attribute
from app.core.answering.judge.checks import Attribution
from app.core.embed.engine import CosineScales
from app.core.passage import Citation, Hit

# (question, answer text, the passages the model was given, [1] first) -> every sentence checked
Verifier = Callable[[str, str, Sequence[Hit]], Attribution]
# chunk ids -> their stored embeddings (one row each, in order), or None when any is missing
StoredVectors = Callable[[Sequence[int]], npt.NDArray[np.float32] | None]


def lexical_verifier(question: str, text: str, passages: Sequence[Hit]) -> Attribution:
    """Sentence support from the words and numbers alone (no embedder at hand)."""
    return attribute(text, [hit.text for hit in passages], question=question, places=passages)


def embedding_verifier(stored_vectors: StoredVectors, embed: Embed, scales: CosineScales) -> Verifier:
    """Sentence support from words, numbers and the embedder: the passages' vectors come from the
    store, the sentences are embedded in one batch."""

    def verify(question: str, text: str, passages: Sequence[Hit]) -> Attribution:
        vectors = stored_vectors([hit.chunk_id for hit in passages]) if passages else None
        return attribute(
            text,
            [hit.text for hit in passages],
            passage_vectors=vectors,
            embed=embed if vectors is not None else None,
            scales=scales,
            question=question,
            places=passages,
        )

    return verify


def verified_citations(attribution: Attribution, passages: Sequence[Hit]) -> list[Citation]:
    """One citation per passage that supports a sentence, in order of first use: "model" when a
    marker the model wrote survived verification somewhere, "matched" when Folio found it."""
    sources: dict[int, str] = {}
    for sentence in attribution.sentences:
        for n in sentence.citations:
            if not 1 <= n <= len(passages):
                continue
            if sentence.source == "model" and n in _own_markers(sentence.text):
                sources[n] = "model"
            else:
                sources.setdefault(n, "matched")
    return [Citation.from_hit(n, passages[n - 1], source) for n, source in sources.items()]


def _own_markers(text: str) -> set[int]:
    from app.core.prompt.citations import marker_numbers

    return set(marker_numbers(text))
