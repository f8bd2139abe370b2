"""Coalesce streamed deltas on the worker: a few cross-thread signals per frame, not one per token."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

BATCH_INTERVAL_S = 0.016  # about one frame; the view itself repaints every ~50 ms


@dataclass(frozen=True)
class DeltaBatch:
    """Consecutive deltas of one channel ("thinking" | "answer") and how many tokens they hold."""

    text: str
    channel: str
    tokens: int


class DeltaBatcher:
    """Called on the worker thread; hands `emit` one DeltaBatch per interval (the first delta at once)."""

    def __init__(
        self,
        emit: Callable[[DeltaBatch], None],
        interval_s: float = BATCH_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._emit = emit
        self._interval = interval_s
        self._clock = clock
        self._parts: list[str] = []
        self._channel = ""
        self._tokens = 0
        self._last = 0.0
        self.emitted = 0

    def add(self, text: str, channel: str, tokens: int = 1) -> None:
        if self._parts and channel != self._channel:
            self.flush()
        self._channel = channel
        self._parts.append(text)
        self._tokens += max(1, tokens)
        now = self._clock()
        if self.emitted == 0 or now - self._last >= self._interval:
            self.flush()

    def flush(self) -> None:
        if not self._parts:
            return
        batch = DeltaBatch("".join(self._parts), self._channel, self._tokens)
        self._parts.clear()
        self._tokens = 0
        self._last = self._clock()
        self.emitted += 1
        self._emit(batch)
