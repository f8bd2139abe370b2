"""A value built on its first use, once, under a lock: the composition root's lazy providers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Lazy(Generic[T]):
    """`get()` builds the value the first time (heavy imports, a model) and then returns it;
    `peek()` never builds; `reset()` forgets it so that the next `get()` builds it again."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._value: T | None = None
        self._lock = threading.RLock()

    def get(self) -> T:
        with self._lock:
            if self._value is None:
                self._value = self._build()
            return self._value

    def peek(self) -> T | None:
        """The value when it has been built, else None."""
        with self._lock:
            return self._value

    def reset(self) -> T | None:
        """Forget the value (returned, for the caller to close); the next `get()` builds anew."""
        with self._lock:
            value, self._value = self._value, None
            return value
