"""One assistant message as the views see it: streamed text, live figures, then the final answer."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QObject, Signal

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
        self.retrieved: list[dict[str, Any]] = []  # the passages found for the question (citation shape)
        self.live_metrics: dict[str, Any] = {}
        self.phase = WAITING
        self.result: dict[str, Any] | None = None
        self.error = ""

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

    def seed_answer(self, text: str) -> None:
        """Text shown before any token arrives (the cut-off answer being continued); it does not
        count as tokens or as the first token."""
        self.answer_text += text
        self._pending_answer.append(text)

    def set_retrieved(self, passages: list[dict[str, Any]]) -> None:
        self.retrieved = passages

    @property
    def passages_given(self) -> list[dict[str, Any]]:
        """The retrieved passages that went into the prompt, numbered as the model saw them."""
        used = self.budget.get("passages_used")
        passages = self.retrieved
        if isinstance(used, list) and used:
            by_id = {p.get("chunk_id"): p for p in passages}
            passages = [by_id[chunk] for chunk in used if chunk in by_id]
        return [dict(p, n=number) for number, p in enumerate(passages, start=1)]

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

    def finish(self, result: dict[str, Any]) -> None:
        """The final answer (Answer.to_json() shape): its text replaces what was streamed."""
        self.flush()
        self.result = result
        self.answer_text = str(result.get("answer", self.answer_text))
        self.thinking_text = str(result.get("thinking", self.thinking_text) or "")
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
        if self.result is not None:
            return str(self.result.get("finish_reason", ""))
        return "error" if self.phase == FAILED else ""

    @property
    def citations(self) -> list[dict[str, Any]]:
        return list(self.result.get("citations", [])) if self.result else []

    @property
    def invalid_citations(self) -> list[int]:
        return [int(n) for n in self.result.get("invalid_citations", [])] if self.result else []

    @property
    def budget(self) -> dict[str, Any]:
        return dict(self.result.get("budget") or {}) if self.result else {}

    @property
    def metrics(self) -> dict[str, Any]:
        return dict(self.result.get("metrics") or {}) if self.result else {}

    @property
    def spans(self) -> dict[str, float]:
        return spans_ms(self.result.get("spans") if self.result else None)

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


def spans_ms(spans: object) -> dict[str, float]:
    """Normalise the answer's spans (a name -> ms mapping, or a list of {name, ms|duration_ms})."""
    result: dict[str, float] = {}
    if isinstance(spans, dict):
        for name, value in spans.items():
            if isinstance(value, int | float):
                result[str(name)] = float(value)
            elif isinstance(value, dict):
                ms = value.get("ms", value.get("duration_ms"))
                if isinstance(ms, int | float):
                    result[str(name)] = float(ms)
    elif isinstance(spans, list):
        for item in spans:
            if isinstance(item, dict) and "name" in item:
                ms = item.get("ms", item.get("duration_ms"))
                if isinstance(ms, int | float):
                    result[str(item["name"])] = result.get(str(item["name"]), 0.0) + float(ms)
    return result
