"""Keyboard and screen readers: the tab order, an accessible name on every stop, citations by keyboard."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.core.answering.judge.checks import SentenceCheck
from app.core.passage import Citation
from app.gui.answer_state import AnswerState
from app.gui.answer_view import AnswerView
from app.gui.main_window import MainWindow
from app.gui.settings_dialog import SettingsDialog
from app.gui.shortcuts_dialog import ShortcutsDialog
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_answer, fake_factory
from tests.gui.waiting import wait_for, wait_idle, wait_model

PASSAGE = "Restart the inverter if the light stays on."
CITATION = Citation(1, 11, "solar-guide.pdf", "/docs/solar-guide.pdf", 2, 2, 0, 60, PASSAGE)


def accessible_name(widget: QWidget) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None, widget
    return interface.text(QAccessible.Text.Name).strip()


def _focus_changed() -> SignalInstance:
    """The signal every move of the keyboard focus emits (QApplication.focusChanged)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    return app.focusChanged


def tab_stops(start: QWidget) -> list[QWidget]:
    """The widgets Tab visits from `start`, in order, once round (Qt's own rule for a Tab stop)."""
    stops = [start]
    widget = start.nextInFocusChain()
    while widget is not None and widget is not start:
        if (
            widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and widget.isVisible()
            and widget.isEnabled()
            and widget.focusProxy() is None
        ):
            stops.append(widget)
        widget = widget.nextInFocusChain()
    return stops


def _window_with_an_answer(qtbot: QtBot, make_window: WindowFactory) -> MainWindow:
    answerer = FakeAnswerer(["Restart ", "the inverter [1]."])
    answerer.citations = [CITATION]
    window = make_window(fake_factory(answerer))
    wait_model(qtbot, window)
    window.activateWindow()
    window.question.edit.setPlainText("When do I restart the inverter?")
    window.question.submit()
    wait_idle(qtbot, window)
    assert len(window.transcript.answer_views) == 1
    view = window.transcript.answer_views[0]
    wait_for(qtbot, view.state.finished, view.copy_button.isVisible, 5_000)
    return window


