"""An answer Folio asked again, in the view: the first text goes, a banner says why, and it stays
said on the finished (or reopened) answer."""

from __future__ import annotations

from dataclasses import replace

from pytestqt.qtbot import QtBot

from app.gui.answer_state import AnswerState
from app.gui.answer_view import AnswerView
from tests.gui.fakes import fake_answer

FIRST = "The option that controls it is set by the option [1]."


def test_the_restated_answer_is_cleared_and_the_banner_says_folio_asked_again(qtbot: QtBot) -> None:
    state = AnswerState("Which option controls autosave?", False)
    view = AnswerView(state)
    qtbot.addWidget(view)
    state.add_delta(FIRST, "answer")
    state.flush()
    assert "controls it" in view.body.toPlainText()
    with qtbot.waitSignal(state.reasked):
        state.restart_answer(FIRST)
    assert view.body.toPlainText().strip() == ""
    assert state.answer_text == "" and state.reasked_from == FIRST
    assert not view.banner.isHidden() and "asked the model again" in view.banner_label.text()
    assert not view.continue_button.isVisibleTo(view)
    state.add_delta("autosave_minutes controls it [1].", "answer")
    state.flush()
    assert view.body.toPlainText().strip() == "autosave_minutes controls it [1]."
    state.finish(replace(fake_answer("autosave_minutes controls it [1].", "stop"), reasked_from=FIRST))
    assert "asked the model again" in view.banner_label.text() and not view.banner.isHidden()


def test_a_reopened_answer_that_was_asked_again_says_so_and_a_first_answer_has_no_banner(
    qtbot: QtBot,
) -> None:
    for reasked_from, shown in ((FIRST, True), ("", False)):
        state = AnswerState("Which option controls autosave?", False)
        state.finish(replace(fake_answer("autosave_minutes [1].", "stop"), reasked_from=reasked_from))
        view = AnswerView(state)  # a stored answer: the view is built after it finished
        qtbot.addWidget(view)
        assert (not view.banner.isHidden()) is shown
