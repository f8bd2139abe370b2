"""The settings dialog edits the prompt (prefill) threads apart from the decode threads."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.config import Settings
from app.gui.settings_dialog import SettingsDialog


def test_prompt_threads_round_trip_and_zero_means_automatic(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(n_threads=1, n_threads_batch=3), None)
    qtbot.addWidget(dialog)
    assert dialog.n_threads_batch.value() == 3
    dialog.n_threads_batch.setValue(2)
    assert (dialog.values().n_threads, dialog.values().n_threads_batch) == (1, 2)
    dialog.n_threads_batch.setValue(0)
    assert dialog.n_threads_batch.text() == "automatic"
    assert dialog.values().n_threads_batch == 0
