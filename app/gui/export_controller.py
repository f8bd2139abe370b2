"""Export from the window: a chat or an answer to a file (save dialog, written on a worker), or copied."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from app.core.api import SUFFIXES, FolioError, check_format, render_answer
from app.gui.answer_state import AnswerState
from app.gui.app_controller import AppController
from app.gui.tasks import Resource, TaskContext


def write_export(path: Path, text: str) -> Path:
    """Write one export; a file that cannot be written is the user's problem, said plainly."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise FolioError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def format_of(path: Path, chosen_filter: str = "") -> str:
    """ "html" for .html/.htm files (or the HTML filter with no suffix), else "md"."""
    suffix = path.suffix.lower().lstrip(".")
    if suffix in ("html", "htm", "md", "markdown"):
        return check_format(suffix)
    return "html" if "*.html" in chosen_filter else "md"


class ExportController(QObject):
    """File › Export chat… / Export answer… and each answer's "Copy answer with sources"."""

    exported = Signal(str)  # the file written
    copied = Signal()

    def __init__(
        self,
        app: AppController,
        window: QWidget,
        chat_id: Callable[[], int | None],
        current_answer: Callable[[], AnswerState | None],
    ) -> None:
        super().__init__(window)
        self.app = app
        self.window = window
        self.chat_id = chat_id
        self.current_answer = current_answer
        self.dialog: QFileDialog | None = None

    def _filters(self) -> str:
        return ";;".join([self.tr("Markdown (*.md)"), self.tr("HTML, one self-contained file (*.html)")])

    def _ask_path(self, title: str, name: str, then: Callable[[Path, str], None]) -> None:
        dialog = QFileDialog(self.window, title, name, self._filters())
        dialog.setObjectName("exportDialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("md")
        dialog.filterSelected.connect(
            lambda chosen: dialog.setDefaultSuffix("html" if "*.html" in chosen else "md")
        )
        dialog.fileSelected.connect(
            lambda path: then(Path(path), format_of(Path(path), dialog.selectedNameFilter()))
        )
        self.dialog = dialog
        dialog.open()

    # -- a chat ------------------------------------------------------------------------------------
    def export_chat(self) -> None:
        chat_id = self.chat_id()
        if chat_id is None or self.app.folio is None:
            self.app.reporter.problem(self.tr("There is no saved chat to export yet: ask a question first."))
            return
        self._ask_path(
            self.tr("Export chat"),
            f"folio-chat-{chat_id}.md",
            lambda p, f: self.export_chat_to(chat_id, p, f),
        )

    def export_chat_to(self, chat_id: int, path: Path, fmt: str) -> None:
        """Read the chat from the library and write it, on the chats worker."""
        folio = self.app.folio
        if folio is None:
            return

        def run(_ctx: TaskContext) -> Path:
            return write_export(
                path.with_suffix(path.suffix or SUFFIXES[fmt]),
                folio.chats.export(chat_id, fmt, QCoreApplication.translate),
            )

        self.app.runner.submit(
            Resource.CHATS,
            run,
            name="export chat",
            on_success=lambda written: self.exported.emit(str(written)),
            on_failure=self.app.reporter.report,
        )

    # -- one answer --------------------------------------------------------------------------------
    def export_answer(self) -> None:
        state = self.current_answer()
        if state is None or state.final is None:
            self.app.reporter.problem(self.tr("There is no finished answer to export yet."))
            return
        number = state.final.message_id or 0
        self._ask_path(
            self.tr("Export answer"),
            f"folio-answer-{number}.md",
            lambda p, f: self.export_answer_to(state, p, f),
        )

    def export_answer_to(self, state: AnswerState, path: Path, fmt: str) -> None:
        final = state.final
        if final is None:
            return
        text = render_answer(final, fmt, QCoreApplication.translate)
        self.app.runner.submit(
            Resource.CHATS,
            lambda _ctx: write_export(path.with_suffix(path.suffix or SUFFIXES[fmt]), text),
            name="export answer",
            on_success=lambda written: self.exported.emit(str(written)),
            on_failure=self.app.reporter.report,
        )

    def copy_answer(self, state: AnswerState | None = None) -> None:
        """The answer as Markdown on the clipboard: text, verdict, and every source with its sentence."""
        state = state or self.current_answer()
        if state is None or state.final is None:
            return
        QGuiApplication.clipboard().setText(render_answer(state.final, "md", QCoreApplication.translate))
        self.copied.emit()
