"""The threads a facade method was called on: the window hands its work to the workers."""

from __future__ import annotations

import threading
from typing import Any

import pytest


def threads_calling(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[str]:
    """Replace `owner.name` by a wrapper that records the calling thread's name, then calls it."""
    original = getattr(owner, name)
    seen: list[str] = []

    def recorded(*args: Any, **kwargs: Any) -> Any:
        seen.append(threading.current_thread().name)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, recorded)
    return seen


def off_the_gui_thread(seen: list[str]) -> bool:
    """Called at least once, and never on the GUI (main) thread."""
    return bool(seen) and threading.main_thread().name not in seen
