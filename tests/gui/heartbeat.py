"""A 10 ms QTimer heartbeat that records the gaps between beats (GUI-thread responsiveness)."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer


class Heartbeat(QObject):
    """Start it, do work, read `worst_gap_ms`: the longest the event loop went without a beat."""

    def __init__(self, interval_ms: int = 10) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._beat)
        self.last = 0.0
        self.worst_gap_ms = 0.0
        self.beats = 0
        self.gaps_ms: list[float] = []
        self.started = 0.0
        self.worst_at_s = 0.0  # seconds after start() when the worst gap ended

    def start(self) -> None:
        self.last = self.started = time.perf_counter()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _beat(self) -> None:
        now = time.perf_counter()
        gap = (now - self.last) * 1000.0
        if gap > self.worst_gap_ms:
            self.worst_gap_ms, self.worst_at_s = gap, now - self.started
        self.gaps_ms.append(gap)
        self.last = now
        self.beats += 1

    def percentile(self, share: float) -> float:
        """The gap that `share` (0–1) of all gaps stay under; 0 before any beat."""
        if not self.gaps_ms:
            return 0.0
        ordered = sorted(self.gaps_ms)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
