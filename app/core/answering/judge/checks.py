"""The records of a checked answer: each sentence's support and citations, and the whole answer's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Source = Literal["model", "matched", "none"]
Kind = Literal["factual", "refusal", "connective", "restatement"]
Span = tuple[int, int]


@dataclass(frozen=True)
class SentenceCheck:
    """One answer sentence after verification; citations are 1-based passage numbers."""

    text: str
    start: int
    end: int
    citations: tuple[int, ...]
    source: Source
    support: float
    supported: bool | None  # None for refusals and connective sentences
    kind: Kind
    wrong_citations: tuple[int, ...]  # markers whose passage does not support the sentence
    evidence: dict[int, tuple[Span, ...]]  # cited passage -> [start, end) in its text that support it
    # Whether a supported sentence is about what was asked (its supporting span covers the question's
    # subject); None without a question, for unsupported and for non-factual sentences.
    on_question: bool | None = None
    # "wrong_binding": its number is on the page for something else (subject.py); "negation": it states
    # what its supporting span denies (negation.py); "" otherwise
    problem: str = ""
    # what supports it: "words" (its words and numbers are in the passage), "meaning" (the embedder
    # finds the passage sentence says it, in either language, and its facts are there); "" unsupported
    basis: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "citations": list(self.citations),
            "source": self.source,
            "support": round(self.support, 3),
            "supported": self.supported,
            "kind": self.kind,
            "wrong_citations": list(self.wrong_citations),
            "evidence": {str(n): [list(span) for span in spans] for n, spans in self.evidence.items()},
            "on_question": self.on_question,
            "problem": self.problem,
            "basis": self.basis,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SentenceCheck:
        supported = data.get("supported")
        return cls(
            text=str(data["text"]),
            start=int(data["start"]),
            end=int(data["end"]),
            citations=tuple(int(n) for n in data.get("citations", [])),
            source=_source(str(data.get("source", "none"))),
            support=float(data.get("support", 0.0)),
            supported=None if supported is None else bool(supported),
            kind=_kind(str(data.get("kind", "factual"))),
            wrong_citations=tuple(int(n) for n in data.get("wrong_citations", [])),
            evidence={
                int(n): tuple((int(a), int(b)) for a, b in spans)
                for n, spans in dict(data.get("evidence", {})).items()
            },
            on_question=None if data.get("on_question") is None else bool(data["on_question"]),
            problem=str(data.get("problem") or ""),
            basis=str(data.get("basis") or ""),
        )


@dataclass(frozen=True)
class Attribution:
    """Every sentence of an answer checked; support_rate = supported / factual sentences (None if none)."""

    sentences: tuple[SentenceCheck, ...]
    support_rate: float | None
    wrong_citations: tuple[int, ...]

    def cited(self) -> list[int]:
        """Passage numbers cited after verification (model's and matched), in order of first use."""
        return list(dict.fromkeys(n for sentence in self.sentences for n in sentence.citations))

    def to_json(self) -> dict[str, Any]:
        return {
            "sentences": [sentence.to_json() for sentence in self.sentences],
            "support_rate": None if self.support_rate is None else round(self.support_rate, 3),
            "wrong_citations": list(self.wrong_citations),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Attribution:
        rate = data.get("support_rate")
        return cls(
            sentences=tuple(SentenceCheck.from_json(item) for item in data.get("sentences", [])),
            support_rate=None if rate is None else float(rate),
            wrong_citations=tuple(int(n) for n in data.get("wrong_citations", [])),
        )


def _source(value: str) -> Source:
    if value == "model":
        return "model"
    return "matched" if value == "matched" else "none"


_KINDS: dict[str, Kind] = {"refusal": "refusal", "connective": "connective", "restatement": "restatement"}


def _kind(value: str) -> Kind:
    return _KINDS.get(value, "factual")
