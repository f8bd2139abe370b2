"""Export from the window: File › Export chat… writes on a worker, Copy answer with sources, bad paths."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.gui.main_window import MainWindow
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, FakeFolio, fake_factory
from tests.gui.test_accessibility import CITATION
from tests.gui.waiting import wait_for, wait_idle, wait_model


def _answered(qtbot: QtBot, make_window: WindowFactory, reason: str = "stop") -> MainWindow:
    answerer = FakeAnswerer(["Restart ", "the inverter [1]."])
    answerer.citations = [CITATION]
    answerer.finish_reason = reason
    window = make_window(fake_factory(answerer))
    wait_model(qtbot, window)
    window.question.edit.setPlainText("When do I restart the inverter?")
    window.question.submit()
    wait_idle(qtbot, window)
    assert len(window.transcript.answer_views) == 1
    return window


def test_copy_answer_with_sources_puts_the_markdown_on_the_clipboard(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = _answered(qtbot, make_window, reason="length")
    view = window.transcript.answer_views[0]
    QApplication.clipboard().clear()
    with qtbot.waitSignal(window.exports.copied, timeout=2_000):
        view.copy_button.click()
    text = QApplication.clipboard().text()
    assert text.startswith("## When do I restart the inverter?\n")
    assert "- [1] solar-guide.pdf, p. 2 — excerpt: “Restart the inverter if the light stays on.”" in text
    assert "> **Cut off: this answer reached the maximum answer length" in text
    assert "model fake.gguf" in text


def test_export_chat_reads_and_writes_on_a_worker_and_says_where(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = _answered(qtbot, make_window)
    folio = window.app.folio
    assert isinstance(folio, FakeFolio)
    window.export_chat_action.trigger()
    dialog = window.exports.dialog
    assert dialog is not None and dialog.isVisible()
    target = tmp_path / "inverter chat.html"
    with qtbot.waitSignal(window.exports.exported, timeout=5_000) as written:
        dialog.fileSelected.emit(str(target))
    assert written.args == [str(target)]
    assert folio.exported == [(1, "html")] and folio.exported_on_gui_thread == [False]
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "This chat has no answers." in page
    assert str(target) in window.statusBar().currentMessage()


def test_an_answer_exported_where_it_cannot_be_written_says_so_and_writes_nothing(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = _answered(qtbot, make_window)
    target = tmp_path / "no-such-folder" / "answer.md"
    state = window.transcript.current_answer()
    assert state is not None and state.final is not None
    window.exports.export_answer_to(state, target, "md")
    wait_for(qtbot, window.app.reporter.shown, lambda: bool(window.app.reporter.history), 5_000)
    kind, message = window.app.reporter.history[-1]
    assert kind == "problem" and "cannot write" in message and str(target) in message
    assert not target.exists()
    written = tmp_path / "answer"  # no suffix: the format's is added
    with qtbot.waitSignal(window.exports.exported, timeout=5_000):
        window.exports.export_answer_to(state, written, "md")
    assert "[1] solar-guide.pdf, p. 2" in (tmp_path / "answer.md").read_text(encoding="utf-8")
