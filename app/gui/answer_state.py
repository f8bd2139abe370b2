"""One assistant message as the views see it: streamed text, live figures, then the final answer."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.core.api import Citation, Hit

if TYPE_CHECKING:
    from app.core.api import Answer, LocatedSentence, Progress

# phases of an answer
WAITING = "waiting"  # submitted, no token yet (queue, retrieve, prefill)
THINKING = "thinking"  # thinking tokens arriving
ANSWERING = "answering"  # answer tokens arriving
DONE = "done"
FAILED = "failed"


class AnswerState(QObject):
    """Accumulates deltas from the worker; `flush()` (called by a ~50 ms timer) hands the views
    the text that arrived since the last flush, so they never re-render per token."""

    text_flushed = Signal(str, str)  # new thinking text, new answer text
    figures_changed = Signal()
    located_changed = Signal()
    progress_changed = Signal()
    replaced = Signal()  # the streamed answer is cleared (it stated nothing, or was withdrawn)
    finished = Signal()

    def __init__(self, question: str, thinking_requested: bool, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.question = question
        self.thinking_requested = thinking_requested
        self.answer_text = ""
        self.thinking_text = ""
        self._pending_answer: list[str] = []
        self._pending_thinking: list[str] = []
        self.submitted_at = time.monotonic()
        self.first_token_at: float | None = None
        self.first_answer_at: float | None = None
        self.last_token_at: float | None = None
        self.thinking_ended_at: float | None = None
        self.answer_tokens = 0
        self.thinking_tokens = 0
        self.retrieved: list[Hit] = []  # the passages found for the question
        self.located: list[LocatedSentence] = []  # the sentences that answer it, found before the model ran
        self.live_metrics: dict[str, Any] = {}
        self.progress: Progress | None = None  # the step a whole-document answer is on
        self.phase = WAITING
        self.final: Answer | None = None  # the finished answer, as the core returned it
        self.stopped = False  # cancelled before the core returned an answer
        self.error = ""
        self.reasked_from = ""  # the first answer's text when the core asked again (or withdrew it)
        self.withdrawn = ""  # the figures no passage states, when the core withdrew the answer

    # -- fed by the controller on the GUI thread ---------------------------------------------
    def add_delta(self, text: str, channel: str, tokens: int = 1) -> None:
        now = time.monotonic()
        tokens = max(1, tokens)
        if self.first_token_at is None:
            self.first_token_at = now
        self.last_token_at = now
        if channel == "thinking":
            self.thinking_tokens += tokens
            self.thinking_text += text
            self._pending_thinking.append(text)
            self.phase = THINKING
        else:
            if self.first_answer_at is None:
                self.first_answer_at = now
                if self.thinking_tokens:
                    self.thinking_ended_at = now
            self.answer_tokens += tokens
            self.answer_text += text
            self._pending_answer.append(text)
            self.phase = ANSWERING

    def restart_answer(self, first: str, withdrawn: str = "") -> None:
        """The core asks the model again (the answer streamed so far stated nothing), or withdraws
        the answer (it gave the figures `withdrawn`, which no passage states): that text is dropped
        from the view; the text that streams next replaces it."""
        self._pending_answer.clear()
        self.answer_text = ""
        self.reasked_from, self.withdrawn = first, withdrawn
        self.replaced.emit()

    def seed_answer(self, text: str) -> None:
        """Text shown before any token arrives (the cut-off answer being continued); it does not
        count as tokens or as the first token."""
        self.answer_text += text
        self._pending_answer.append(text)

    def set_retrieved(self, hits: list[Hit]) -> None:
        self.retrieved = list(hits)

    def set_located(self, found: list[LocatedSentence]) -> None:
        """The passage sentences Folio found for the question, before the model's first token."""
        self.located = list(found)
        self.located_changed.emit()

    def set_progress(self, progress: Progress) -> None:
        """The step a whole-document or across-files answer has reached."""
        self.progress = progress
        self.progress_changed.emit()

    @property
    def passages_given(self) -> list[Citation]:
        """The passages that went into the prompt, numbered as the model saw them (before the
        answer finishes: the passages retrieved for it)."""
        final = self.final
        hits = final.passages if final is not None and final.passages else self.retrieved
        return [Citation.from_hit(number, hit) for number, hit in enumerate(hits, start=1)]

    def set_live_metrics(self, metrics: dict[str, Any]) -> None:
        self.live_metrics.update(metrics)

    def flush(self) -> None:
        """Emit the text received since the last flush (one batch) and the live figures."""
        if self._pending_answer or self._pending_thinking:
            thinking, answer = "".join(self._pending_thinking), "".join(self._pending_answer)
            self._pending_thinking.clear()
            self._pending_answer.clear()
            self.text_flushed.emit(thinking, answer)
        if self.phase != DONE:
            self.figures_changed.emit()

    def finish(self, answer: Answer) -> None:
        """The final answer: its text replaces what was streamed."""
        self.flush()
        self.final = answer
        self.answer_text = answer.answer
        self.reasked_from, self.withdrawn = answer.reasked_from, answer.withdrawn
        self.thinking_text = answer.thinking
        if self.thinking_text and self.thinking_ended_at is None:
            self.thinking_ended_at = self.last_token_at
        self.phase = DONE
        self.finished.emit()

    def finish_stopped(self) -> None:
        """Cancelled before the core returned the answer: what streamed is kept, marked stopped."""
        self.flush()
        self.stopped = True
        if self.thinking_text and self.thinking_ended_at is None:
            self.thinking_ended_at = self.last_token_at
        self.phase = DONE
        self.finished.emit()

    def fail(self, message: str) -> None:
        self.flush()
        self.error = message
        self.phase = FAILED
        self.finished.emit()

    # -- read by the views --------------------------------------------------------------------
    @property
    def finish_reason(self) -> str:
        if self.final is not None:
            return self.final.finish_reason
        if self.stopped:
            return "cancelled"
        return "error" if self.phase == FAILED else ""

    @property
    def citations(self) -> list[Citation]:
        return list(self.final.citations) if self.final is not None else []

    @property
    def invalid_citations(self) -> list[int]:
        return list(self.final.invalid_citations) if self.final is not None else []

    @property
    def budget(self) -> dict[str, Any]:
        """The token budget as the budget dialog lists it ({} when none was made)."""
        final = self.final
        if final is None or final.budget is None:
            return {}
        budget = final.budget.to_json()
        if final.kv_cache is not None:
            budget["kv_cache"] = final.kv_cache.to_json()
        return budget

    @property
    def metrics(self) -> dict[str, Any]:
        return self.final.metrics.to_json() if self.final is not None else {}

    @property
    def spans(self) -> dict[str, float]:
        return dict(self.final.spans) if self.final is not None else {}

    def thinking_seconds(self) -> float | None:
        if self.first_token_at is None or not self.thinking_tokens:
            return None
        end = self.thinking_ended_at or self.last_token_at or self.first_token_at
        return max(0.0, end - self.first_token_at)

    def ttft_ms(self, now: float | None = None) -> float:
        """Time to first token; while waiting, the time counted so far."""
        end = self.first_token_at if self.first_token_at is not None else (now or time.monotonic())
        return (end - self.submitted_at) * 1000.0

    def tokens_per_s(self) -> float | None:
        live = self.live_metrics.get("tokens_per_s")
        if isinstance(live, int | float) and live > 0:
            return float(live)
        tokens = self.answer_tokens + self.thinking_tokens
        if self.first_token_at is None or self.last_token_at is None or tokens < 2:
            return None
        elapsed = self.last_token_at - self.first_token_at
        return (tokens - 1) / elapsed if elapsed > 0 else None
