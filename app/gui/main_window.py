"""The main window: library and chats on the left, the chat on the right, files dropped anywhere."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.api import FORMATS, Citation, all_patterns, name_patterns
from app.gui.about_dialog import AboutDialog
from app.gui.accessible import set_tab_order
from app.gui.answer_state import AnswerState
from app.gui.app_controller import AppController
from app.gui.budget_dialog import BudgetDialog
from app.gui.chat_controller import ChatController
from app.gui.chat_list import ChatList
from app.gui.core_text import core_text
from app.gui.export_controller import ExportController
from app.gui.folder_list import DeletionNotice, FolderList
from app.gui.folder_watcher import FolderWatcher
from app.gui.ingest_controller import IngestController
from app.gui.ingest_panel import IngestPanel
from app.gui.language import Translations, is_language_change
from app.gui.library_panel import LibraryPanel
from app.gui.pdf_viewer import PdfViewer
from app.gui.question_box import QuestionBox, has_local_files
from app.gui.reindex_controller import ReindexController
from app.gui.reindex_notice import ReindexNotice
from app.gui.settings_dialog import SettingsDialog
from app.gui.shortcuts_dialog import ShortcutsDialog
from app.gui.tasks import Resource, TaskContext
from app.gui.transcript import Transcript

if TYPE_CHECKING:
    from app.core.api import PageLayerInfo


def document_filter() -> str:
    """The file dialog's filters, from the one list of readable formats (app/core/formats.py)."""
    documents = QCoreApplication.translate("MainWindow", "Documents")  # lupdate reads no f-string
    every_file = QCoreApplication.translate("MainWindow", "All files")
    return ";;".join(
        [
            f"{documents} ({all_patterns()})",
            *(f"{core_text(f.name)} ({name_patterns(f.suffixes)})" for f in FORMATS),
            f"{every_file} (*)",
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
        self.folders = FolderWatcher(app, self.ingest, self)
        self.viewer: PdfViewer | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.translations: Translations | None = None  # create_window's: the language follows settings
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self.resize(1200, 780)

        self.library = LibraryPanel(self)
        self.ingest_panel = IngestPanel(self.ingest, self)
        library_tab = QWidget(self)
        library_layout = QVBoxLayout(library_tab)
        self.folder_list = FolderList(self.folders, self)
        self.deletion_notice = DeletionNotice(self.folders, self)
        library_layout.addWidget(self.folder_list)
        library_layout.addWidget(self.deletion_notice)
        library_layout.addWidget(self.library, 1)
        library_layout.addWidget(self.ingest_panel)
        self.chats = ChatList(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(library_tab, "")
        self.tabs.addTab(self.chats, "")

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

        self.status = QLabel(self)
        self.status.setObjectName("statusText")
        self.model_label = QLabel(self)
        self.statusBar().addWidget(self.status, 1)
        self.statusBar().addPermanentWidget(self.model_label)
        self.exports = ExportController(app, self, lambda: self.chat.chat_id, self.transcript.current_answer)
        self._make_actions()
        self._wire()
        self.retranslate()
        self.question.send.setEnabled(False)
        self.update_tab_order()

    def retranslate(self) -> None:
        """Every text of the window in the current language (at start and on LanguageChange)."""
        self.setWindowTitle(self.tr("Folio"))
        self.tabs.setTabText(0, self.tr("Library"))
        self.tabs.setTabText(1, self.tr("Chats"))
        self.tabs.setAccessibleName(self.tr("Library and chats"))
        self.status.setText(self.app.status_text())
        self.file_menu.setTitle(self.tr("&File"))
        self.add_action.setText(self.tr("&Add documents…"))
        self.export_chat_action.setText(self.tr("&Export chat…"))
        self.export_answer_action.setText(self.tr("Export &answer…"))
        self.settings_action.setText(self.tr("&Settings…"))
        self.quit_action.setText(self.tr("&Quit"))
        self.chat_menu.setTitle(self.tr("&Chat"))
        self.new_action.setText(self.tr("&New chat"))
        self.stop_action.setText(self.tr("&Stop answering"))
        self.send_action.setText(self.tr("Send the &question"))
        self.focus_action.setText(self.tr("&Go to the question box"))
        self.copy_action.setText(self.tr("&Copy answer with sources"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.shortcuts_action.setText(self.tr("&Keyboard shortcuts"))
        self.about_action.setText(self.tr("&About Folio"))
        if self.app.model_info is not None:
            self._model_loaded(self.app.model_info)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    # -- set-up ---------------------------------------------------------------------------------
    def _make_actions(self) -> None:
        self.file_menu = file_menu = self.menuBar().addMenu("")
        self.add_action = QAction(self)
        self.add_action.setShortcut(QKeySequence.StandardKey.Open)
        self.add_action.triggered.connect(self.choose_documents)
        self.settings_action = QAction(self)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.triggered.connect(self.open_settings)
        self.quit_action = quit_action = QAction(self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        self.export_chat_action = QAction(self)
        self.export_chat_action.setShortcut(QKeySequence("Ctrl+Shift+E"))
        self.export_chat_action.triggered.connect(self.exports.export_chat)
        self.export_answer_action = QAction(self)
        self.export_answer_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_answer_action.triggered.connect(self.exports.export_answer)
        file_menu.addAction(self.add_action)
        file_menu.addActions([self.export_chat_action, self.export_answer_action])
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        self.chat_menu = chat_menu = self.menuBar().addMenu("")
        self.new_action = new_action = QAction(self)
        new_action.setShortcut(QKeySequence.StandardKey.New)
        new_action.triggered.connect(self.chat.new_chat)
        self.stop_action = stop_action = QAction(self)
        stop_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        stop_action.triggered.connect(self.chat.stop)
        self.send_action = send_action = QAction(self)
        send_action.setShortcut(QKeySequence("Ctrl+Return"))
        send_action.triggered.connect(self.question.submit)
        self.focus_action = focus_action = QAction(self)
        focus_action.setShortcut(QKeySequence("Ctrl+L"))
        focus_action.triggered.connect(
            lambda: self.question.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        )
        self.copy_action = copy_action = QAction(self)
        copy_action.setShortcut(QKeySequence("Ctrl+Shift+C"))
        copy_action.triggered.connect(lambda: self.exports.copy_answer())
        chat_menu.addActions([new_action, send_action, stop_action, focus_action, copy_action])
        self.help_menu = help_menu = self.menuBar().addMenu("")
        self.shortcuts_action = shortcuts_action = QAction(self)
        shortcuts_action.setShortcut(QKeySequence.StandardKey.HelpContents)
        shortcuts_action.triggered.connect(self.show_shortcuts)
        self.about_action = about_action = QAction(self)
        about_action.triggered.connect(self.show_about)
        help_menu.addActions([shortcuts_action, about_action])

    def _wire(self) -> None:
        app, chat = self.app, self.chat
        app.status_changed.connect(self.status.setText)
        app.services_ready.connect(self._services_ready)
        app.documents_changed.connect(self.library.model.set_documents)
        app.model_loaded.connect(self._model_loaded)
        app.model_failed.connect(lambda _message: self._update_send())
        self.ingest.message.connect(self._flash)
        self.folders.message.connect(self._flash)
        app.library_replaced.connect(
            lambda kept: self._flash(
                self.tr("The library was re-indexed; the old one is kept in {0}").format(kept)
            )
        )
        self.ingest.batch_finished.connect(self.library.model.add_failures)
        self.library.add_requested.connect(self.choose_documents)
        self.library.remove_requested.connect(self.confirm_remove)
        self.library.reindex_requested.connect(self.ingest.reindex)
        self.reindexer.reread_requested.connect(lambda ids: self.ingest.reindex(*ids))
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
        self.transcript.copy_requested.connect(self.exports.copy_answer)
        self.exports.exported.connect(lambda path: self._flash(self.tr("Exported to {0}").format(path)))
        self.exports.copied.connect(lambda: self._flash(self.tr("Copied the answer with its sources")))

    def _services_ready(self) -> None:
        self._update_send()

    def _model_loaded(self, info: Any) -> None:
        self.model_label.setText(self.tr("{0} · ctx {1}").format(info.name, info.n_ctx))
        self.question.set_thinking_support(info.supports_thinking, core_text(info.thinking_reason))
        if self.settings_dialog is not None:
            self.settings_dialog.set_model_info(info)
        self._update_send()

    def _update_send(self) -> None:
        self.question.send.setEnabled(
            self.app.folio is not None and (self.chat.busy or self.app.model_info is not None)
        )

    def _answer_started(self, state: AnswerState) -> None:
        self.transcript.add_answer(state)
        self.update_tab_order()

    def update_tab_order(self) -> None:
        """Tab as a reader goes: the question box, Thinking, where the answer reads, Send/Stop, the
        answers (their citations and sources), then the left side (its tabs, the chats or the library)."""
        front = [self.question.edit, self.question.thinking, self.question.scope, self.question.send]
        set_tab_order([*front, *self.transcript.focus_order(), self.tabs.tabBar()], self)

    def _flash(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

    # -- documents -------------------------------------------------------------------------------
    def choose_documents(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Add documents"), "", document_filter())
        if paths:
            self.add_paths([Path(p) for p in paths])

    def add_paths(self, paths: list[Path]) -> None:
        """Ingest files and folders; a folder is watched from then on."""
        self.tabs.setCurrentIndex(0)
        self.ingest.add(paths)
        self.folders.watch(paths)

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
            return {page: folio.library.page_layer(citation.path, page) for page in pages}

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

    def show_shortcuts(self) -> None:
        actions = [action for menu in self.menuBar().findChildren(QMenu) for action in menu.actions()]
        dialog = ShortcutsDialog(actions, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.shortcuts_dialog = dialog
        dialog.open()

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
