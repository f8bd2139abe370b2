"""The question pipeline: queue → retrieve → gate → locate → prompt → decode → judge → re-ask → persist."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator, Iterator, Sequence

from app.core.answering.evidence.evidence import Evidence
from app.core.answering.evidence.locate import locate
from app.core.answering.evidence.scope import Scope, detect_scope
from app.core.answering.evidence.scoring import Embed
from app.core.answering.judge.checking import Verifier, lexical_verifier
from app.core.answering.judge.invented import invented_figures
from app.core.answering.judge.judge import Judgement
from app.core.answering.judge.policy import DEFAULT as DEFAULT_POLICY
from app.core.answering.judge.policy import Policy
from app.core.answering.options import ResolvedAsk, resolve_options
from app.core.answering.pipeline.decode import decode
from app.core.answering.pipeline.finish import Outcome, build_answer, check, gated_budget, judge_run, persist
from app.core.answering.pipeline.model_slot import ModelSlot
from app.core.answering.pipeline.reader import LibraryReader
from app.core.answering.pipeline.reask import complete_prompt, reask_prompt, wants_reask
from app.core.answering.pipeline.stages import PreparedPrompt, Retrieval, prepare_prompt, question_passages
from app.core.answering.run import AnswerRun
from app.core.answering.types import (
    Answer,
    AnswerEvent,
    AskOptions,
    Delta,
    Finished,
    Located,
    Replaced,
    Retrieved,
)
from app.core.answering.whole.whole import WholeAnswer, find_named
from app.core.cancel import CancelToken
from app.core.config import Settings, SettingsOwner
from app.core.embed.engine import CosineScales
from app.core.errors import FolioError, UsageError
from app.core.generate.chat_engine import ChatEngine
from app.core.generate.model import ModelInfo
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.prompt.system import figure_not_found_answer, not_in_documents_answer, passages_did_not_fit
from app.core.store.conversations import ConversationStore, Turn

log = logging.getLogger("folio.answer")


class Answerer:
    """Answers questions over a library with one local model; safe to share between threads.
    Each stage is a function of its own module (stages.py, decode.py, finish.py); this class
    runs them in order, holds the model's lock and turns failures into finished answers."""

    def __init__(
        self,
        settings: SettingsOwner,
        conversations: ConversationStore,
        reader: LibraryReader,
        slot: ModelSlot,
        verifier: Verifier = lexical_verifier,
        embed: Embed | None = None,
        scales: CosineScales | None = None,
        policy: Policy = DEFAULT_POLICY,
    ) -> None:
        self._owner = settings
        self.conversations = conversations
        self._reader = reader  # searches, a chat's previous passages (carry.py), whole documents
        self.slot = slot
        self._verifier = verifier
        self._embed = embed  # scores passage sentences for evidence selection (words alone without)
        self._scales = scales  # how the embedder's cosines read (the gate: keywords alone without)
        self._policy = policy  # the judge's thresholds for this embedder (judge/policy.py)

    @property
    def settings(self) -> Settings:
        return self._owner.current

    @property
    def embed(self) -> Embed | None:
        """The embedder that locate and evidence selection score sentences with (None: words alone)."""
        return self._embed

    @property
    def scales(self) -> CosineScales | None:
        """The embedder's cosine scales that locate and evidence selection use (None: words alone)."""
        return self._scales

    @property
    def verifier(self) -> Verifier:
        """The word check of every answer sentence that the judge starts from."""
        return self._verifier

    @property
    def policy(self) -> Policy:
        """The judge's policy this Answerer rules with."""
        return self._policy

    def ask_stream(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterator[AnswerEvent]:
        """Validate now (UsageError), then stream the events of one answer."""
        ask = resolve_options(question, options, self._owner.current)
        if chat_id is not None and not self.conversations.exists(chat_id):
            raise UsageError(QT_TRANSLATE_NOOP("Core", "no chat with id {0}"), chat_id)
        if ask.scope is not None and ask.scope.whole and ask.scope.document:
            try:
                find_named(self._reader.documents(), ask.scope.document)
            except FolioError as exc:
                raise UsageError(str(exc)) from exc
        return self._stream(ask, chat_id, cancel or CancelToken())

    def _stream(self, ask: ResolvedAsk, chat_id: int | None, cancel: CancelToken) -> Iterator[AnswerEvent]:
        """Queue for the model's lock, answer, then finish whatever the outcome in one place (check,
        build, persist); the lock is held until the answer is saved."""
        engine = self.slot.target()
        run = AnswerRun(ask.question, ask.sampling, engine.model_ref, engine.model_name)
        acquired = False
        while not acquired and not cancel.cancelled:
            acquired = engine.lock.acquire(timeout=0.05)
        started = run.mark("queue", run.submitted)
        try:
            if acquired:
                outcome = yield from self._answer(ask, run, engine, chat_id, cancel, started)
            else:
                yield Retrieved([], 0.0)
                outcome = Outcome("cancelled")
            final = self._finish(run, outcome, chat_id)
            streamed = "".join(run.answer).rstrip()
            if len(final.answer) > len(streamed) and final.answer.startswith(streamed):
                yield Delta(final.answer[len(streamed) :], "answer", 0)  # Folio's note after the text
            yield Finished(final)
        finally:
            if acquired:
                engine.lock.release()

    def _answer(
        self,
        ask: ResolvedAsk,
        run: AnswerRun,
        engine: ChatEngine,
        chat_id: int | None,
        cancel: CancelToken,
        started: float,
    ) -> Generator[AnswerEvent, None, Outcome]:
        """The stages in order; each way out says how it ended (the caller finishes the answer)."""
        scope = self._scope(ask)
        if scope.whole:
            return (yield from self._whole(ask, scope, run, engine, cancel, started))
        try:
            turns, found = self._retrieve(ask, run, chat_id)
        except Exception as exc:
            run.mark("retrieve", started)
            yield Retrieved([], 0.0)
            return Outcome("error", _describe(exc))
        started = run.mark("retrieve", started)
        yield Retrieved(run.hits, run.retrieval_ms)
        if not found.passes(ask.settings.grounding_threshold):
            return (yield from self._not_in_documents(run, engine))
        yield self._locate(ask, run)
        started = run.mark("locate", started)
        if cancel.cancelled:
            return Outcome("cancelled")
        try:
            info, started = self._load(run, engine, started)
            prompt = self._prompt(ask, run, engine, info, turns, started)
        except Exception as exc:
            return Outcome("error", _describe(exc))
        if not run.passages:  # not even the best passage fits the context: never answer unsourced
            run.grounded = False
            run.answer.append(passages_did_not_fit(run.question))
            yield Delta(run.answer[-1], "answer", 0)
            return Outcome("stop")
        return (yield from self._generate(run, engine, prompt, cancel))

    def _retrieve(
        self, ask: ResolvedAsk, run: AnswerRun, chat_id: int | None
    ) -> tuple[list[Turn], Retrieval]:
        """The chat's turns (read once) and the question's passages, recorded on the run."""
        turns = self.conversations.turns(chat_id) if chat_id is not None else []
        found = question_passages(
            self._reader.search,
            ask.question,
            ask.passages_k,
            turns,
            ask.settings.grounding_threshold,
            self._scales,
            self._reader.passages,
        )
        run.hits, run.retrieval_ms, run.gate = found.hits, found.retrieval_ms, found.gate
        run.follow_up, run.carried = found.follow_up, found.carried
        return turns, found

    def _generate(
        self,
        run: AnswerRun,
        engine: ChatEngine,
        prompt: PreparedPrompt,
        cancel: CancelToken,
    ) -> Generator[AnswerEvent, None, Outcome]:
        """Decode, judge, and ask once more when the answer stated nothing."""
        yield from decode(run, engine, prompt, cancel)
        reason = run.end.finish_reason if run.end else "error"
        judgement: Judgement | None = judge_run(run, reason, self._verifier, self._policy, self._embed)
        if judgement is not None and wants_reask(judgement, run, prompt):
            again = complete_prompt(engine, prompt, run) if self.settings.complete_restated else None
            if again is None and self.settings.reask:
                again = reask_prompt(engine, prompt, run)
            if again is not None:
                yield from self._reask(run, engine, again, cancel)
                reason = run.end.finish_reason if run.end else "error"
                judgement = None  # a new text: judged when it finishes
        answer = "".join(run.answer)
        figures = invented_figures(run.question, answer, run.passages) if reason == "stop" else ()
        if figures:
            yield from self._withdraw(run, answer.strip(), figures)
            judgement = None
        return Outcome(reason, judgement=judgement)

    def _withdraw(self, run: AnswerRun, first: str, figures: Sequence[str]) -> Iterator[AnswerEvent]:
        """The complete answer `first` gave figures for a quantity question that no passage of the
        prompt states (judge/invented.py): the model made them up. Folio withdraws it (its text is kept
        in the trace) and says instead that the passages do not state the figure; no model is asked."""
        run.reasked_from, run.withdrawn = first, ", ".join(figures)
        run.answer = [figure_not_found_answer(run.question)]
        log.info("the answer gave figures no passage states (%s): withdrawn", run.withdrawn)
        yield Replaced(first, run.withdrawn)
        yield Delta(run.answer[0], "answer", 0)

    def _reask(
        self, run: AnswerRun, engine: ChatEngine, prompt: PreparedPrompt, cancel: CancelToken
    ) -> Iterator[AnswerEvent]:
        """Ask once more (reask.py): the first text is kept in the trace, the new one replaces it;
        the first answer's prefill and decode spans stay, the second's are the span "reask"."""
        started = time.perf_counter()
        first = "".join(run.answer).strip()
        spans: dict[str, float] = {
            name: run.spans[name] for name in ("prefill", "decode") if name in run.spans
        }
        run.reasked_from, run.answer = first, []
        log.info("the answer stated nothing; asking again (%d prompt tokens)", len(prompt.tokens))
        yield Replaced(first)
        if prompt.continued:  # the restatement's frame, which the model goes on from (complete_prompt)
            run.answer.append(prompt.continued)
            yield Delta(prompt.continued, "answer", 0)
        yield from decode(run, engine, prompt, cancel)
        run.spans.update(spans)
        run.mark("reask", started)

    def _scope(self, ask: ResolvedAsk) -> Scope:
        """The scope the user chose, else the one the question asks for (scope.py)."""
        if ask.scope is not None:
            return ask.scope
        if ask.continue_from:
            return Scope()
        try:
            names = [info.name for info in self._reader.documents()]
        except Exception:
            log.exception("listing the documents for the question's scope failed")
            return Scope()
        return detect_scope(ask.question, names, ask.selected)

    def _whole(
        self,
        ask: ResolvedAsk,
        scope: Scope,
        run: AnswerRun,
        engine: ChatEngine,
        cancel: CancelToken,
        started: float,
    ) -> Generator[AnswerEvent, None, Outcome]:
        """A whole-document or across-files answer (whole.py), checked and saved as any other
        against what it is about."""
        retrieved = False
        whole: WholeAnswer | None = None
        try:
            info, _ = self._load(run, engine, started)
            whole = WholeAnswer(ask, run, engine, info, cancel, self._embed, self._scales)
            for event in whole.stream(scope, self._reader):
                retrieved = retrieved or isinstance(event, Retrieved)
                yield event
        except Exception as exc:
            if not retrieved:
                yield Retrieved([], 0.0)
            return Outcome("error", _describe(exc), about=whole.about if whole is not None else None)
        return Outcome(whole.reason, whole.error, about=whole.about)

    def _locate(self, ask: ResolvedAsk, run: AnswerRun) -> Located:
        """The passage sentences that answer the question, shown before the model's first token
        (none when locating fails: the answer does not depend on it)."""
        try:
            run.evidence = Evidence(ask.question, run.hits, self._embed)
            run.located = locate(ask.question, run.hits, self._embed, self._scales, run.evidence)
        except Exception:
            log.exception("locating the answer's sentences failed")
        run.evidence_ms = (time.perf_counter() - run.submitted) * 1000.0
        return Located(list(run.located), run.evidence_ms)

    def _not_in_documents(self, run: AnswerRun, engine: ChatEngine) -> Generator[AnswerEvent, None, Outcome]:
        """The gate's answer: the documents do not cover the question; the model is not called."""
        run.grounded, run.not_in_documents = False, True
        run.answer.append(not_in_documents_answer(run.question))
        yield Delta(run.answer[0], "answer", 0)
        return Outcome("stop", budget_n_ctx=engine.n_ctx)

    def _load(self, run: AnswerRun, engine: ChatEngine, started: float) -> tuple[ModelInfo, float]:
        """The model stage: a pending model (after a settings change) replaces the old one now, then
        the engine is loaded (once); span "load". The model's info, and when the stage ended."""
        if not self.slot.is_current(engine):
            self.slot.load()
        info = run.info = engine.load()
        return info, run.mark("load", started)

    def _prompt(
        self,
        ask: ResolvedAsk,
        run: AnswerRun,
        engine: ChatEngine,
        info: ModelInfo,
        turns: list[Turn],
        started: float,
    ) -> PreparedPrompt:
        """Fit the prompt to the loaded model (span "assemble")."""
        prompt = prepare_prompt(
            ask,
            engine,
            info,
            run.hits,
            turns,
            self._embed,
            self._scales,
            run.submitted,
            run.follow_up,
            run.located,
        )
        run.budget, run.passages = prompt.budget, prompt.passages
        if prompt.continued:
            run.answer.append(prompt.continued)
        run.mark("assemble", started)
        return prompt

    def _finish(self, run: AnswerRun, outcome: Outcome, chat_id: int | None) -> Answer:
        """Every answer's one end, whatever its outcome: check → build the Answer → persist."""
        reason = outcome.reason
        checked = check(
            run, reason, self._verifier, self._policy, self._embed, outcome.judgement, outcome.about
        )
        budget = gated_budget(run, outcome.budget_n_ctx) if outcome.budget_n_ctx is not None else None
        answer = build_answer(run, reason, checked, chat_id, outcome.error, budget)
        return persist(self.conversations, answer, chat_id)

    def close(self) -> None:
        self.slot.close()


def answer_of(events: Iterator[AnswerEvent], on_delta: Callable[[Delta], None] | None = None) -> Answer:
    """The finished Answer of an event stream; `on_delta` sees the text as it streams."""
    for event in events:
        if isinstance(event, Delta) and on_delta is not None:
            on_delta(event)
        elif isinstance(event, Finished):
            return event.answer
    raise AssertionError("the answer stream ended without a Finished event")


def _describe(exc: Exception) -> str:
    """A user-facing message for known problems; type and text for bugs (logged with traceback)."""
    if isinstance(exc, FolioError):
        return str(exc)
    log.exception("answering failed")
    return f"internal error: {type(exc).__name__}: {exc}"


__all__ = ["Answerer", "answer_of"]
