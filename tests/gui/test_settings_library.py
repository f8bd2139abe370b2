"""Settings round-trip and refusal, the library panel's failures, drops routed to ingestion."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.config import Settings, load_settings
from app.core.ingest.pipeline import FileResult, IngestReport
from app.gui.main_window import MainWindow
from app.gui.settings_dialog import SettingsDialog
from tests.gui.conftest import WindowFactory
from tests.gui.dragdrop import file_drag
from tests.gui.fakes import FakeAnswerer, fake_factory
from tests.gui.waiting import wait_for, wait_model


def test_settings_round_trip_through_the_dialog(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    wait_model(qtbot, window)
    window.open_settings()
    dialog = window.settings_dialog
    assert dialog is not None
    assert "fake.gguf" in dialog.model_info.text() and "supports thinking" in dialog.model_info.text()
    from dataclasses import replace as with_fields

    assert window.app.model_info is not None
    unseen = with_fields(window.app.model_info, server="http://127.0.0.1:8080", chat_template="chatml")
    dialog.set_model_info(unseen)  # a server that shows no chat template: the switch is only sent
    assert "thinking switch sent to the server" in dialog.model_info.text()
    dialog.set_model_info(window.app.model_info)
    dialog.temperature.setValue(0.7)
    dialog.top_k.setValue(20)
    dialog.max_tokens.setValue(300)
    dialog.passages_k.setValue(4)
    dialog.ttft_target.setValue(3.5)
    dialog.seed.setValue(7)
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    saved = load_settings(tmp_path / "config" / "settings.json")
    assert (
        saved.temperature,
        saved.top_k,
        saved.max_tokens,
        saved.passages_k,
        saved.ttft_target_s,
        saved.seed,
    ) == (
        0.7,
        20,
        300,
        4,
        3.5,
        7,
    )
    assert window.app.settings == saved
    reopened = SettingsDialog(saved, None)
    qtbot.addWidget(reopened)
    assert reopened.values() == saved


def test_invalid_settings_are_refused_with_a_message(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(), None)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.n_ctx.setValue(1024)
    dialog.max_tokens.setValue(2048)
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    assert dialog.isVisible() and dialog.result_settings is None
    assert "max answer tokens" in dialog.error.text()


def test_a_model_that_fails_to_load_keeps_the_previous_one_and_says_why(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    wait_model(qtbot, window)
    missing = str(tmp_path / "missing.gguf")
    window.app.apply_settings(window.app.settings.replace(model_path=missing, temperature=0.9))
    wait_for(qtbot, window.app.reporter.shown, lambda: bool(window.app.reporter.history), 10_000)
    kind, message = window.app.reporter.history[0]
    assert kind == "problem" and "missing.gguf" in message
    assert window.app.settings.model_path == "" and window.app.settings.temperature == 0.9
    assert load_settings(tmp_path / "config" / "settings.json").model_path == ""
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and widget.objectName() != "mainWindow" and widget.inherits("QMessageBox"):
            widget.close()


def test_failures_are_listed_with_their_reason_and_can_be_dismissed(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    model = window.library.model
    model.add_failures(
        IngestReport([FileResult("/x/locked.pdf", "locked.pdf", "failed", error="the PDF is encrypted")])
    )
    assert model.rowCount() == 1
    assert "encrypted" in model.data(model.index(0, 3))
    window.library.select_row(0)
    assert window.library.dismiss_button.isVisibleTo(window)
    qtbot.mouseClick(window.library.dismiss_button, Qt.MouseButton.LeftButton)
    assert model.rowCount() == 0


def _drop(window: MainWindow, paths: list[Path]) -> None:
    drag = file_drag(paths, at=(10, 10))
    QApplication.sendEvent(window, drag.enter)
    assert drag.enter.isAccepted()
    # a drop on the question box is handed to the window, not inserted as text
    target = window.question.edit
    target.dropEvent(drag.drop)
    assert not drag.drop.isAccepted() and target.toPlainText() == ""
    QApplication.sendEvent(window, drag.drop)


def test_dropped_files_start_ingestion(qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nHello.", encoding="utf-8")
    with qtbot.waitSignal(window.ingest.batch_finished, timeout=10_000) as blocker:
        _drop(window, [note])
    report = blocker.args[0]
    assert [f.path for f in report.files] == [str(note)]


def test_remove_asks_first_then_removes_on_the_store_worker(qtbot: QtBot, make_window: WindowFactory) -> None:
    from datetime import datetime

    from PySide6.QtWidgets import QMessageBox

    from app.core.store.records import DocumentInfo

    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    now = datetime.now(UTC)
    window.library.model.set_documents(
        [DocumentInfo(5, "a.pdf", "/d/a.pdf", "pdf", 2, 3, 10, "ready", "x", now, now)]
    )
    window.library.select_row(0)
    qtbot.mouseClick(window.library.remove_button, Qt.MouseButton.LeftButton)
    box = window.findChild(QMessageBox, "confirmRemove")
    assert box is not None and "a.pdf" in box.text()
    box.button(QMessageBox.StandardButton.Yes).click()
    folio = window.app.folio
    wait_for(qtbot, window.app.documents_changed, lambda: getattr(folio, "removed", []) == [5], 10_000)


def test_a_bug_shows_copyable_details_and_a_known_problem_a_plain_message(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QWidget

    from app.core.errors import ModelError
    from app.gui.errors import BugDialog, ErrorReporter

    parent = QWidget()
    qtbot.addWidget(parent)
    reporter = ErrorReporter(parent)
    reporter.report(ModelError("model file not found: x.gguf"))
    reporter.report(KeyError("chunk"), "Traceback (most recent call last): ...")
    assert reporter.history == [("problem", "model file not found: x.gguf"), ("bug", "KeyError: 'chunk'")]
    dialog = parent.findChild(BugDialog)
    assert dialog is not None and "Traceback" in dialog.details
    dialog.copy_details()
    assert "KeyError" in QApplication.clipboard().text()
