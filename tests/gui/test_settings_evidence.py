"""The settings dialog switches evidence selection (passages cut to their relevant sentences)."""

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
