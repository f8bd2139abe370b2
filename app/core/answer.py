"""The answering pipeline: retrieve, gate, budget the prompt, stream the model, cite, persist."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.errors import FolioError, ModelError, UsageError
from app.core.generate.engine import Engine, GenerationEnd, TokenStep
from app.core.generate.model import ModelInfo, Sampling, check_model_file
from app.core.passage import Hit, SearchResult
from app.core.prompt.budget import Budget, DroppedPassage, HistoryTurn, assemble
from app.core.prompt.citations import Citation, parse_citations
from app.core.prompt.history import ChatSummary, StoredMessage, chat_turns, save_answer, to_stored
from app.core.prompt.system import not_covered_answer
from app.core.store.chats import Chat, Message

log = logging.getLogger("folio.answer")
METRICS_EVERY = 16  # tokens between live Metrics events


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
    # The text of a cut-off answer to the same question: generation resumes right after it, and
    # the final answer is that text plus the continuation.
    continue_from: str = ""


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
        }


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

    @property
    def complete(self) -> bool:
        return self.finish_reason == "stop"

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
        }

    def trace(self) -> dict[str, Any]:
        """What the trace row stores: the JSON document plus the sampling and the question."""
        data = self.to_json()
        data.pop("answer")
        data.pop("thinking")
        data["question"] = self.question
        data["model_path"] = self.model_path
        data["sampling"] = self.sampling.to_json()
        return data


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
class Finished:
    answer: Answer


AnswerEvent = Retrieved | Delta | Metrics | Finished


class _Run:
    """The mutable state of one request while it streams."""

    def __init__(self, question: str, sampling: Sampling, model_path: str) -> None:
        self.submitted = time.perf_counter()
        self.question = question
        self.sampling = sampling
        self.model_path = model_path
        self.model = Path(model_path).name
        self.spans: dict[str, float] = {}
        self.hits: list[Hit] = []
        self.retrieval_ms = 0.0
        self.budget: Budget | None = None
        self.passages: list[Hit] = []
        self.answer: list[str] = []
        self.thinking: list[str] = []
        self.end: GenerationEnd | None = None
        self.grounded = True

    def mark(self, span: str, started: float) -> float:
        now = time.perf_counter()
        self.spans[span] = (now - started) * 1000.0
        return now


class Answerer:
    """Answers questions over a library with one local model; safe to share between threads."""

    def __init__(
        self,
        settings: Settings,
        sessions: sessionmaker[Session],
        search: Callable[[str, int], SearchResult],
        engine: Engine | None = None,
    ) -> None:
        self._settings = settings
        self._sessions = sessions
        self._search = search
        self._owns_engine = engine is None
        self._engine = engine or Engine.from_settings(settings)
        self._pending: Engine | None = None
        self._before_pending = settings  # the model settings to go back to if the new model fails
        self._state = threading.RLock()

    @property
    def settings(self) -> Settings:
        return self._settings

    @property
    def engine(self) -> Engine:
        return self._engine

    # model -------------------------------------------------------------------------------------

    def load_model(self) -> ModelInfo:
        """Load the configured model once (thread-safe); a failed new model keeps the old one."""
        with self._state:
            pending = self._pending
            if pending is None:
                return self._engine.load()
            try:
                info = pending.load()
            except ModelError:
                previous = self._before_pending
                self._pending = None
                self._settings = replace(
                    self._settings,
                    model_path=previous.model_path,
                    n_ctx=previous.n_ctx,
                    n_threads=previous.n_threads,
                    n_gpu_layers=previous.n_gpu_layers,
                )
                raise
            old, self._engine, self._pending = self._engine, pending, None
            owned, self._owns_engine = self._owns_engine, True
        if owned:
            with old.lock:  # wait for a generation still running on the old model
                old.close()
        return info

    def model_info(self) -> ModelInfo | None:
        return self._engine.info()

    def set_settings(self, settings: Settings) -> None:
        """Take new settings; a changed model or context reloads at the next use."""
        settings.validate()
        with self._state:
            target = self._pending or self._engine
            if target.matches(settings):
                self._settings = settings
                return
            if self._engine.matches(settings):
                self._pending, self._settings = None, settings
                return
            check_model_file(settings.chat_model_path())
            if self._pending is None:
                self._before_pending = self._settings
            self._pending = Engine.from_settings(settings)
            self._settings = settings

    # asking ------------------------------------------------------------------------------------

    def _sampling(self, options: AskOptions) -> Sampling:
        s = self._settings

        def pick(value: Any, default: Any) -> Any:
            return default if value is None else value

        sampling = Sampling(
            temperature=float(pick(options.temperature, s.temperature)),
            top_k=int(pick(options.top_k, s.top_k)),
            top_p=float(pick(options.top_p, s.top_p)),
            min_p=float(pick(options.min_p, s.min_p)),
            repeat_penalty=s.repeat_penalty,
            seed=int(pick(options.seed, s.seed)),
            max_tokens=int(pick(options.max_tokens, s.max_tokens)),
        )
        s.replace(
            temperature=sampling.temperature,
            top_k=sampling.top_k,
            top_p=sampling.top_p,
            min_p=sampling.min_p,
            max_tokens=sampling.max_tokens,
        )  # validates, raising UsageError
        return sampling

    def ask_stream(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterator[AnswerEvent]:
        """Validate now (UsageError), then stream the events of one answer."""
        question = question.strip()
        if not question:
            raise UsageError("the question is empty")
        options = options or AskOptions()
        sampling = self._sampling(options)
        k = options.passages_k or self._settings.passages_k
        if not 1 <= k <= 50:
            raise UsageError("passages per answer must be between 1 and 50")
        if chat_id is not None:
            with self._sessions() as session:
                if session.get(Chat, chat_id) is None:
                    raise UsageError(f"no chat with id {chat_id}")
        return self._stream(question, options, sampling, k, chat_id, cancel or CancelToken())

    def _stream(
        self,
        question: str,
        options: AskOptions,
        sampling: Sampling,
        k: int,
        chat_id: int | None,
        cancel: CancelToken,
    ) -> Iterator[AnswerEvent]:
        with self._state:
            engine = self._pending or self._engine
        run = _Run(question, sampling, str(engine.model_path))
        acquired = False
        while not acquired and not cancel.cancelled:
            acquired = engine.lock.acquire(timeout=0.05)
        started = run.mark("queue", run.submitted)
        try:
            if not acquired:
                yield Retrieved([], 0.0)
                yield Finished(self._finish(run, "cancelled", chat_id))
                return
            yield from self._answer(run, engine, options, k, chat_id, cancel, started)
        finally:
            if acquired:
                engine.lock.release()

    def _answer(
        self,
        run: _Run,
        engine: Engine,
        options: AskOptions,
        k: int,
        chat_id: int | None,
        cancel: CancelToken,
        started: float,
    ) -> Iterator[AnswerEvent]:
        try:
            result = self._search(run.question, k)
            run.hits, run.retrieval_ms = list(result.hits), result.retrieval_ms
        except Exception as exc:
            run.mark("retrieve", started)
            yield Retrieved([], 0.0)
            yield Finished(self._finish(run, "error", chat_id, _describe(exc)))
            return
        started = run.mark("retrieve", started)
        yield Retrieved(run.hits, run.retrieval_ms)
        best = max((hit.similarity for hit in run.hits), default=None)
        if best is None or best < self._settings.grounding_threshold:
            run.grounded = False
            run.answer.append(not_covered_answer(run.question))
            yield Delta(run.answer[0], "answer", 0)
            yield Finished(self._finish(run, "stop", chat_id, gated=True))
            return
        if cancel.cancelled:
            yield Finished(self._finish(run, "cancelled", chat_id))
            return
        try:
            if engine is not self._engine:
                self.load_model()
            info = engine.load()
            target_s = self._settings.ttft_target_s
            rate = engine.prefill_rate() if target_s > 0 else None
            started = run.mark("load", started)
            escape = engine.escape_special
            history = [
                HistoryTurn(escape(turn.question), escape(turn.answer))
                for turn in (chat_turns(self._sessions, chat_id) if chat_id is not None else [])
            ]
            plan = assemble(
                engine,
                escape(run.question),
                [replace(hit, text=escape(hit.text)) for hit in run.hits],
                history,
                n_ctx=info.n_ctx,
                max_tokens=run.sampling.max_tokens,
                enable_thinking=options.thinking,
                ttft_limit_tokens=int(target_s * rate) if rate else None,
            )
            cached = engine.cached_prefix(plan.tokens)
            elapsed_ms = (time.perf_counter() - run.submitted) * 1000.0
            run.budget = plan.budget.with_prediction(
                cached,
                rate or engine.known_prefill_rate,
                target_s * 1000.0 if target_s > 0 else None,
                elapsed_ms,
            )
            originals = {hit.chunk_id: hit for hit in run.hits}  # citations quote the stored text
            run.passages = [originals[hit.chunk_id] for hit in plan.passages]
            tokens, start_thinking = plan.tokens, engine.opens_thinking(plan.prompt)
            if options.continue_from:
                # Resume inside the assistant turn, after the text already produced.
                tokens = engine.tokenize_prompt(plan.prompt + escape(options.continue_from))
                if len(tokens) + run.sampling.max_tokens > info.n_ctx:
                    raise UsageError("there is no room left in the context to continue this answer")
                run.answer.append(options.continue_from)
                start_thinking = False
            started = run.mark("assemble", started)
        except Exception as exc:
            yield Finished(self._finish(run, "error", chat_id, _describe(exc)))
            return
        yield from self._decode(run, engine, tokens, start_thinking, cancel)
        yield Finished(self._finish(run, run.end.finish_reason if run.end else "error", chat_id))

    def _decode(
        self, run: _Run, engine: Engine, tokens: list[int], start_thinking: bool, cancel: CancelToken
    ) -> Iterator[AnswerEvent]:
        stream_started = time.perf_counter()
        held = count = thinking = 0
        first_at: float | None = None
        channel = "answer"
        for event in engine.stream(tokens, run.sampling, cancel, start_thinking=start_thinking):
            if isinstance(event, TokenStep):
                held += 1
                count += 1
                thinking += event.thinking
                first_at = first_at or event.at
            else:
                run.end = event
            for channel, text in event.pieces:
                (run.thinking if channel == "thinking" else run.answer).append(text)
                yield Delta(text, channel, held)
                held = 0
            if isinstance(event, TokenStep) and held:
                channel = "thinking" if event.thinking else "answer"
            if isinstance(event, TokenStep) and count % METRICS_EVERY == 1:
                yield self._live(run, first_at, event.at, count, thinking)
        if held:  # tokens that completed no text (e.g. a cut stop string): still counted
            yield Delta("", channel, held)
        end = run.end
        if end is not None and end.first_token_at is not None:
            run.spans["prefill"] = (end.first_token_at - stream_started) * 1000.0
            run.spans["decode"] = (time.perf_counter() - end.first_token_at) * 1000.0
        else:
            run.spans["prefill"] = (time.perf_counter() - stream_started) * 1000.0
            run.spans["decode"] = 0.0

    @staticmethod
    def _live(run: _Run, first_at: float | None, now: float, count: int, thinking: int) -> Metrics:
        ttft = None if first_at is None else (first_at - run.submitted) * 1000.0
        rate = None
        if first_at is not None and count > 1 and now > first_at:
            rate = (count - 1) / (now - first_at)
        return Metrics(count, thinking, ttft, rate, (now - run.submitted) * 1000.0)

    def _finish(
        self, run: _Run, reason: str, chat_id: int | None, error: str | None = None, gated: bool = False
    ) -> Answer:
        parse_started = time.perf_counter()
        text = "".join(run.answer).rstrip()
        citations, invalid = parse_citations(text, run.passages) if run.passages else ([], [])
        run.mark("parse", parse_started)
        end = run.end
        error = error or (end.error if end else None)
        budget = run.budget
        if gated:
            budget = Budget(
                n_ctx=self._engine.n_ctx,
                answer_reserve=run.sampling.max_tokens,
                limit_tokens=self._engine.n_ctx - run.sampling.max_tokens,
                ttft_limit_tokens=None,
                passages_dropped=[
                    DroppedPassage(hit.chunk_id, hit.document, hit.page, 0, "below_grounding_threshold")
                    for hit in run.hits
                ],
            )
        metrics = self._metrics(run)
        if budget is not None and metrics.ttft_ms is not None:
            budget = replace(budget, measured_ttft_ms=metrics.ttft_ms)
        answer = Answer(
            question=run.question,
            answer=text,
            thinking="".join(run.thinking).strip(),
            citations=citations,
            invalid_citations=invalid,
            finish_reason=reason,
            model=run.model,
            budget=budget,
            metrics=metrics,
            spans=dict(run.spans),
            grounded=run.grounded,
            sampling=run.sampling,
            passages=list(run.passages),
            chat_id=chat_id,
            error=error,
            model_path=run.model_path,
        )
        try:
            chat, message = save_answer(self._sessions, answer, chat_id)
        except Exception as exc:  # the answer is still shown; the trace is lost
            log.error("could not save the answer: %s", exc)
            return answer
        return replace(answer, chat_id=chat, message_id=message)

    def _metrics(self, run: _Run) -> AnswerMetrics:
        end = run.end
        total = (time.perf_counter() - run.submitted) * 1000.0
        base = AnswerMetrics(
            queue_ms=run.spans.get("queue", 0.0),
            retrieval_ms=run.retrieval_ms,
            assemble_ms=run.spans.get("assemble", 0.0),
            prompt_tokens=run.budget.prompt_tokens if run.budget else 0,
            total_ms=total,
        )
        if end is None:
            return base
        ttft = None if end.first_token_at is None else (end.first_token_at - run.submitted) * 1000.0
        tpot = None
        if end.completion_tokens >= 2 and end.first_token_at is not None and end.last_token_at is not None:
            tpot = (end.last_token_at - end.first_token_at) * 1000.0 / (end.completion_tokens - 1)
        return replace(
            base,
            prompt_tokens=end.prompt_tokens,
            ttft_ms=ttft,
            prefill_tokens_per_s=end.prefill_tokens_per_s,
            completion_tokens=end.completion_tokens,
            thinking_tokens=end.thinking_tokens,
            tpot_ms=tpot,
            tokens_per_s=1000.0 / tpot if tpot else None,
        )

    def ask(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
        on_delta: Callable[[Delta], None] | None = None,
    ) -> Answer:
        """Answer and return the result; `on_delta` sees the text as it streams."""
        for event in self.ask_stream(question, options, chat_id, cancel):
            if isinstance(event, Delta) and on_delta is not None:
                on_delta(event)
            elif isinstance(event, Finished):
                return event.answer
        raise AssertionError("the answer stream ended without a Finished event")

    # chats -------------------------------------------------------------------------------------

    def chats(self) -> list[ChatSummary]:
        with self._sessions() as session:
            counts = select(Message.chat_id, func.count(Message.id)).group_by(Message.chat_id).subquery()
            rows = session.execute(
                select(Chat, counts.c[1])
                .outerjoin(counts, counts.c.chat_id == Chat.id)
                .order_by(Chat.updated_at.desc(), Chat.id.desc())
            ).all()
            return [ChatSummary(c.id, c.title, c.created_at, c.updated_at, int(n or 0)) for c, n in rows]

    def chat_history(self, chat_id: int) -> list[StoredMessage]:
        with self._sessions() as session:
            chat = session.get(Chat, chat_id)
            if chat is None:
                raise UsageError(f"no chat with id {chat_id}")
            return [to_stored(message) for message in chat.messages]

    def new_chat(self, title: str = "") -> int:
        with self._sessions.begin() as session:
            chat = Chat(title=title.strip())
            session.add(chat)
            session.flush()
            return chat.id

    def delete_chat(self, chat_id: int) -> None:
        with self._sessions.begin() as session:
            chat = session.get(Chat, chat_id)
            if chat is None:
                raise UsageError(f"no chat with id {chat_id}")
            session.delete(chat)

    def close(self) -> None:
        with self._state:
            engines = [self._engine] if self._owns_engine else []
            if self._pending is not None:
                engines.append(self._pending)
            self._pending = None
        for engine in engines:
            with engine.lock:
                engine.close()


def _describe(exc: Exception) -> str:
    """A user-facing message for known problems; type and text for bugs (logged with traceback)."""
    if isinstance(exc, FolioError):
        return str(exc)
    log.exception("answering failed")
    return f"internal error: {type(exc).__name__}: {exc}"
