"""The question pipeline: retrieve, gate, budget the prompt, stream the model, cite, persist."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.core.answering.attribution import Attribution
from app.core.answering.checking import Verifier, lexical_verifier, verified_citations
from app.core.answering.excerpts import select_excerpts
from app.core.answering.gate import gate_score
from app.core.answering.model_slot import ModelSlot
from app.core.answering.run import AnswerRun
from app.core.answering.scoring import Embed
from app.core.answering.types import (
    Answer,
    AnswerEvent,
    AskOptions,
    Delta,
    Finished,
    Retrieved,
)
from app.core.cancel import CancelToken
from app.core.config import CITE_MODES, Settings, SettingsOwner
from app.core.errors import FolioError, UsageError
from app.core.generate.cite_grammar import citation_grammar
from app.core.generate.engine import Engine, TokenStep
from app.core.generate.model import ModelInfo, Sampling
from app.core.passage import Hit, SearchResult
from app.core.prompt.budget import Budget, DroppedPassage, HistoryTurn, assemble
from app.core.prompt.citations import parse_citations
from app.core.prompt.reuse import follow_up_order
from app.core.prompt.system import not_covered_answer, passages_did_not_fit, unsupported_notice
from app.core.store.conversations import ChatSummary, ConversationStore, StoredMessage, Turn

log = logging.getLogger("folio.answer")
METRICS_EVERY = 16  # tokens between live Metrics events


class Answerer:
    """Answers questions over a library with one local model; safe to share between threads."""

    def __init__(
        self,
        settings: Settings | SettingsOwner,
        sessions: sessionmaker[Session],
        search: Callable[[str, int], SearchResult],
        engine: Engine | None = None,
        verifier: Verifier = lexical_verifier,
        embed: Embed | None = None,
    ) -> None:
        self._verifier = verifier
        self._embed = embed  # scores passage sentences for evidence selection (words alone without)
        self._owner = settings if isinstance(settings, SettingsOwner) else SettingsOwner(settings)
        self._sessions = sessions
        self.conversations = ConversationStore(sessions)
        self._search = search
        self.slot = ModelSlot(self._owner, engine)

    @property
    def settings(self) -> Settings:
        return self._owner.current

    @property
    def _settings(self) -> Settings:
        return self._owner.current

    @property
    def engine(self) -> Engine:
        return self.slot.engine

    # model -------------------------------------------------------------------------------------

    def load_model(self) -> ModelInfo:
        """Load the configured model once (thread-safe); a failed new model keeps the old one."""
        return self.slot.load()

    def model_info(self) -> ModelInfo | None:
        return self.slot.info()

    def set_settings(self, settings: Settings) -> None:
        """Take new settings; a changed model or context is checked now and reloads at the next use."""
        self.slot.prepare(settings)
        self._owner.update(settings)

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
        if options.cite_mode is not None and options.cite_mode not in CITE_MODES:
            raise UsageError(f"citation mode must be one of {', '.join(CITE_MODES)}")
        if chat_id is not None and not self.conversations.exists(chat_id):
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
        engine = self.slot.target()
        run = AnswerRun(question, sampling, str(engine.model_path))
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
        run: AnswerRun,
        engine: Engine,
        options: AskOptions,
        k: int,
        chat_id: int | None,
        cancel: CancelToken,
        started: float,
    ) -> Iterator[AnswerEvent]:
        turns: list[Turn] = []
        try:
            turns = self.conversations.turns(chat_id) if chat_id is not None else []  # read once
            self._retrieve(run, k, turns)
        except Exception as exc:
            run.mark("retrieve", started)
            yield Retrieved([], 0.0)
            yield Finished(self._finish(run, "error", chat_id, _describe(exc)))
            return
        started = run.mark("retrieve", started)
        yield Retrieved(run.hits, run.retrieval_ms)
        if not run.hits or run.gate is None or run.gate.score < self._settings.grounding_threshold:
            run.grounded = False
            run.answer.append(not_covered_answer(run.question))
            yield Delta(run.answer[0], "answer", 0)
            yield Finished(self._finish(run, "stop", chat_id, gated=True))
            return
        if cancel.cancelled:
            yield Finished(self._finish(run, "cancelled", chat_id))
            return
        try:
            if not self.slot.is_current(engine):
                self.load_model()
            info = engine.load()
            target_s = self._settings.ttft_target_s
            rate = engine.prefill_rate() if target_s > 0 else None
            started = run.mark("load", started)
            escape = engine.escape_special
            history = [HistoryTurn(escape(turn.question), escape(turn.answer)) for turn in turns]
            shown = self._prompt_passages(run, turns)
            plan = assemble(
                engine,
                escape(run.question),
                [replace(hit, text=escape(hit.text)) for hit in shown],
                history,
                n_ctx=info.n_ctx,
                max_tokens=run.sampling.max_tokens,
                enable_thinking=options.thinking,
                ttft_limit_tokens=int(target_s * rate) if rate else None,
            )
            budget = _with_excerpts(
                plan.budget, shown, run.hits, lambda text: engine.count_tokens(escape(text))
            )
            cached = engine.cached_prefix(plan.tokens)
            elapsed_ms = (time.perf_counter() - run.submitted) * 1000.0
            run.budget = budget.with_prediction(
                cached,
                rate or engine.known_prefill_rate,
                target_s * 1000.0 if target_s > 0 else None,
                elapsed_ms,
            )
            originals = {hit.chunk_id: hit for hit in run.hits}  # citations quote the stored text
            run.passages = [originals[hit.chunk_id] for hit in plan.passages]
            tokens, start_thinking = plan.tokens, engine.opens_thinking(plan.prompt)
            continue_from = options.continue_from.rstrip("\ufffd")  # never feed a broken character
            if continue_from:
                # Resume inside the assistant turn, after the text already produced.
                tokens = engine.tokenize_prompt(plan.prompt + escape(continue_from))
                if len(tokens) + run.sampling.max_tokens > info.n_ctx:
                    raise UsageError("there is no room left in the context to continue this answer")
                run.answer.append(continue_from)
                start_thinking = False
            started = run.mark("assemble", started)
        except Exception as exc:
            yield Finished(self._finish(run, "error", chat_id, _describe(exc)))
            return
        if not run.passages:  # not even the best passage fits the context: never answer unsourced
            run.grounded = False
            run.answer.append(passages_did_not_fit(run.question))
            yield Delta(run.answer[-1], "answer", 0)
            yield Finished(self._finish(run, "stop", chat_id))
            return
        grammar = None
        if (options.cite_mode or self._settings.cite_mode) == "constrained" and not options.thinking:
            grammar = citation_grammar(len(run.passages))  # thinking text stays free
        yield from self._decode(run, engine, tokens, start_thinking, cancel, grammar, bool(continue_from))
        final = self._finish(run, run.end.finish_reason if run.end else "error", chat_id)
        streamed = "".join(run.answer).rstrip()
        if len(final.answer) > len(streamed) and final.answer.startswith(streamed):
            yield Delta(final.answer[len(streamed) :], "answer", 0)  # Folio's note on an unsupported answer
        yield Finished(final)

    def _decode(
        self,
        run: AnswerRun,
        engine: Engine,
        tokens: list[int],
        start_thinking: bool,
        cancel: CancelToken,
        grammar: str | None,
        continuing: bool = False,
    ) -> Iterator[AnswerEvent]:
        stream_started = time.perf_counter()
        held = count = thinking = 0
        first_at: float | None = None
        channel = "answer"
        stream = engine.stream(
            tokens,
            run.sampling,
            cancel,
            start_thinking=start_thinking,
            grammar=grammar,
            continuing=continuing,
        )
        for event in stream:
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
                yield run.live(first_at, event.at, count, thinking)
        if held:  # tokens that completed no text (e.g. a cut stop string): still counted
            yield Delta("", channel, held)
        end = run.end
        if end is not None and end.first_token_at is not None:
            run.spans["prefill"] = (end.first_token_at - stream_started) * 1000.0
            run.spans["decode"] = (time.perf_counter() - end.first_token_at) * 1000.0
        else:
            run.spans["prefill"] = (time.perf_counter() - stream_started) * 1000.0
            run.spans["decode"] = 0.0

    def _finish(
        self, run: AnswerRun, reason: str, chat_id: int | None, error: str | None = None, gated: bool = False
    ) -> Answer:
        parse_started = time.perf_counter()
        text = "".join(run.answer).rstrip()
        marked, invalid = parse_citations(text, run.passages) if run.passages else ([], [])
        verify_started = run.mark("parse", parse_started)
        checked = self._check(text, run.passages)
        citations = verified_citations(checked, run.passages) if checked is not None else marked
        if reason == "stop" and checked is not None and checked.support_rate == 0.0:
            # Nothing the model wrote is in the passages: say so in the answer itself, after it
            # (the sentences' offsets stay valid), so no reader takes it for the documents' answer.
            text = f"{text}\n\n{unsupported_notice(run.question)}"
        run.mark("verify", verify_started)
        end = run.end
        error = error or (end.error if end else None)
        budget = run.budget
        if gated:
            budget = Budget(
                n_ctx=self.engine.n_ctx,
                answer_reserve=run.sampling.max_tokens,
                limit_tokens=self.engine.n_ctx - run.sampling.max_tokens,
                ttft_limit_tokens=None,
                passages_dropped=[
                    DroppedPassage(hit.chunk_id, hit.document, hit.page, 0, "below_grounding_threshold")
                    for hit in run.hits
                ],
            )
        metrics = run.metrics()
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
            sentences=checked.sentences if checked is not None else (),
            support_rate=checked.support_rate if checked is not None else None,
            gate_score=round(run.gate.score, 4) if run.gate is not None else None,
            wrong_citations=[n for n in checked.wrong_citations if n not in invalid] if checked else [],
        )
        try:
            chat, message = self.conversations.save(answer.record(), chat_id)
        except Exception as exc:  # the answer is still shown; the trace is lost
            log.error("could not save the answer: %s", exc)
            return answer
        return replace(answer, chat_id=chat, message_id=message)

    def _check(self, text: str, passages: list[Hit]) -> Attribution | None:
        """Every sentence checked against the passages; None (and logged) if checking failed."""
        if not text:
            return None
        try:
            return self._verifier(text, passages)
        except Exception:  # a bug in checking must not lose the answer
            log.exception("checking the answer's sentences failed")
            return None

    def _retrieve(self, run: AnswerRun, k: int, turns: list[Turn]) -> None:
        """Search for the question and score how well the hits cover it. A follow-up in a chat
        ("and why did they rise?") names little of its subject: when the question alone fails the
        gate, search again with the chat's previous question before it, and keep what covers more."""
        result = self._search(run.question, k)
        run.hits, run.retrieval_ms = list(result.hits), result.retrieval_ms
        run.gate = gate_score(run.question, run.hits)
        if not turns or (run.hits and run.gate.score >= self._settings.grounding_threshold):
            return
        query = f"{turns[-1].question}\n{run.question}"
        again = self._search(query, k)
        gate = gate_score(query, again.hits)
        run.retrieval_ms += again.retrieval_ms
        if again.hits and gate.score > run.gate.score:
            run.hits, run.gate = list(again.hits), gate

    def _prompt_passages(self, run: AnswerRun, turns: list[Turn]) -> list[Hit]:
        """The hits as the prompt shows them: cut to the sentences that matter (when set), and in a
        chat with the previous answer's passages first, as it showed them (KV cache reuse)."""
        shown = run.hits
        if self._settings.evidence_selection:
            shown = select_excerpts(run.question, run.hits, self._embed)
        previous = Budget.from_json(dict(turns[-1].trace.get("budget") or {})) if turns else None
        return follow_up_order(shown, previous, run.hits)

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
        return self.conversations.summaries()

    def chat_history(self, chat_id: int) -> list[StoredMessage]:
        return self.conversations.messages(chat_id)

    def new_chat(self, title: str = "") -> int:
        return self.conversations.create(title)

    def delete_chat(self, chat_id: int) -> None:
        self.conversations.delete(chat_id)

    def close(self) -> None:
        self.slot.close()


def _with_excerpts(
    budget: Budget, shown: Sequence[Hit], stored: Sequence[Hit], count_tokens: Callable[[str], int]
) -> Budget:
    """The budget with the texts the prompt showed of the passages it cut, and the tokens saved."""
    full = {hit.chunk_id: hit.text for hit in stored}
    excerpts = {
        hit.chunk_id: hit.text
        for hit in shown
        if hit.chunk_id in budget.passages_used and hit.text != full.get(hit.chunk_id, hit.text)
    }
    saved = sum(count_tokens(full[chunk]) - count_tokens(text) for chunk, text in excerpts.items())
    return replace(budget, excerpts=excerpts, evidence_saved_tokens=max(0, saved))


def _describe(exc: Exception) -> str:
    """A user-facing message for known problems; type and text for bugs (logged with traceback)."""
    if isinstance(exc, FolioError):
        return str(exc)
    log.exception("answering failed")
    return f"internal error: {type(exc).__name__}: {exc}"
