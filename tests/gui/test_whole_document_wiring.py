"""The window's whole-document wiring over a fake answerer: the scope choice reaches the request,
each step shows while it runs, and what was read stays after the answer."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.answering.types import Progress
from app.core.store.records import DocumentInfo
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_factory
from tests.gui.waiting import wait_for, wait_idle, wait_model


def document(name: str) -> DocumentInfo:
    now = datetime.now(UTC)
    return DocumentInfo(1, name, f"/docs/{name}", "pdf", 50, 98, 1, "ready", "", now, now)


def test_the_steps_of_a_whole_document_answer_show_while_it_runs(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    steps = [Progress(1, 2, "report.pdf", 1, 25, 50, 4), Progress(2, 2, "report.pdf", 26, 50, 50, 5)]
    answerer = FakeAnswerer(["- The plant opened [1].\n", "- Sales rose [5].\n"], pause_s=0.4, steps=steps)
    window = make_window(fake_factory(answerer))
    wait_model(qtbot, window)
    window.app.documents_changed.emit([document("report.pdf")])
    choice = window.question.scope
    assert [choice.itemData(i) for i in range(choice.count())] == [
        "auto",
        "passages",
        "each-file",
        "document:report.pdf",
    ]
    choice.setCurrentIndex(choice.findData("document:report.pdf"))
    window.question.edit.setPlainText("Summarise it")
    qtbot.mouseClick(window.question.send, Qt.MouseButton.LeftButton)
    wait_for(qtbot, window.chat.answer_started, lambda: len(window.transcript.answer_views) == 1, 10_000)
    view = window.transcript.answer_views[0]
    wait_for(qtbot, view.state.progress_changed, lambda: "Step 1 of 2" in view.steps.text(), 10_000)
    assert view.steps.isVisibleTo(view) and "pp. 1–25 of 50 of report.pdf" in view.steps.text()
    wait_for(qtbot, view.state.progress_changed, lambda: "Step 2 of 2" in view.steps.text(), 10_000)
    wait_idle(qtbot, window)
    assert answerer.requests[0][1].scope == "document:report.pdf"
    assert view.steps.text() == "Read 9 passages of report.pdf, pp. 1–50 of 50, in 2 of 2 steps"
    window.app.documents_changed.emit([document("report.pdf"), document("notes.pdf")])
    assert window.question.scope_value() == "document:report.pdf"  # the choice outlives a refresh


def test_an_ordinary_answer_shows_no_steps_and_asks_automatically(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    answerer = FakeAnswerer(["ok"])
    window = make_window(fake_factory(answerer))
    wait_model(qtbot, window)
    window.chat.ask("a question")
    wait_idle(qtbot, window)
    assert len(window.transcript.answer_views) == 1
    assert not window.transcript.answer_views[0].steps.isVisibleTo(window.transcript.answer_views[0])
    assert answerer.requests[0][1].scope == "auto"
