"""The settings dialog: the model (this computer or a server), sampling, retrieval; validated first."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import paths
from app.core.api import Settings, UsageError, chat_models, default_model, save_server_key
from app.gui.accessible import name_form_fields
from app.gui.core_text import error_text
from app.gui.found_models_view import FoundModelsView
from app.gui.kv_cache_choice import KvCacheChoice
from app.gui.language import LANGUAGE_NAMES
from app.gui.server_box import ServerBox
from app.gui.tasks import TaskRunner


def _spin(minimum: int, maximum: int, value: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(minimum, maximum)
    box.setValue(value)
    return box


def _double(minimum: float, maximum: float, value: float, step: float, decimals: int = 2) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setDecimals(decimals)
    box.setRange(minimum, maximum)
    box.setSingleStep(step)
    box.setValue(value)
    return box


class SettingsDialog(QDialog):
    """Edits a Settings value; `result_settings` holds the validated result after accept() (and a
    server's API key, which is no setting, is stored by then). With a `runner`, the models found on
    this computer and a server's models are looked up on its worker."""

    def __init__(
        self,
        settings: Settings,
        model_info: Any,
        parent: QWidget | None = None,
        runner: TaskRunner | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.setObjectName("settingsDialog")
        self.setMinimumWidth(780)
        self.settings = settings
        self.result_settings: Settings | None = None
        forms = (
            (self.tr("Model"), self._model_form(settings, model_info, runner)),
            (self.tr("Answers"), self._answers_form(settings)),
            (self.tr("Documents"), self._documents_form(settings)),
            (self.tr("Interface"), self._interface_form(settings)),
        )
        self.tabs = QTabWidget()
        self.tabs.setObjectName("settingsTabs")
        self.tabs.setAccessibleName(self.tr("Settings pages"))
        for title, page_form in forms:
            name_form_fields(page_form)
            page = QWidget()
            page.setLayout(page_form)
            self.tabs.addTab(page, title)
        self.use_server.toggled.connect(self._show_source)
        (self.use_server if settings.uses_server else self.use_local).setChecked(True)
        self._show_source()
        self._add_footer()

    def _model_form(self, settings: Settings, model_info: Any, runner: TaskRunner | None) -> QFormLayout:
        """The Model page: where answers come from (a model file here, or a server) and how it runs."""
        self.model_path = QLineEdit(settings.model_path)
        self.model_path.setPlaceholderText(str(settings.chat_model_path()))
        browse_model = QPushButton(self.tr("Browse…"))
        browse_model.clicked.connect(self._browse_model)
        self._add_known_models(settings)
        self.found = FoundModelsView(runner, settings.model_path)
        self.found.model_chosen.connect(self._pick_found_model)
        self.model_path.textEdited.connect(self.found.select_path)
        self.use_local = QRadioButton(self.tr("This computer"))
        self.use_local.setObjectName("useLocalModel")
        self.use_server = QRadioButton(self.tr("A server"))
        self.use_server.setObjectName("useServer")
        self.server = ServerBox(settings.server_url, settings.server_model, runner, self)
        self.model_info = QLabel(self._describe_model(model_info))
        self.model_info.setObjectName("modelInfo")
        self.model_info.setWordWrap(True)
        self.n_ctx = _spin(0, 1_048_576, settings.n_ctx)
        self.n_ctx.setSingleStep(512)
        self.n_threads = _spin(-1, 256, settings.n_threads)
        self.n_threads.setSpecialValueText(self.tr("automatic"))
        self.n_threads.setMinimum(0)
        self.n_threads_batch = _spin(0, 256, settings.n_threads_batch)
        self.n_threads_batch.setSpecialValueText(self.tr("automatic"))
        self.n_gpu_layers = _spin(-1, 1000, settings.n_gpu_layers)
        self.n_gpu_layers.setSpecialValueText(self.tr("all"))
        self.kv_cache = KvCacheChoice(settings.kv_cache_type, model_info)
        source_row = QWidget()
        source = QHBoxLayout(source_row)
        source.setContentsMargins(0, 0, 0, 0)
        source.addWidget(self.use_local)
        source.addWidget(self.use_server)
        source.addStretch(1)
        self.local_rows: list[tuple[str, QWidget]] = [
            (self.tr("Chat model"), self.known_models),
            (self.tr("Model file (GGUF)"), self._row(self.model_path, browse_model)),
            (self.tr("Found on this computer"), self.found),
        ]
        self.model_form = model_form = QFormLayout()
        model_form.addRow(self.tr("Answers come from"), source_row)
        for label, widget in self.local_rows + self.server.rows:
            model_form.addRow(label, widget)
        model_form.addRow("", self.model_info)
        model_form.addRow(self.tr("Context size (tokens)"), self.n_ctx)
        model_form.addRow(self.tr("Threads"), self.n_threads)
        model_form.addRow(self.tr("Prompt threads"), self.n_threads_batch)
        model_form.addRow(self.tr("GPU layers"), self.n_gpu_layers)
        model_form.addRow(self.tr("KV cache"), self.kv_cache)
        return model_form

    def _add_known_models(self, settings: Settings) -> None:
        """The bundled models by name (the default, the fast option, any installed on request)."""
        self.known_models = QComboBox()
        self.known_models.setObjectName("knownModels")
        self.known_models.addItem(self.tr("Default ({0})").format(default_model("chat").display_name), "")
        for known in chat_models():
            if known.role != "default" and (paths.models_dir() / known.file).is_file():
                label = known.display_name + (self.tr(" — fast") if known.role == "fast" else "")
                if known.tag:  # what sets it apart, in a few words (catalog.py)
                    label += " — " + QCoreApplication.translate("Catalog", known.tag)
                self.known_models.addItem(label, str(paths.models_dir() / known.file))
                if known.role == "optional":
                    figures = QCoreApplication.translate("Catalog", known.note)
                    self.known_models.setItemData(
                        self.known_models.count() - 1, figures, Qt.ItemDataRole.ToolTipRole
                    )
        self.known_models.addItem(self.tr("Another GGUF file (found below, or Browse…)"), None)
        chosen = self.known_models.findData(settings.model_path)
        self.known_models.setCurrentIndex(chosen if chosen >= 0 else self.known_models.count() - 1)
        self.known_models.currentIndexChanged.connect(self._pick_known_model)

    def _answers_form(self, settings: Settings) -> QFormLayout:
        """The Answers page: sampling, passages, what the model reads, citations."""
        self.temperature = _double(0.0, 5.0, settings.temperature, 0.05)
        self.top_k = _spin(0, 1000, settings.top_k)
        self.top_p = _double(0.0, 1.0, settings.top_p, 0.01)
        self.min_p = _double(0.0, 1.0, settings.min_p, 0.01)
        self.max_tokens = _spin(0, 1_048_576, settings.max_tokens)
        self.seed = _spin(-1, 2_147_483_647, settings.seed)
        self.passages_k = _spin(0, 100, settings.passages_k)
        self.ttft_target = _double(0.0, 600.0, settings.ttft_target_s, 0.5, 1)
        self.ttft_target.setSuffix(self.tr(" s"))
        self.ttft_target.setSpecialValueText(self.tr("off"))
        self._add_reading_choices(settings)
        form = QFormLayout()
        form.addRow(self.tr("Temperature"), self.temperature)
        form.addRow(self.tr("Top-k"), self.top_k)
        form.addRow(self.tr("Top-p"), self.top_p)
        form.addRow(self.tr("Min-p"), self.min_p)
        form.addRow(self.tr("Max answer tokens"), self.max_tokens)
        form.addRow(self.tr("Seed"), self.seed)
        form.addRow(self.tr("Passages per answer"), self.passages_k)
        form.addRow(self.tr("TTFT target"), self.ttft_target)
        form.addRow(self.tr("The model reads"), self.answer_from)
        form.addRow(self.tr("Passages"), self.evidence_selection)
        form.addRow(self.tr("Citations"), self.cite_mode)
        return form

    def _add_reading_choices(self, settings: Settings) -> None:
        """The citation mode, what the model reads, and evidence selection."""
        self.cite_mode = QComboBox()
        self.cite_mode.setObjectName("citeMode")
        self.cite_mode.addItem(self.tr("Free: markers checked after the answer"), "free")
        self.cite_mode.addItem(
            self.tr("Constrained: only markers of the given passages can be written"), "constrained"
        )
        self.cite_mode.setCurrentIndex(max(0, self.cite_mode.findData(settings.cite_mode)))
        self.answer_from = QComboBox()
        self.answer_from.setObjectName("answerFrom")
        self.answer_from.addItem(self.tr("The passages found (most accurate)"), "passages")
        self.answer_from.addItem(
            self.tr("Only the sentences Folio found (first word about 5× sooner)"), "found"
        )
        self.answer_from.addItem(self.tr("The passages, and the sentences Folio found again"), "hinted")
        self.answer_from.setCurrentIndex(max(0, self.answer_from.findData(settings.answer_from)))
        self.answer_from.setToolTip(
            self.tr(
                'What the model reads. Only the sentences shown under "Found on …": a much shorter '
                "prompt, but with the bundled model fewer English questions were answered right "
                "(make eval, README)."
            )
        )
        self.evidence_selection = QCheckBox(self.tr("Show the model only the sentences that matter"))
        self.evidence_selection.setObjectName("evidenceSelection")
        self.evidence_selection.setChecked(settings.evidence_selection)
        self.evidence_selection.setToolTip(
            self.tr(
                "Each passage reaches the model cut to the sentences closest to the question and their "
                "neighbours: a shorter prompt and a sooner first word. Citations still open the whole "
                "passage."
            )
        )

    def _documents_form(self, settings: Settings) -> QFormLayout:
        """The Documents page: the embedding model, OCR, files deleted from watched folders."""
        self.embed_dir = QLineEdit(settings.embed_model_dir)
        self.embed_dir.setPlaceholderText(str(settings.embed_model_path()))
        browse_embed = QPushButton(self.tr("Browse…"))
        browse_embed.clicked.connect(self._browse_embed)
        self.ocr_enabled = QCheckBox(self.tr("Read scanned pages with OCR (Chinese and English)"))
        self.ocr_enabled.setObjectName("ocrEnabled")
        self.ocr_enabled.setChecked(settings.ocr_enabled)
        self.ocr_enabled.setToolTip(
            self.tr("PDF pages without a text layer are recognised on this computer; a few seconds a page.")
        )
        self.folder_deletions = QComboBox()
        self.folder_deletions.setObjectName("folderDeletions")
        self.folder_deletions.addItem(self.tr("Ask before removing its document"), "ask")
        self.folder_deletions.addItem(self.tr("Remove its document"), "always")
        self.folder_deletions.addItem(self.tr("Keep its document"), "never")
        self.folder_deletions.setCurrentIndex(
            max(0, self.folder_deletions.findData(settings.folder_deletions))
        )
        documents_form = QFormLayout()
        documents_form.addRow(self.tr("Embedding model folder"), self._row(self.embed_dir, browse_embed))
        note = QLabel(
            self.tr("A new embedding model applies to a new library: documents are indexed with one model.")
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        documents_form.addRow("", note)
        documents_form.addRow(self.tr("Scanned PDFs"), self.ocr_enabled)
        documents_form.addRow(self.tr("A file deleted from a watched folder"), self.folder_deletions)
        return documents_form

    def _interface_form(self, settings: Settings) -> QFormLayout:
        """The Interface page: the language."""
        self.language = QComboBox()
        self.language.setObjectName("language")
        self.language.addItem(self.tr("The system's language"), "system")
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.language.setToolTip(self.tr("The window and the folio command; the chat stays as it is."))
        interface_form = QFormLayout()
        interface_form.addRow(self.tr("Language"), self.language)
        return interface_form

    def _add_footer(self) -> None:
        """The error line under the pages, the OK and Cancel buttons, and the dialog's layout."""
        self.error = QLabel()
        self.error.setObjectName("settingsError")
        self.error.setStyleSheet("color: #b3261e;")
        self.error.setWordWrap(True)
        self.error.setVisible(False)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    @staticmethod
    def _row(edit: QLineEdit, button: QPushButton) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(edit, 1)
        layout.addWidget(button)
        return row

    def _describe_model(self, info: Any) -> str:
        if info is None:
            return self.tr("No model loaded yet.")
        thinking = self.tr("supports thinking") if info.supports_thinking else self.tr("no thinking switch")
        if info.server and info.chat_template == "chatml":  # the server shows no template to read
            thinking = self.tr("thinking switch sent to the server (its template is not shown)")
        return self.tr("Loaded: {0} · context {1} tokens (trained {2}) · {3}").format(
            info.name, info.n_ctx, info.n_ctx_train, thinking
        )

    def set_model_info(self, info: Any) -> None:
        self.model_info.setText(self._describe_model(info))
        self.kv_cache.set_model_info(info)

    def _pick_known_model(self, index: int) -> None:
        path = self.known_models.itemData(index)
        if path is not None:
            self.model_path.setText(str(path))
            self.found.select_path(str(path))

    def _pick_found_model(self, path: str) -> None:
        """A found model is used where it is: model_path names its file (nothing is copied)."""
        self.model_path.setText(path)
        self.known_models.blockSignals(True)
        self.known_models.setCurrentIndex(self.known_models.count() - 1)
        self.known_models.blockSignals(False)

    def _show_source(self) -> None:
        server = self.use_server.isChecked()
        for _label, widget in self.local_rows:
            self.model_form.setRowVisible(widget, not server)
        for _label, widget in self.server.rows:
            self.model_form.setRowVisible(widget, server)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.found.scan is None and not self.found.searching:  # the first showing: search once
            self.found.start()

    def done(self, result: int) -> None:
        self.found.stop()
        self.server.stop()
        super().done(result)

    def _browse_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose a GGUF model"), self.model_path.text(), self.tr("GGUF models (*.gguf)")
        )
        if path:
            self.model_path.setText(path)

    def _browse_embed(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Choose an embedding model folder"), self.embed_dir.text()
        )
        if path:
            self.embed_dir.setText(path)

    def values(self) -> Settings:
        """The edited settings; raises UsageError naming the first invalid value."""
        server = self.use_server.isChecked()
        return self.settings.replace(
            server_url=self.server.base_url() if server else "",
            server_model=self.server.model_name() if server else self.settings.server_model,
            model_path=self.model_path.text().strip(),
            embed_model_dir=self.embed_dir.text().strip(),
            n_ctx=self.n_ctx.value(),
            n_threads=self.n_threads.value(),
            n_threads_batch=self.n_threads_batch.value(),
            n_gpu_layers=self.n_gpu_layers.value(),
            kv_cache_type=self.kv_cache.value(),
            temperature=round(self.temperature.value(), 4),
            top_k=self.top_k.value(),
            top_p=round(self.top_p.value(), 4),
            min_p=round(self.min_p.value(), 4),
            max_tokens=self.max_tokens.value(),
            seed=self.seed.value(),
            passages_k=self.passages_k.value(),
            ttft_target_s=round(self.ttft_target.value(), 2),
            ocr_enabled=self.ocr_enabled.isChecked(),
            evidence_selection=self.evidence_selection.isChecked(),
            answer_from=str(self.answer_from.currentData()),
            cite_mode=str(self.cite_mode.currentData()),
            folder_deletions=str(self.folder_deletions.currentData()),
            language=str(self.language.currentData()),
        )

    def accept(self) -> None:
        try:
            settings = self.values()
            key = self.server.key_change()
            if settings.uses_server and key is not None:  # stored before the model is asked for it
                save_server_key(settings.server_url, key)
        except (UsageError, OSError) as exc:
            self.error.setText(self.tr("Not saved: {0}").format(error_text(exc)))
            self.error.setVisible(True)
            return
        self.result_settings = settings
        super().accept()

    def keyPressEvent(self, event: Any) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.reject()
            return
        super().keyPressEvent(event)
