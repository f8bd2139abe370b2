"""A cancel token: set from any thread, checked by the worker between steps."""

from __future__ import annotations

import threading

from app.core.errors import Cancelled


class CancelToken:
    """Thread-safe flag; the GUI or a signal handler sets it, the worker polls it."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until cancelled or `timeout` seconds pass; True when cancelled."""
        return self._event.wait(timeout)

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()
