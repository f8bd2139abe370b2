"""The settings dialog switches evidence selection and what the model reads (Settings.answer_from)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.config import Settings
from app.gui.settings_dialog import SettingsDialog


def test_evidence_selection_round_trips_through_the_dialog(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(evidence_selection=False), None)
    qtbot.addWidget(dialog)
    assert not dialog.evidence_selection.isChecked()
    dialog.evidence_selection.setChecked(True)
    assert dialog.values().evidence_selection is True
    assert Settings.from_dict(dialog.values().to_dict()).evidence_selection is True


def test_what_the_model_reads_round_trips_through_the_dialog(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(), None)
    qtbot.addWidget(dialog)
    assert dialog.answer_from.currentData() == "passages"  # the default
    dialog.answer_from.setCurrentIndex(dialog.answer_from.findData("found"))
    assert dialog.values().answer_from == "found"
    assert Settings.from_dict(dialog.values().to_dict()).answer_from == "found"
    reopened = SettingsDialog(Settings(answer_from="hinted"), None)
    qtbot.addWidget(reopened)
    assert reopened.answer_from.currentData() == "hinted"
