"""Asking: stream an answer on the model worker, flush it to the views every ~50 ms, keep the chats."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.gui.answer_state import AnswerState
from app.gui.app_controller import AppController
from app.gui.core_text import core_text, error_text
from app.gui.delta_batch import DeltaBatch, DeltaBatcher
from app.gui.tasks import Resource, TaskContext, TaskHandle

if TYPE_CHECKING:
    from app.core.api import Answer, AskOptions, FolioApi

log = logging.getLogger(__name__)

FLUSH_INTERVAL_MS = 50


class ChatController(QObject):
    """One answer at a time; the views subscribe to the AnswerState each answer gets."""

    busy_changed = Signal(bool)
    chat_cleared = Signal()
    question_added = Signal(str)
    answer_started = Signal(object)  # AnswerState (streaming or reopened)
    chats_changed = Signal(list)  # list[ChatSummary]
    current_chat_changed = Signal(object)  # int | None

    def __init__(self, app: AppController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.chat_id: int | None = None
        self.active: AnswerState | None = None
        self._handle: TaskHandle | None = None
        self.last_options: Any = None
        # Moves when the user leaves the shown chat (New chat, another chat): an answer still
        # finishing for the chat left behind must not switch the view back to it.
        self._view = 0
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self._flush)
        app.services_ready.connect(self.refresh_chats)

    @property
    def busy(self) -> bool:
        return self._handle is not None

    # -- asking ------------------------------------------------------------------------------------
    def ask(
        self,
        question: str,
        thinking: bool = False,
        max_tokens: int | None = None,
        continue_from: str = "",
        scope: str = "auto",
        selected: str = "",
    ) -> AnswerState | None:
        folio = self.app.folio
        if folio is None or self.busy:
            return None
        from app.core.api import AskOptions

        options = AskOptions(
            thinking=thinking,
            max_tokens=max_tokens,
            continue_from=continue_from,
            scope=scope,
            selected=selected,
        )
        self.last_options = options
        state = AnswerState(question, thinking, self)
        if continue_from:
            state.seed_answer(continue_from)
        self.active = state
        chat_id = self.chat_id
        view = self._view
        self.question_added.emit(question)
        self.answer_started.emit(state)
        self._handle = self.app.runner.submit(
            Resource.MODEL,
            lambda ctx: _stream(folio, question, options, chat_id, ctx),
            name="ask",
            on_progress=lambda event: _apply_event(state, event),
            on_success=lambda answer: self._on_answer(state, answer, view),
            on_failure=lambda error, details: self._on_failed(state, error, details),
            on_cancelled=lambda: self._on_cancelled(state),
        )
        self._timer.start()
        self.busy_changed.emit(True)
        return state

    def stop(self) -> None:
        """Ask the worker to stop within one token; the partial answer comes back marked stopped."""
        if self._handle is not None:
            self._handle.cancel()

    def continue_answer(self, state: AnswerState) -> None:
        """A cut-off answer: the model resumes right after its last word, with a fresh answer
        budget; the new message holds the whole answer."""
        self.ask(state.question, state.thinking_requested, continue_from=state.answer_text.rstrip("\ufffd"))

    def _flush(self) -> None:
        if self.active is not None:
            self.active.flush()

    def _done(self) -> None:
        self._timer.stop()
        self._handle = None
        self.active = None
        self.busy_changed.emit(False)

    def _on_answer(self, state: AnswerState, answer: Answer | None, view: int) -> None:
        self._done()
        if answer is None:
            state.fail(self.tr("the model returned no answer"))
            return
        if view == self._view and answer.chat_id is not None and answer.chat_id != self.chat_id:
            self.chat_id = answer.chat_id
            self.current_chat_changed.emit(self.chat_id)
        state.finish(answer)
        if answer.finish_reason == "error" and answer.error:
            self.app.reporter.problem(self.tr("The answer failed: {0}").format(core_text(answer.error)))
        self.refresh_chats()

    def _on_failed(self, state: AnswerState, error: BaseException, details: str) -> None:
        self._done()
        state.fail(error_text(error))
        self.app.reporter.report(error, details)

    def _on_cancelled(self, state: AnswerState) -> None:
        self._done()
        state.finish_stopped()

    # -- chats -------------------------------------------------------------------------------------
    def refresh_chats(self) -> None:
        folio = self.app.folio
        if folio is None:
            return
        self.app.runner.submit(
            Resource.CHATS,
            lambda _ctx: folio.chats.summaries(),
            name="list chats",
            on_success=self.chats_changed.emit,
        )

    def new_chat(self) -> None:
        """Start afresh; the chat row is created with the first answer."""
        if self.busy:
            self.stop()
        self._view += 1
        self.chat_id = None
        self.chat_cleared.emit()
        self.current_chat_changed.emit(None)

    def open_chat(self, chat_id: int) -> None:
        folio = self.app.folio
        if folio is None or self.busy:
            return
        self.app.runner.submit(
            Resource.CHATS,
            lambda _ctx: folio.chats.answers(chat_id),
            name="open chat",
            on_success=lambda messages: self._show_history(chat_id, messages),
        )

    def _show_history(self, chat_id: int, answers: list[Answer]) -> None:
        self._view += 1
        self.chat_id = chat_id
        self.chat_cleared.emit()
        self.current_chat_changed.emit(chat_id)
        for answer in answers:
            self.question_added.emit(answer.question)
            state = AnswerState(answer.question, False, self)
            state.finish(answer)
            self.answer_started.emit(state)

    def delete_chat(self, chat_id: int) -> None:
        folio = self.app.folio
        if folio is None:
            return
        if chat_id == self.chat_id:
            self.new_chat()
        self.app.runner.submit(
            Resource.CHATS,
            lambda _ctx: folio.chats.delete(chat_id),
            name="delete chat",
            on_success=lambda _r: self.refresh_chats(),
        )


def _stream(
    folio: FolioApi, question: str, options: AskOptions, chat_id: int | None, ctx: TaskContext
) -> Answer | None:
    """On the model worker: the answer's events sent to the GUI thread as progress (the deltas in
    batches); the finished Answer, None if the stream ended without one."""
    from app.core.api import Delta, Finished, Located, Metrics, Progress, Replaced, Retrieved

    final = None
    batcher = DeltaBatcher(ctx.progress)
    for event in folio.answering.ask_stream(question, options, chat_id, ctx.cancel):
        if isinstance(event, Delta):
            batcher.add(event.text, event.channel, event.tokens or 1)
            continue
        batcher.flush()
        if isinstance(event, Finished):
            final = event.answer
        elif isinstance(event, Metrics | Retrieved | Located | Progress | Replaced):
            ctx.progress(event)
    batcher.flush()
    return final


def _apply_event(state: AnswerState, event: Any) -> None:
    """On the GUI thread: one progress event of `_stream` into the answer's state."""
    from app.core.api import Located, Metrics, Progress, Replaced, Retrieved

    if isinstance(event, DeltaBatch):
        state.add_delta(event.text, event.channel, event.tokens)
    elif isinstance(event, Metrics):
        state.set_live_metrics(
            {"tokens_per_s": event.tokens_per_s, "completion_tokens": event.completion_tokens}
        )
    elif isinstance(event, Retrieved):
        state.set_retrieved(event.hits)
    elif isinstance(event, Located):
        state.set_located(event.found)
    elif isinstance(event, Progress):
        state.set_progress(event)
    elif isinstance(event, Replaced):
        state.restart_answer(event.first, event.withdrawn)
