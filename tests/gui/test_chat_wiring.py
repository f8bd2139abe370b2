"""Chat wiring over a fake answerer: keys, thinking switch, Stop, throttled rendering, Continue."""

from __future__ import annotations

import threading
from dataclasses import replace

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.passage import Citation, Hit
from app.gui.answer_state import DONE
from app.gui.tasks import Resource
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_factory
from tests.gui.waiting import wait_for, wait_idle, wait_model


def _ready(qtbot: QtBot, make_window: WindowFactory, answerer: FakeAnswerer):  # type: ignore[no-untyped-def]
    window = make_window(fake_factory(answerer))
    wait_model(qtbot, window)
    return window


def test_enter_sends_shift_enter_adds_a_line_and_the_answer_streams(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    answerer = FakeAnswerer(["The ", "inverter ", "light [1]."])
    window = _ready(qtbot, make_window, answerer)
    edit = window.question.edit
    qtbot.keyClicks(edit, "first line")
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(edit, "second line")
    assert edit.toPlainText() == "first line\nsecond line"
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    wait_idle(qtbot, window)
    assert len(window.transcript.answer_views) == 1
    assert answerer.requests[0][0] == "first line\nsecond line"
    view = window.transcript.answer_views[0]
    assert view.state.phase == DONE
    assert "The inverter light" in view.body.toPlainText()
    assert "complete" in view.readout.text()
    assert "queue" in view.breakdown.text() and "decode" in view.breakdown.text()


def test_thinking_switch_state_reaches_the_request(qtbot: QtBot, make_window: WindowFactory) -> None:
    answerer = FakeAnswerer(["ok"], supports_thinking=True)
    window = _ready(qtbot, make_window, answerer)
    assert window.question.thinking.isEnabled()
    window.question.thinking.setChecked(True)
    window.question.edit.setPlainText("with thinking")
    qtbot.mouseClick(window.question.send, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert len(answerer.requests) == 1
    window.question.thinking.setChecked(False)
    window.question.edit.setPlainText("without thinking")
    qtbot.mouseClick(window.question.send, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert len(answerer.requests) == 2
    assert [options.thinking for _q, options, _c in answerer.requests] == [True, False]
    assert answerer.requests[1][2] == 1  # the follow-up goes to the chat the first answer created


def test_thinking_switch_is_disabled_with_the_reason_when_the_model_cannot_think(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = _ready(qtbot, make_window, FakeAnswerer(["ok"], supports_thinking=False))
    assert not window.question.thinking.isEnabled()
    assert "no thinking switch" in window.question.thinking.toolTip()


def test_stop_records_a_stopped_answer_without_an_error_dialog(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    answerer = FakeAnswerer(["word "] * 100_000, pause_s=0.001)
    window = _ready(qtbot, make_window, answerer)
    with qtbot.assertNotEmitted(window.app.reporter.shown):
        state = window.chat.ask("a long one")
        assert state is not None
        wait_for(qtbot, state.figures_changed, lambda: state.answer_tokens > 20, 10_000)
        assert window.question.send.text() == "Stop"
        qtbot.keyClick(window.question.edit, Qt.Key.Key_Escape)
        wait_idle(qtbot, window)
    view = window.transcript.answer_views[-1]
    assert view.state.finish_reason == "cancelled"
    assert "stopped" in view.readout.text()
    assert view.banner.isVisibleTo(window) and "Stopped" in view.banner_label.text()
    assert window.question.send.text() == "Send"
    assert window.app.reporter.history == []


def test_streaming_is_throttled_and_touches_only_the_streaming_message(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    answerer = FakeAnswerer(["tok "] * 3000)
    window = _ready(qtbot, make_window, answerer)
    window.chat.ask("first")
    wait_idle(qtbot, window, timeout=20_000)
    first = window.transcript.answer_views[0]
    first_changes: list[int] = []
    first.body.document().contentsChange.connect(lambda *args: first_changes.append(1))
    answerer.tokens = ["more "] * 3000
    window.chat.ask("second")
    state = window.chat.active
    assert state is not None
    flushes: list[int] = []
    state.text_flushed.connect(lambda thinking, answer: flushes.append(len(answer)))
    wait_idle(qtbot, window, timeout=20_000)
    assert first_changes == []  # the finished answer was never re-rendered
    assert sum(flushes) == len("more ") * 3000
    assert len(flushes) < 3000  # batches, not one update per token
    assert window.transcript.answer_views[1].body.toPlainText().count("more") == 3000


def test_cut_off_answer_shows_a_banner_and_continue_resumes_it(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    answerer = FakeAnswerer(["partial"])
    window = _ready(qtbot, make_window, answerer)
    state = window.chat.ask("long question")
    assert state is not None
    wait_idle(qtbot, window)
    assert state.final is not None
    state.finish(replace(state.final, finish_reason="length"))
    view = window.transcript.answer_views[0]
    assert view.banner.isVisibleTo(window) and view.continue_button.isVisibleTo(window)
    assert "cut off" in view.readout.text()
    qtbot.mouseClick(view.continue_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert len(answerer.requests) == 2
    question, options, _chat = answerer.requests[1]
    assert question == "long question"
    assert options.continue_from == state.answer_text and options.continue_from
    resumed = window.transcript.answer_views[1]

    def shows_all() -> bool:
        return resumed.body.toPlainText().startswith(state.answer_text)

    wait_for(qtbot, resumed.state.text_flushed, shows_all, 10_000)


def test_budget_dialog_lists_the_parts(qtbot: QtBot, make_window: WindowFactory) -> None:
    from app.gui.budget_dialog import BudgetDialog, budget_rows

    rows = dict(
        budget_rows(
            {
                "system_tokens": 120,
                "passages_tokens": 900,
                "question_tokens": 12,
                "history_tokens": 0,
                "answer_reserve": 512,
                "passages_used": [1, 2],
                "passages_dropped": [{"document": "a.pdf", "page": 3, "tokens": 200, "reason": "context"}],
                "evidence_saved_tokens": 640,
                "excerpts": {"1": "… the kept sentence. …", "2": "… another …"},
            }
        )
    )
    assert rows["Passages cut to the sentences that matter"] == "2 · 640 tokens left out"
    assert (
        rows["System prompt"] == "120"
        and rows["Passages"] == "900"
        and rows["Reserved for the answer"] == "512"
    )
    assert rows["Passages used"] == "2" and rows["Passages dropped"] == "1"
    assert any("a.pdf, p. 3" in label for label in rows)
    dialog = BudgetDialog({"system_tokens": 1}, None)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 3


def test_an_answer_without_citations_lists_the_passages_it_was_given(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    from app.core.passage import Hit

    hits = [
        Hit(
            11,
            1,
            "guide.txt",
            "/docs/guide.txt",
            2,
            2,
            0,
            40,
            "Restart the inverter after an hour.",
            0.5,
            0.8,
        ),
        Hit(
            12,
            1,
            "guide.txt",
            "/docs/guide.txt",
            3,
            3,
            0,
            30,
            "Batteries last six thousand cycles.",
            0.4,
            0.6,
        ),
    ]
    window = _ready(qtbot, make_window, FakeAnswerer(["No markers here."], hits=hits))
    window.chat.ask("inverter?")
    wait_idle(qtbot, window)
    view = window.transcript.answer_views[0]
    text = view.sources.text()
    assert "No sources cited" in text and "[1] guide.txt, p. 2" in text and "[2] guide.txt, p. 3" in text
    opened: list[Citation] = []
    view.citation_activated.connect(lambda citation, _evidence: opened.append(citation))
    view.sources.linkActivated.emit("passage:2")
    assert opened and opened[0].page == 3 and opened[0].chunk_id == 12


def test_new_chat_during_an_answer_stays_on_the_new_chat(qtbot: QtBot, make_window: WindowFactory) -> None:
    """The stopped answer of the old chat finishes after "New chat": the view must not go back."""
    answerer = FakeAnswerer(["word "] * 100_000, pause_s=0.001)
    window = _ready(qtbot, make_window, answerer)
    chats_shown: list[object] = []
    window.chat.current_chat_changed.connect(chats_shown.append)
    window.chat.ask("a long one")
    qtbot.waitUntil(lambda: answerer.started.is_set(), timeout=10_000)
    window.chat.new_chat()
    wait_idle(qtbot, window)
    qtbot.wait(50)
    assert window.chat.chat_id is None
    assert chats_shown == [None]
    window.chat.ask("a question for the new chat")
    qtbot.waitUntil(lambda: len(answerer.requests) == 2, timeout=10_000)
    assert answerer.requests[1][2] is None  # it starts a new chat, not the old one
    window.chat.stop()
    wait_idle(qtbot, window)


def test_the_chat_list_does_not_wait_behind_a_long_ingestion(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = _ready(qtbot, make_window, FakeAnswerer(["ok"]))
    release = threading.Event()
    window.app.runner.submit(Resource.STORE, lambda _ctx: release.wait(30), name="long ingestion")
    try:
        with qtbot.waitSignal(window.chat.chats_changed, timeout=5_000):
            window.chat.refresh_chats()
    finally:
        release.set()


def test_the_located_sentences_show_before_the_answer_and_open_their_page(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    hits = [
        Hit(
            21,
            1,
            "guide.txt",
            "/docs/guide.txt",
            4,
            4,
            0,
            60,
            "Restart the inverter when the red fault light stays on.",
            0.4,
            0.6,
        )
    ]
    answerer = FakeAnswerer(["word "] * 200, pause_s=0.005, hits=hits)
    window = _ready(qtbot, make_window, answerer)
    window.chat.ask("When should I restart the inverter?")
    view = window.transcript.answer_views[0]
    wait_for(qtbot, view.state.located_changed, lambda: view.found.isVisibleTo(view), 10_000)
    assert window.chat.busy  # shown while the answer still streams
    assert "Found on guide.txt p. 4" in view.found.text() and "red fault light" in view.found.text()
    opened: list[tuple[Citation, str]] = []
    view.citation_activated.connect(lambda citation, sentence: opened.append((citation, sentence)))
    view.found.linkActivated.emit("found:0")
    assert opened and opened[0][0].chunk_id == 21 and "red fault light" in opened[0][1]
    window.chat.stop()
    wait_idle(qtbot, window)
