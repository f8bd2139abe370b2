"""A 10 ms QTimer heartbeat that records the worst gap between beats (GUI-thread responsiveness)."""

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

    def start(self) -> None:
        self.last = time.perf_counter()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _beat(self) -> None:
        now = time.perf_counter()
        self.worst_gap_ms = max(self.worst_gap_ms, (now - self.last) * 1000.0)
        self.last = now
        self.beats += 1
