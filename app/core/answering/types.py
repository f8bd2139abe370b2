"""What answering takes and gives: per-question options, the finished Answer, streamed events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.core.answering.evidence.locate import LocatedSentence
from app.core.answering.judge.checks import Attribution, SentenceCheck
from app.core.generate.kv_cache import KvCacheUse
from app.core.generate.model import Sampling
from app.core.passage import Citation, Hit
from app.core.prompt.budget import Budget
from app.core.store.conversations import AnswerRecord, StoredMessage


@dataclass(frozen=True)
class AskOptions:
    """Per-question overrides; None takes the value from Settings."""

    thinking: bool = False
    max_tokens: int | None = None
    temperature: float | None = None
    top_k: int | None = None
    top_p: float | None = None
    min_p: float | None = None
    seed: int | None = None
    passages_k: int | None = None
    cite_mode: str | None = None  # "free" | "constrained" (Settings.cite_mode)
    # The text of a cut-off answer to the same question: generation resumes right after it, and
    # the final answer is that text plus the continuation.
    continue_from: str = ""
    # Where the answer reads (scope.py): "" or "auto" detects it from the question; "passages",
    # "each-file" or "document:NAME" chooses it. `selected`: the document selected in the window.
    scope: str = ""
    selected: str = ""


@dataclass(frozen=True)
class AnswerMetrics:
    """The figures of ARCHITECTURE.md §2 (milliseconds, tokens, tokens per second)."""

    queue_ms: float = 0.0
    retrieval_ms: float = 0.0
    assemble_ms: float = 0.0
    prompt_tokens: int = 0
    ttft_ms: float | None = None
    prefill_tokens_per_s: float | None = None
    completion_tokens: int = 0
    thinking_tokens: int = 0
    tpot_ms: float | None = None
    tokens_per_s: float | None = None
    total_ms: float = 0.0
    evidence_ms: float | None = None  # from the question to the sentences Folio located (Located)
    # where the token counts and tok/s come from: "engine" (in process), "server usage",
    # "server timings" or "counted" (a server's streamed chunks)
    counts_from: str = "engine"

    def to_json(self) -> dict[str, Any]:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 2)

        return {
            "queue_ms": rounded(self.queue_ms),
            "retrieval_ms": rounded(self.retrieval_ms),
            "assemble_ms": rounded(self.assemble_ms),
            "prompt_tokens": self.prompt_tokens,
            "ttft_ms": rounded(self.ttft_ms),
            "prefill_tokens_per_s": rounded(self.prefill_tokens_per_s),
            "completion_tokens": self.completion_tokens,
            "thinking_tokens": self.thinking_tokens,
            "tpot_ms": rounded(self.tpot_ms),
            "tokens_per_s": rounded(self.tokens_per_s),
            "total_ms": rounded(self.total_ms),
            "evidence_ms": rounded(self.evidence_ms),
            "counts_from": self.counts_from,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerMetrics:
        known = set(cls.__dataclass_fields__)
        return cls(**{key: value for key, value in data.items() if key in known and value is not None})


@dataclass(frozen=True)
class Answer:
    """One finished answer; only finish_reason "stop" is complete."""

    question: str
    answer: str
    thinking: str
    citations: list[Citation]
    invalid_citations: list[int]
    finish_reason: str
    model: str
    budget: Budget | None
    metrics: AnswerMetrics
    spans: dict[str, float]
    grounded: bool
    sampling: Sampling
    passages: list[Hit] = field(default_factory=list)
    chat_id: int | None = None
    message_id: int | None = None
    error: str | None = None
    model_path: str = ""
    # every sentence checked against the passages (ARCHITECTURE.md §2 "verify")
    sentences: tuple[SentenceCheck, ...] = ()
    support_rate: float | None = None  # supported factual sentences / factual sentences
    wrong_citations: list[int] = field(default_factory=list)  # markers whose passage does not support
    gate_score: float | None = None  # the grounding gate's score of the best passage, in [0, 1]
    # answered | partly | not_answered | not_in_documents (answering/judge/verdict.py); None: nothing to judge
    verdict: str | None = None
    located: list[LocatedSentence] = field(default_factory=list)  # the sentences shown before the answer
    kv_cache: KvCacheUse | None = None  # None: the model was not called (the gate answered)
    asked_at: datetime | None = None  # when the question was asked (UTC)
    # the model's first answer when it only repeated the question (or was a bare marker) and Folio
    # asked again (answering/pipeline/reask.py); "" when the answer is the first one
    reasked_from: str = ""
    # the figures of the model's answer that no passage states, when Folio withdrew that answer
    # (answering/judge/invented.py; its text is `reasked_from`): "102" or "10, 2.5"; "" when not withdrawn
    withdrawn: str = ""

    @property
    def complete(self) -> bool:
        return self.finish_reason == "stop"

    def support_counts(self) -> tuple[int, int]:
        """(supported, judged) statements: refusals and connective sentences are not judged."""
        judged = [s for s in self.sentences if s.supported is not None]
        return sum(1 for s in judged if s.supported), len(judged)

    def to_json(self) -> dict[str, Any]:
        """The `folio ask --json` document (ARCHITECTURE.md §4)."""
        return {
            "answer": self.answer,
            "thinking": self.thinking,
            "citations": [citation.to_json() for citation in self.citations],
            "invalid_citations": list(self.invalid_citations),
            "finish_reason": self.finish_reason,
            "complete": self.complete,
            "grounded": self.grounded,
            "model": self.model,
            "budget": self.budget.to_json() if self.budget is not None else {},
            "metrics": self.metrics.to_json(),
            "spans": {name: round(ms, 2) for name, ms in self.spans.items()},
            "chat_id": self.chat_id,
            "message_id": self.message_id,
            "error": self.error,
            "sentences": [sentence.to_json() for sentence in self.sentences],
            "support_rate": None if self.support_rate is None else round(self.support_rate, 3),
            "wrong_citations": list(self.wrong_citations),
            "gate_score": self.gate_score,
            "verdict": self.verdict,
            "located": [found.to_json() for found in self.located],
            "kv_cache": self.kv_cache.to_json() if self.kv_cache is not None else None,
            "reasked_from": self.reasked_from,
            "withdrawn": self.withdrawn,
        }

    def trace(self) -> dict[str, Any]:
        """What the trace row stores: the JSON document plus the sampling and the question."""
        data = self.to_json()
        data.pop("answer")
        data.pop("thinking")
        data["question"] = self.question
        data["model_path"] = self.model_path
        data["sampling"] = self.sampling.to_json()
        if self.asked_at is not None:
            data["asked_at"] = self.asked_at.isoformat()
        return data

    def record(self) -> AnswerRecord:
        """The plain record the conversation store saves."""
        return AnswerRecord(
            question=self.question,
            text=self.answer,
            thinking=self.thinking,
            finish_reason=self.finish_reason,
            citations=list(self.citations),
            trace=self.trace(),
        )

    @classmethod
    def from_stored(cls, question: str, message: StoredMessage, asked_at: datetime | None = None) -> Answer:
        """A saved answer, as typed as it was when it finished (older traces may lack fields); asked
        when its trace says, else at `asked_at` (the question's stored time), else when it was saved."""
        trace = dict(message.trace or {})
        recorded = trace.get("asked_at")
        when = (
            datetime.fromisoformat(recorded) if isinstance(recorded, str) else asked_at or message.created_at
        )
        when = when if when.tzinfo is not None else when.replace(tzinfo=UTC)  # SQLite keeps UTC, naive
        checked = Attribution.from_json(trace)
        return cls(
            question=question,
            answer=message.content,
            thinking=message.thinking,
            citations=list(message.citations),
            invalid_citations=[int(n) for n in trace.get("invalid_citations") or []],
            finish_reason=message.finish_reason or str(trace.get("finish_reason", "")),
            model=str(trace.get("model", "")),
            budget=Budget.from_json(dict(trace.get("budget") or {})),
            metrics=AnswerMetrics.from_json(dict(trace.get("metrics") or {})),
            spans={str(k): float(v) for k, v in (trace.get("spans") or {}).items()},
            grounded=bool(trace.get("grounded", True)),
            sampling=Sampling.from_json(dict(trace.get("sampling") or {})),
            chat_id=trace.get("chat_id"),
            message_id=message.id,
            error=trace.get("error"),
            model_path=str(trace.get("model_path", "")),
            sentences=checked.sentences,
            support_rate=checked.support_rate,
            wrong_citations=list(checked.wrong_citations),
            gate_score=trace.get("gate_score", trace.get("evidence")),  # "evidence" in older traces
            verdict=trace.get("verdict"),
            kv_cache=KvCacheUse.from_json(trace.get("kv_cache")),
            asked_at=when,
            reasked_from=str(trace.get("reasked_from") or ""),
            withdrawn=str(trace.get("withdrawn") or ""),
        )


def chat_answers(messages: Iterable[StoredMessage]) -> list[Answer]:
    """A chat's stored messages as its answers, oldest first, each with the question before it."""
    answers: list[Answer] = []
    question, asked_at = "", None
    for message in messages:
        if message.role == "user":
            question, asked_at = message.content, message.created_at
        elif message.role == "assistant":
            answers.append(Answer.from_stored(question, message, asked_at))
    return answers


@dataclass(frozen=True)
class Retrieved:
    hits: list[Hit]
    retrieval_ms: float


@dataclass(frozen=True)
class Delta:
    """Streamed text; `tokens` is how many sampled tokens this text completes."""

    text: str
    channel: str  # "thinking" | "answer"
    tokens: int = 0


@dataclass(frozen=True)
class Metrics:
    """Live figures while decoding."""

    completion_tokens: int
    thinking_tokens: int
    ttft_ms: float | None
    tokens_per_s: float | None
    elapsed_ms: float


@dataclass(frozen=True)
class Located:
    """The passage sentences Folio found for the question, before the model's first token."""

    found: list[LocatedSentence]
    evidence_ms: float  # from the question to now


@dataclass(frozen=True)
class Progress:
    """A whole-document or across-files answer's step: step `step` of `steps` reads pages
    `first_page`-`last_page` of `document` (`pages` in all); `passages` is how many it reads."""

    step: int
    steps: int
    document: str
    first_page: int
    last_page: int
    pages: int
    passages: int


@dataclass(frozen=True)
class Replaced:
    """The answer streamed so far stated nothing (it repeated the question, or was a bare marker):
    Folio asks the model once more, and the text that streams next replaces it; or it gave figures
    that no passage states (`withdrawn`): Folio withdraws it, and what streams next is Folio's."""

    first: str  # the text being replaced
    withdrawn: str = ""  # its figures that no passage states ("102"), when it is withdrawn


@dataclass(frozen=True)
class Finished:
    answer: Answer


AnswerEvent = Retrieved | Located | Progress | Delta | Metrics | Replaced | Finished