def test_tab_goes_question_send_answer_sources_then_the_side_and_every_stop_has_a_name(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = _window_with_an_answer(qtbot, make_window)
    view = window.transcript.answer_views[0]
    stops = tab_stops(window.question.edit)
    unnamed = [f"{type(w).__name__} {w.objectName()!r}" for w in stops if not accessible_name(w)]
    assert not unnamed, unnamed
    expected_first = [window.question.edit, window.question.send, view.body, view.sources, view.copy_button]
    assert [w for w in stops if w in expected_first] == expected_first
    position = {id(w): i for i, w in enumerate(stops)}
    # where the answer reads (the scope menu) comes between the question and Send
    assert position[id(window.question.edit)] < position[id(window.question.scope)]
    assert position[id(window.question.scope)] < position[id(window.question.send)]
    assert window.question.scope.accessibleName() == "Where the answer reads"  # Qt reads a combo box its item
    assert position[id(view.copy_button)] < position[id(window.tabs.tabBar())]
    assert position[id(window.tabs.tabBar())] < position[id(window.library.table)]
    # the names a screen reader reads for what has no text label of its own
    assert accessible_name(window.question.edit) == "Question"
    assert accessible_name(view.body) == "Answer" and accessible_name(view.sources) == "Sources"
    assert accessible_name(view.support) == "Verdict"  # the fake's answer has no verdict to read out
    assert accessible_name(view.readout) == "Answer figures"
    assert "TTFT" in QAccessible.queryAccessibleInterface(view.readout).text(QAccessible.Text.Description)
    # focusNextChild walks the same way the list says
    window.question.edit.setFocus()
    wait_for(qtbot, _focus_changed(), lambda: QApplication.focusWidget() is window.question.edit, 2_000)
    visited = []
    for _ in range(len(stops) - 1):
        QApplication.focusWidget().focusNextChild()  # type: ignore[union-attr]
        visited.append(QApplication.focusWidget())
    assert visited[: stops.index(view.body)] == stops[1 : stops.index(view.body) + 1]


def test_a_citation_is_reached_by_tab_and_opened_by_enter(qtbot: QtBot, make_window: WindowFactory) -> None:
    window = _window_with_an_answer(qtbot, make_window)
    view = window.transcript.answer_views[0]
    opened: list[tuple[Citation, str]] = []
    view.citation_activated.connect(lambda citation, evidence: opened.append((citation, evidence)))
    view.body.setFocus(Qt.FocusReason.TabFocusReason)
    wait_for(qtbot, _focus_changed(), view.body.hasFocus, 2_000)
    assert view.body.focusNextPrevChild(True)  # Tab inside the answer: to its first link
    assert view.body.textCursor().hasSelection(), "Tab did not reach the citation link"
    qtbot.keyClick(view.body, Qt.Key.Key_Return)
    assert [c.n for c, _e in opened] == [1]
    # the same in the sources list under the answer
    view.sources.setFocus(Qt.FocusReason.TabFocusReason)
    wait_for(qtbot, _focus_changed(), view.sources.hasFocus, 2_000)
    assert view.sources.focusNextPrevChild(True)
    qtbot.keyClick(view.sources, Qt.Key.Key_Return)
    assert [c.n for c, _e in opened] == [1, 1]


def test_the_settings_dialog_has_a_name_on_every_tab_stop(qtbot: QtBot, make_window: WindowFactory) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    dialog = SettingsDialog(window.app.settings, None, window, window.app.runner)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    seen: list[QWidget] = []
    for page in range(dialog.tabs.count()):
        for server in (False, True):
            dialog.tabs.setCurrentIndex(page)
            (dialog.use_server if server else dialog.use_local).setChecked(True)
            seen += tab_stops(dialog.tabs.tabBar())
    assert dialog.server.url in seen and dialog.temperature in seen and dialog.embed_dir in seen
    unnamed = {f"{type(w).__name__} {w.objectName()!r}" for w in seen if not accessible_name(w)}
    assert not unnamed, unnamed
    # a field in a row of its own (a path and its Browse button) is named by the row's label
    assert accessible_name(dialog.model_path) == "Model file (GGUF)"
    assert accessible_name(dialog.found.tree) == "Found on this computer"


def test_help_lists_the_shortcuts_of_the_menus(qtbot: QtBot, make_window: WindowFactory) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    window.show_shortcuts()
    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None
    keys = dict(dialog.rows)
    for action, key in (
        ("Send the question", "Ctrl+Return"),
        ("Stop answering", "Esc"),
        ("New chat", "Ctrl+N"),
        ("Go to the question box", "Ctrl+L"),
        ("Export chat", "Ctrl+Shift+E"),
        ("Export answer", "Ctrl+E"),
        ("Copy answer with sources", "Ctrl+Shift+C"),
        ("Settings", "Ctrl+,"),
        ("Keyboard shortcuts", "F1"),
    ):
        assert keys.get(action) == key, (action, keys)
    assert accessible_name(dialog.table) == "Keyboard shortcuts"


def test_the_verdict_line_is_read_out_as_the_verdict(qtbot: QtBot) -> None:
    text = "Restart the inverter [1]."
    check = SentenceCheck(text, 0, len(text), (1,), "model", 0.8, True, "factual", (), {1: ((0, 20),)}, True)
    answer = replace(fake_answer(text, "stop", citations=[CITATION]), verdict="answered", sentences=(check,))
    state = AnswerState("When?", False)
    state.finish(answer)
    view = AnswerView(state)
    qtbot.addWidget(view)
    assert accessible_name(view.support) == (
        "Answered from your documents · 1 of 1 statements are supported by your documents"
    )
    description = QAccessible.queryAccessibleInterface(view.support).text(QAccessible.Text.Description)
    assert description.startswith("The verdict")
    # Tab reaches it right after the answer's text
    order = view.focus_order()
    assert order.index(view.support) == order.index(view.body) + 1
    assert view.support.focusPolicy() & Qt.FocusPolicy.TabFocus
