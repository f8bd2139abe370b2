"""The main window: library and chats on the left, the chat on the right, files dropped anywhere."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.api import FORMATS, Citation, all_patterns, name_patterns
from app.gui.about_dialog import AboutDialog
from app.gui.answer_state import AnswerState
from app.gui.app_controller import AppController
from app.gui.budget_dialog import BudgetDialog
from app.gui.chat_controller import ChatController
from app.gui.chat_list import ChatList
from app.gui.ingest_controller import IngestController
from app.gui.ingest_panel import IngestPanel
from app.gui.library_panel import LibraryPanel
from app.gui.pdf_viewer import PdfViewer
from app.gui.question_box import QuestionBox, has_local_files
from app.gui.reindex_controller import ReindexController
from app.gui.reindex_notice import ReindexNotice
from app.gui.settings_dialog import SettingsDialog
from app.gui.tasks import Resource, TaskContext
from app.gui.transcript import Transcript

if TYPE_CHECKING:
    from app.core.api import PageLayerInfo


def document_filter() -> str:
    """The file dialog's filters, from the one list of readable formats (app/core/formats.py)."""
    tr = QCoreApplication.translate
    return ";;".join(
        [
            f"{tr('MainWindow', 'Documents')} ({all_patterns()})",
            *(f"{f.name} ({name_patterns(f.suffixes)})" for f in FORMATS),
            f"{tr('MainWindow', 'All files')} (*)",
        ]
    )


