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
    with qtbot.waitSignal(state.replaced):
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


def test_a_withdrawn_answer_says_which_figure_no_passage_states(qtbot: QtBot) -> None:
    made_up = "The S3 costs $1,200 [1]."
    instead = "The passages Folio found do not state this figure: the model's answer gave a number …"
    state = AnswerState("How much does the S3 cost?", False)
    view = AnswerView(state)
    qtbot.addWidget(view)
    state.add_delta(made_up, "answer")
    state.flush()
    with qtbot.waitSignal(state.replaced):
        state.restart_answer(made_up, "1200")
    assert view.body.toPlainText().strip() == "" and state.withdrawn == "1200"
    assert "(1200)" in view.banner_label.text() and "withdrew" in view.banner_label.text()
    assert "asked the model again" not in view.banner_label.text()
    state.add_delta(instead, "answer")
    state.flush()
    withdrawn = replace(fake_answer(instead, "stop"), reasked_from=made_up, withdrawn="1200")
    state.finish(withdrawn)
    assert view.body.toPlainText().strip() == instead and "(1200)" in view.banner_label.text()
    reopened = AnswerState("How much does the S3 cost?", False)
    reopened.finish(withdrawn)
    again = AnswerView(reopened)  # a stored answer: the view is built after it finished
    qtbot.addWidget(again)
    assert not again.banner.isHidden() and "(1200)" in again.banner_label.text()
