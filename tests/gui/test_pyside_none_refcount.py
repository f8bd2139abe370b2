"""Guard against the PySide6 6.12.0 / Python 3.11 defect: every void call dropped a reference to None.

A streaming UI makes thousands of such calls and then aborts with `Fatal Python error: none_dealloc`.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QTextEdit
from pytestqt.qtbot import QtBot


def test_void_calls_keep_none_refcount_flat(qtbot: QtBot) -> None:
    edit = QTextEdit()
    qtbot.addWidget(edit)
    edit.insertPlainText("warm-up")
    before = sys.getrefcount(None)
    for _ in range(20_000):
        edit.insertPlainText("x")
    after = sys.getrefcount(None)
    # On the broken build the count falls by exactly one per call (-20,000); allow only noise.
    assert abs(after - before) < 100, (before, after)
    assert len(edit.toPlainText()) == 20_000 + len("warm-up")
