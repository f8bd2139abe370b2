"""Whole-document and across-files answers: map over a document's page ranges (a few cited points
written by the model per step), or over the library's documents (the sentence of each one's best
passage that answers, found by locate.py), reduced into one answer of points."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np
import numpy.typing as npt

from app.core.answering.evidence.gate import gate_score
from app.core.answering.evidence.locate import locate
from app.core.answering.evidence.scope import DOCUMENT, Scope, asked_topic
from app.core.answering.evidence.scoring import Embed
from app.core.answering.options import ResolvedAsk
from app.core.answering.run import AnswerRun
from app.core.answering.types import AnswerEvent, Delta, Progress, Retrieved
from app.core.answering.whole import whole_plan
from app.core.answering.whole.whole_plan import MAP_ANSWER_TOKENS, MapWindow, plan_windows
from app.core.answering.whole.whole_points import Point, map_points, new_points, points_text, shortened
from app.core.cancel import CancelToken
from app.core.embed.engine import CosineScales
from app.core.errors import DocumentNotFoundError
from app.core.generate.chat_engine import ChatEngine
from app.core.generate.model import ChatRequest, ModelInfo
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.passage import Hit, SearchResult
from app.core.prompt.budget import PromptPlan
from app.core.prompt.system import file_does_not_cover
from app.core.store.records import DocumentInfo

MAX_FILES = 12  # an across-files answer reads this many documents at most (the first by name)


class WholeLibrary(Protocol):
    """What whole-document answers read of the library (part of the pipeline's `LibraryReader`)."""

    def documents(self) -> list[DocumentInfo]: ...

    def document_passages(self, document_id: int) -> tuple[list[Hit], npt.NDArray[np.float32]]: ...

    def search_document(self, query: str, document_id: int, k: int) -> SearchResult: ...


def find_named(documents: Sequence[DocumentInfo], name: str) -> DocumentInfo:
    """The library's document called `name` (file name or full path); DocumentNotFoundError else."""
    found = [info for info in documents if name in (info.name, info.path)]
    if len(found) != 1:
        many = f"{len(found)} documents are named {name!r}; choose one by its full path"
        raise DocumentNotFoundError(many if found else f"no document {name!r} in the library")
    return found[0]


class WholeAnswer:
    """One whole-document or across-files answer being written into `run`: its steps' events."""

    def __init__(
        self,
        ask: ResolvedAsk,
        run: AnswerRun,
        engine: ChatEngine,
        info: ModelInfo,
        cancel: CancelToken,
        embed: Embed | None = None,
        scales: CosineScales | None = None,
    ) -> None:
        self.ask, self.run, self.engine, self.info, self.cancel = ask, run, engine, info, cancel
        self.embed, self.scales = embed, scales  # locate's scoring of an across-files point
        self.reason = "stop"  # how the answer ended: stop | cancelled | error
        self.error: str | None = None
        # what its sentences are checked as being about (finish.Outcome.about): the asked topic of
        # an across-files answer, "" for a summary (its points are about the document)
        self.about: str | None = None
        self._kept: list[Point] = []
        self._ends: list[GenerationEnd] = []

    def stream(self, scope: Scope, library: WholeLibrary) -> Iterator[AnswerEvent]:
        """The answer's events; `run` holds its text, passages and figures, `reason` how it ended."""
        if scope.kind == DOCUMENT:
            self.about = ""  # a summary's points are about the document, whatever they say
            yield from self._summary(find_named(library.documents(), scope.document), library)
        else:
            self.about = scope.topic or asked_topic(self.ask.question)
            yield from self._each_file(self.about, library)
        self.run.end = self._total_end()

    # -- a whole document --------------------------------------------------------------------------

    def _summary(self, document: DocumentInfo, library: WholeLibrary) -> Iterator[AnswerEvent]:
        started = time.perf_counter()
        hits, vectors = library.document_passages(document.id)
        shown = [replace(hit, text=self._escaped(hit.text)) for hit in hits]
        windows = plan_windows(
            self.engine,
            self._escaped(self.ask.question),
            shown,
            vectors,
            n_ctx=self.info.n_ctx,
            max_steps=whole_plan.MAP_STEPS,
            window_tokens=whole_plan.WINDOW_TOKENS,
        )
        originals = {hit.chunk_id: hit for hit in hits}
        self.run.passages = [originals[hit.chunk_id] for window in windows for hit in window.passages]
        self.run.hits = list(self.run.passages)
        self.run.budget = windows[0].plan.budget if windows else None
        started = self.run.mark("plan", started)
        yield Retrieved(self.run.hits, (time.perf_counter() - self.run.submitted) * 1000.0)
        offset = 0
        for step, window in enumerate(windows, start=1):
            if self.cancel.cancelled:
                self.reason = "cancelled"
                return
            yield self._progress(step, len(windows), document, window)
            text = self._generate(window.plan)
            started = self.run.mark(f"map {step}", started)
            points = map_points(text, offset, len(window.passages))
            offset += len(window.passages)
            yield from self._keep(points)
            if self.reason != "stop":
                return

    @staticmethod
    def _progress(step: int, steps: int, document: DocumentInfo, window: MapWindow) -> Progress:
        return Progress(
            step,
            steps,
            document.name,
            window.first_page,
            window.last_page,
            document.pages,
            len(window.passages),
        )

    # -- each file ---------------------------------------------------------------------------------

    def _each_file(self, topic: str, library: WholeLibrary) -> Iterator[AnswerEvent]:
        started = time.perf_counter()
        documents = library.documents()[:MAX_FILES]
        best: list[tuple[DocumentInfo, Hit | None]] = []
        for document in documents:
            top = library.search_document(topic, document.id, 1).hits
            best.append((document, top[0] if top else None))
        threshold = self.ask.settings.grounding_threshold
        covered = [(doc, hit) for doc, hit in best if hit is not None and self._covers(topic, hit, threshold)]
        self.run.passages = [hit for _, hit in covered]
        self.run.hits = [hit for _, hit in best if hit is not None]
        started = self.run.mark("retrieve", started)
        yield Retrieved(self.run.hits, (time.perf_counter() - self.run.submitted) * 1000.0)
        numbers = {hit.chunk_id: n for n, (_, hit) in enumerate(covered, start=1)}
        for step, (document, hit) in enumerate(best, start=1):
            if self.cancel.cancelled:
                self.reason = "cancelled"
                return
            if hit is None or hit.chunk_id not in numbers:
                line = file_does_not_cover(document.name, topic, self.ask.question)
                yield from self._keep([Point(line, ())], dedupe=False)
                continue
            yield Progress(step, len(best), document.name, hit.page, hit.page_end, document.pages, 1)
            found = locate(topic, [hit], self.embed, self.scales)
            started = self.run.mark(f"file {step}", started)
            if not found:
                line = file_does_not_cover(document.name, topic, self.ask.question)
                yield from self._keep([Point(line, ())], dedupe=False)
                continue
            sentence = shortened(found[0].sentence)
            yield from self._keep(
                [Point(f"{document.name}: {sentence}", (numbers[hit.chunk_id],))], dedupe=False
            )

    def _covers(self, topic: str, hit: Hit, threshold: float) -> bool:
        """The gate's test on one document's best passage (answering/evidence/gate.py)."""
        return gate_score(topic, [hit], self.scales).score >= threshold

    # -- the steps' shared parts -------------------------------------------------------------------

    def _escaped(self, text: str) -> str:
        return self.engine.escape_special(text)

    def _keep(self, points: Sequence[Point], dedupe: bool = True) -> Iterator[AnswerEvent]:
        """Add the step's new points to the answer and stream them."""
        fresh = new_points(points, self._kept) if dedupe else list(points)
        self._kept.extend(fresh)
        if fresh:
            text = points_text(fresh)
            self.run.answer.append(text)
            yield Delta(text, "answer", 0)

    def _generate(self, plan: PromptPlan) -> str:
        """One step's text from the model (cancellable within the step); `reason` notes a stop."""
        sampling = replace(self.run.sampling, max_tokens=MAP_ANSWER_TOKENS)
        pieces: list[str] = []
        chat = ChatRequest(tuple(plan.messages), False)
        for event in self.engine.stream(plan.tokens, sampling, self.cancel, chat=chat):
            pieces.extend(text for channel, text in event.pieces if channel == "answer")
            if not isinstance(event, TokenStep):
                self._ends.append(event)
                if event.finish_reason in ("cancelled", "error"):
                    self.reason, self.error = event.finish_reason, event.error
        return "".join(pieces)

    def _total_end(self) -> GenerationEnd | None:
        """The steps' generations as one: summed tokens, the first step's first token, the decode
        rate over all steps' decoding time."""
        ends = self._ends
        if not ends:
            return None
        firsts = [end.first_token_at for end in ends if end.first_token_at is not None]
        decoding = sum(
            end.last_token_at - end.first_token_at
            for end in ends
            if end.first_token_at is not None and end.last_token_at is not None
        )
        steps_after_first = sum(max(0, end.completion_tokens - 1) for end in ends)
        return GenerationEnd(
            finish_reason=self.reason,
            pieces=[],
            prompt_tokens=sum(end.prompt_tokens for end in ends),
            cached_tokens=sum(end.cached_tokens for end in ends),
            prefill_ms=sum(end.prefill_ms or 0.0 for end in ends) or None,
            first_token_at=min(firsts) if firsts else None,
            last_token_at=max((end.last_token_at for end in ends if end.last_token_at), default=None),
            completion_tokens=sum(end.completion_tokens for end in ends),
            thinking_tokens=0,
            error=self.error,
            decode_tokens_per_s=steps_after_first / decoding if decoding > 0 else None,
        )
