"""Waits on the window's signals instead of polling: a condition checked now and at each emission."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytestqt.qtbot import QtBot

if TYPE_CHECKING:
    from app.gui.main_window import MainWindow


def wait_for(qtbot: QtBot, signal: Any, condition: Callable[[], bool], timeout: int) -> None:
    """Return once `condition()` holds: at once, else at the first emission of `signal` after which
    it does. The window's own slots on `signal` were connected first, so they have run by then; the
    slot that emitted it finishes before the wait returns (the loop quits after it)."""
    if condition():
        return
    with qtbot.waitSignal(signal, timeout=timeout, check_params_cb=lambda *_args: condition()):
        pass


def wait_model(qtbot: QtBot, window: MainWindow, timeout: int = 10_000) -> None:
    """The window's model is loaded (AppController.model_loaded)."""
    wait_for(qtbot, window.app.model_loaded, lambda: window.app.model_info is not None, timeout)


def wait_idle(qtbot: QtBot, window: MainWindow, timeout: int = 10_000) -> None:
    """No answer runs (ChatController.busy_changed); the callback that ended it has finished."""
    wait_for(qtbot, window.chat.busy_changed, lambda: not window.chat.busy, timeout)