class MainWindow(QMainWindow):
    """Wires views to controllers; holds no state of its own beyond open dialogs."""

    def __init__(self, app: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.ingest = IngestController(app, self)
        self.chat = ChatController(app, self)
        self.reindexer = ReindexController(app, self)
        self.viewer: PdfViewer | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.setWindowTitle(self.tr("Folio"))
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self.resize(1200, 780)

        self.library = LibraryPanel(self)
        self.ingest_panel = IngestPanel(self.ingest, self)
        library_tab = QWidget(self)
        library_layout = QVBoxLayout(library_tab)
        library_layout.addWidget(self.library, 1)
        library_layout.addWidget(self.ingest_panel)
        self.chats = ChatList(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(library_tab, self.tr("Library"))
        self.tabs.addTab(self.chats, self.tr("Chats"))

        self.transcript = Transcript(self)
        self.question = QuestionBox(self)
        chat_area = QWidget(self)
        chat_layout = QVBoxLayout(chat_area)
        chat_layout.setContentsMargins(0, 0, 8, 8)
        self.reindex_notice = ReindexNotice(self.reindexer, self)
        chat_layout.addWidget(self.reindex_notice)
        chat_layout.addWidget(self.transcript, 1)
        chat_layout.addWidget(self.question)

        splitter = QSplitter(self)
        splitter.addWidget(self.tabs)
        splitter.addWidget(chat_area)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([380, 820])
        self.setCentralWidget(splitter)

        self.status = QLabel(self.tr("Starting…"), self)
        self.status.setObjectName("statusText")
        self.model_label = QLabel(self)
        self.statusBar().addWidget(self.status, 1)
        self.statusBar().addPermanentWidget(self.model_label)
        self._make_actions()
        self._wire()
        self.question.send.setEnabled(False)

    # -- set-up ---------------------------------------------------------------------------------
    def _make_actions(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.add_action = QAction(self.tr("&Add documents…"), self)
        self.add_action.setShortcut(QKeySequence.StandardKey.Open)
        self.add_action.triggered.connect(self.choose_documents)
        self.settings_action = QAction(self.tr("&Settings…"), self)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.triggered.connect(self.open_settings)
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addActions([self.add_action, self.settings_action])
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        chat_menu = self.menuBar().addMenu(self.tr("&Chat"))
        new_action = QAction(self.tr("&New chat"), self)
        new_action.setShortcut(QKeySequence.StandardKey.New)
        new_action.triggered.connect(self.chat.new_chat)
        stop_action = QAction(self.tr("&Stop answering"), self)
        stop_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        stop_action.triggered.connect(self.chat.stop)
        chat_menu.addActions([new_action, stop_action])
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        about_action = QAction(self.tr("&About Folio"), self)
        about_action.triggered.connect(self.show_about)
        help_menu.addAction(about_action)

    def _wire(self) -> None:
        app, chat = self.app, self.chat
        app.status_changed.connect(self.status.setText)
        app.services_ready.connect(self._services_ready)
        app.documents_changed.connect(self.library.model.set_documents)
        app.model_loaded.connect(self._model_loaded)
        app.model_failed.connect(lambda _message: self._update_send())
        self.ingest.message.connect(self._flash)
        app.library_replaced.connect(
            lambda kept: self._flash(
                self.tr("The library was re-indexed; the old one is kept in {0}").format(kept)
            )
        )
        self.ingest.batch_finished.connect(self.library.model.add_failures)
        self.library.add_requested.connect(self.choose_documents)
        self.library.remove_requested.connect(self.confirm_remove)
        self.library.reindex_requested.connect(self.ingest.reindex)
        app.documents_changed.connect(lambda docs: self.question.set_documents([d.name for d in docs]))
        self.question.ask.connect(
            lambda question, thinking: chat.ask(
                question, thinking, scope=self.question.scope_value(), selected=self.library.selected_name()
            )
        )
        self.question.stop.connect(chat.stop)
        chat.busy_changed.connect(self.question.set_busy)
        chat.busy_changed.connect(lambda _busy: self._update_send())
        chat.chat_cleared.connect(self.transcript.clear)
        chat.question_added.connect(self.transcript.add_question)
        chat.answer_started.connect(self._answer_started)
        chat.chats_changed.connect(self.chats.set_chats)
        chat.current_chat_changed.connect(self.chats.set_current)
        self.chats.new_requested.connect(chat.new_chat)
        self.chats.open_requested.connect(chat.open_chat)
        self.chats.delete_requested.connect(chat.delete_chat)
        self.transcript.citation_activated.connect(self.open_citation)
        self.transcript.continue_requested.connect(chat.continue_answer)
        self.transcript.budget_requested.connect(self.show_budget)

    def _services_ready(self) -> None:
        self._update_send()

    def _model_loaded(self, info: Any) -> None:
        self.model_label.setText(self.tr("{0} · ctx {1}").format(info.name, info.n_ctx))
        self.question.set_thinking_support(info.supports_thinking, info.thinking_reason)
        if self.settings_dialog is not None:
            self.settings_dialog.set_model_info(info)
        self._update_send()

    def _update_send(self) -> None:
        self.question.send.setEnabled(
            self.app.folio is not None and (self.chat.busy or self.app.model_info is not None)
        )

    def _answer_started(self, state: AnswerState) -> None:
        self.transcript.add_answer(state)

    def _flash(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

    # -- documents -------------------------------------------------------------------------------
    def choose_documents(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Add documents"), "", document_filter())
        if paths:
            self.add_paths([Path(p) for p in paths])

    def add_paths(self, paths: list[Path]) -> None:
        self.tabs.setCurrentIndex(0)
        self.ingest.add(paths)

    def confirm_remove(self, document_id: int) -> None:
        names = {d.id: d.name for d in self.library.model.documents}
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Remove document"),
            self.tr("Remove “{0}” from the library? The file itself is not deleted.").format(
                names.get(document_id, "")
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setObjectName("confirmRemove")
        box.accepted.connect(lambda: self.app.remove_document(document_id))
        box.open()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if has_local_files(event.mimeData()):
            event.acceptProposedAction()
            self.statusBar().showMessage(self.tr("Drop to add to the library"), 3000)
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if has_local_files(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.add_paths(paths)

    # -- dialogs ---------------------------------------------------------------------------------
    def open_citation(self, citation: Citation, evidence: str = "") -> None:
        """Read the cited pages' stored text (OCR'd pages, sections) on a worker, then show them."""
        folio = self.app.folio
        if folio is None:
            self._show_citation(citation, evidence, {})
            return
        pages = range(max(1, citation.page), max(citation.page, citation.page_end) + 1)

        def read(_ctx: TaskContext) -> dict[int, PageLayerInfo | None]:
            return {page: folio.page_layer(citation.path, page) for page in pages}

        self.app.runner.submit(
            Resource.CHATS,
            read,
            name="read the cited page",
            on_success=lambda layers: self._show_citation(citation, evidence, layers),
            on_failure=self.app.reporter.report,
        )

    def _show_citation(
        self, citation: Citation, evidence: str, layers: dict[int, PageLayerInfo | None]
    ) -> None:
        if self.viewer is None:
            self.viewer = PdfViewer(self)
        self.viewer.layers = lambda path, page: layers.get(page) if path == citation.path else None
        self.viewer.show_citation(citation, evidence)
        self.viewer.show()
        self.viewer.raise_()

    def show_about(self) -> None:
        dialog = AboutDialog(self.app.settings, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.about_dialog = dialog
        dialog.show()

    def show_budget(self, state: AnswerState) -> None:
        dialog = BudgetDialog(state.budget, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.app.settings, self.app.model_info, self, self.app.runner)
        self.settings_dialog = dialog
        dialog.accepted.connect(lambda: self._settings_accepted(dialog))
        dialog.finished.connect(lambda _code: setattr(self, "settings_dialog", None))
        dialog.open()

    def _settings_accepted(self, dialog: SettingsDialog) -> None:
        if dialog.result_settings is not None:
            self.app.apply_settings(dialog.result_settings)

    # -- shutdown ----------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel generation and ingestion, join the workers, close the library; never hang."""
        self.hide()
        if self.viewer is not None:
            self.viewer.close()
        self.chat.stop()
        self.ingest.cancel()
        self.app.shutdown()
        event.accept()
