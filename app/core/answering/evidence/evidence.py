"""The evidence of one question, worked out once: the passages' sentences, their marks and embeddings."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from app.core.answering.evidence.facts import Facts, facts_of
from app.core.answering.evidence.quantities import number_kinds
from app.core.answering.evidence.scoring import Embed, Matrix
from app.core.answering.evidence.sentences import split_sentences
from app.core.answering.evidence.superseded import Replacement, replaced_figures
from app.core.contents import is_contents_line
from app.core.passage import Hit

_DIGITS = re.compile(r"\d+")
SHAPE_WIDTH = 12  # a running header repeated on two passages is at least this long


@dataclass(frozen=True)
class EvidenceSentence:
    """One sentence of a passage: where it stands, its text to score, and what it is not."""

    chunk_id: int
    passage: int  # index of its passage among the question's hits
    start: int
    end: int
    body: str  # the text to score (markers and Markdown removed)
    contents: bool  # a table-of-contents, index or dotted-leader line: never evidence
    repeated: bool  # it stands in another passage too (a running header or footer): never evidence

    @property
    def usable(self) -> bool:
        """Whether the sentence can be evidence at all."""
        return not self.contents and not self.repeated


def unit_rows(vectors: object) -> Matrix:
    """The rows scaled to length 1 (a zero row stays zero)."""
    array = np.asarray(vectors, dtype=np.float64)
    unit: Matrix = array / np.maximum(np.linalg.norm(array, axis=-1, keepdims=True), 1e-12)
    return unit


def contents_marks(bodies: Sequence[str]) -> list[bool]:
    """Which of a passage's consecutive sentences are contents lines: alone, or joined with the one
    before or after (a splitter cuts "2.4 How can R be obtained? . . . 4" at its question mark)."""
    marks = []
    for i, body in enumerate(bodies):
        before = f"{bodies[i - 1]} {body}" if i > 0 else ""
        after = f"{body} {bodies[i + 1]}" if i + 1 < len(bodies) else ""
        marks.append(any(is_contents_line(text) for text in (body, before, after) if text))
    return marks


def shape(body: str) -> str:
    """A sentence with its numbers and spacing left out: running headers of two pages compare equal."""
    return " ".join(_DIGITS.sub("#", body.lower()).split())


class Evidence:
    """The question and every sentence of its passages, split once, with one embedding call for the
    question and all the sentences (when an embedder is given). Locate, evidence selection and the
    judge read it; the judge only embeds the answer's own sentences."""

    def __init__(self, question: str, hits: Sequence[Hit], embed: Embed | None = None) -> None:
        self.question = question
        self.chunk_ids = [hit.chunk_id for hit in hits]
        split = [split_sentences(hit.text) for hit in hits]
        seen: dict[str, int] = {}
        for sentences in split:
            for key in {shape(s.body) for s in sentences}:
                seen[key] = seen.get(key, 0) + 1
        self.sentences: list[EvidenceSentence] = []
        self.of_passage: list[list[int]] = []
        for index, (hit, sentences) in enumerate(zip(hits, split, strict=True)):
            mine = []
            marks = contents_marks([sentence.body for sentence in sentences])
            for sentence, contents in zip(sentences, marks, strict=True):
                key = shape(sentence.body)
                mine.append(len(self.sentences))
                self.sentences.append(
                    EvidenceSentence(
                        hit.chunk_id,
                        index,
                        sentence.start,
                        sentence.end,
                        sentence.body,
                        contents,
                        seen.get(key, 0) > 1 and len(key) >= SHAPE_WIDTH,
                    )
                )
            self.of_passage.append(mine)
        self._embed = embed
        self._vectors: Matrix | None = None
        self._question_vector: Matrix | None = None
        self._facts: dict[int, Facts] = {}
        self._kinds: dict[int, dict[str, str]] = {}
        self._replaced: dict[int, frozenset[Replacement]] = {}

    @property
    def embedded(self) -> bool:
        return self._embed is not None

    def _ensure_vectors(self) -> None:
        if self._vectors is not None or self._embed is None:
            return
        texts = [self.question, *(s.body for s in self.sentences)]
        unit = unit_rows(self._embed(texts))
        self._question_vector, self._vectors = unit[0], unit[1:]

    def question_cosines(self) -> list[float] | None:
        """Each sentence's cosine to the question (None without an embedder)."""
        self._ensure_vectors()
        if self._vectors is None or self._question_vector is None:
            return None
        return [float(c) for c in self._vectors @ self._question_vector]

    def vectors(self) -> tuple[Matrix, Matrix] | None:
        """(the question's unit vector, the sentences' unit vectors), or None without an embedder."""
        self._ensure_vectors()
        if self._vectors is None or self._question_vector is None:
            return None
        return self._question_vector, self._vectors

    def embed_texts(self, texts: list[str]) -> Matrix | None:
        """Unit vectors of other texts (an answer's sentences) in the same space, one call."""
        if self._embed is None or not texts:
            return None
        return unit_rows(self._embed(texts))

    def facts(self, index: int) -> Facts:
        """The facts sentence `index` states (facts.py), worked out once."""
        if index not in self._facts:
            self._facts[index] = facts_of(self.sentences[index].body)
        return self._facts[index]

    def numbers(self, index: int) -> frozenset[str]:
        """The numbers sentence `index` states (facts.py)."""
        return self.facts(index).numbers

    def number_kinds(self, index: int) -> dict[str, str]:
        """The figures of sentence `index` with what each measures (quantities.number_kinds), worked
        out once."""
        if index not in self._kinds:
            facts = self.facts(index)
            self._kinds[index] = number_kinds(facts.numbers, facts.quantities)
        return self._kinds[index]

    def replaced(self, index: int) -> frozenset[Replacement]:
        """The figures sentence `index` states as former values, each with its replacement
        (superseded.py), worked out once."""
        if index not in self._replaced:
            self._replaced[index] = replaced_figures(self.sentences[index].body)
        return self._replaced[index]

    def passage_of(self, chunk_id: int) -> int | None:
        """The index of the passage with this chunk id, None when the question's hits lack it."""
        try:
            return self.chunk_ids.index(chunk_id)
        except ValueError:
            return None
