"""The chat models found on this computer (LM Studio, GPT4All, Jan, Ollama, chosen folders)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core import paths
from app.gui.core_text import core_text, error_text
from app.gui.tasks import Resource, TaskContext, TaskHandle, TaskRunner

if TYPE_CHECKING:
    from app.core.api import FoundModel, ModelFolder, ModelScan

PATH_ROLE = Qt.ItemDataRole.UserRole


def _size(size_bytes: int) -> str:
    if size_bytes >= 1e9:
        return f"{size_bytes / 1e9:.1f} GB"
    return f"{size_bytes / 1e6:.0f} MB"


class FoundModelsView(QWidget):
    """Lists the models found; clicking one emits `model_chosen(path)`. The search runs on the
    runner's lookup worker when the view is shown and on "Search again"; `scanned` says it ended."""

    model_chosen = Signal(str)
    scanned = Signal(object)  # ModelScan

    def __init__(self, runner: TaskRunner | None, current_path: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.current_path = current_path
        self.extra_folders: list[Path] = []
        self.scan: ModelScan | None = None
        self._task: TaskHandle | None = None
        self._alive = True
        self.tree = QTreeWidget()
        self.tree.setObjectName("foundModels")
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(
            [
                self.tr("Name"),
                self.tr("From"),
                self.tr("Size"),
                self.tr("Quantization"),
                self.tr("Context"),
                self.tr("Thinking"),
            ]
        )
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setMinimumHeight(130)
        self.tree.itemClicked.connect(self._clicked)
        self.status = QLabel()
        self.status.setObjectName("foundStatus")
        self.status.setWordWrap(True)
        self.again = QPushButton(self.tr("Search again"))
        self.again.clicked.connect(self.start)
        self.add_folder = QPushButton(self.tr("Add folder…"))
        self.add_folder.clicked.connect(self._choose_folder)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.add_folder)
        buttons.addWidget(self.again)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        layout.addLayout(buttons)
        if runner is None:
            self.status.setText(self.tr("Searching needs the running app."))
            self.again.setEnabled(False)
            self.add_folder.setEnabled(False)

    def folders(self) -> list[ModelFolder]:
        """The apps' folders, the folder of the model set now, and the folders the user added."""
        from app.core.api import ModelFolder, app_folders

        folders = app_folders()
        chosen = list(self.extra_folders)
        if self.current_path:
            chosen.insert(0, Path(self.current_path).parent)
        known = {folder.path for folder in folders} | {paths.models_dir()}  # the bundled: listed above
        for path in chosen:
            if path not in known:
                known.add(path)
                folders.append(ModelFolder(path.name or str(path), path))
        return folders

    @property
    def searching(self) -> bool:
        return self._task is not None and not self._task.done

    def start(self) -> None:
        """Search (again) on the lookup worker; the list fills when `scanned` is emitted."""
        if self.runner is None or not self.runner.accepting:
            return
        if self._task is not None and not self._task.done:
            self._task.cancel()
        folders = self.folders()

        def search(ctx: TaskContext) -> ModelScan:
            from app.core import api

            return api.find_models(folders, ctx.cancel)

        self.again.setEnabled(False)
        self.status.setText(self.tr("Looking for models on this computer…"))
        self._task = self.runner.submit(
            Resource.LOOKUP, search, name="find models", on_success=self._show, on_failure=self._failed
        )

    def stop(self) -> None:
        """The dialog closed: a search still running stops and its result is dropped."""
        self._alive = False
        if self._task is not None:
            self._task.cancel()

    def _show(self, scan: ModelScan) -> None:
        if not self._alive:
            return
        self.scan = scan
        self.tree.clear()
        for model in scan.models:
            self.tree.addTopLevelItem(self._item(model))
        self.select_path(self.current_path)
        self.again.setEnabled(True)
        self.status.setText(self._summary(scan))
        self.status.setToolTip("\n".join(f"{s.path}: {core_text(s.reason)}" for s in scan.skipped[:40]))
        self.scanned.emit(scan)

    def _failed(self, error: BaseException, _details: str) -> None:
        if not self._alive:
            return
        self.again.setEnabled(True)
        self.status.setText(self.tr("The search failed: {0}").format(error_text(error)))

    def _summary(self, scan: ModelScan) -> str:
        if not scan.searched:
            return self.tr("No LM Studio, GPT4All, Jan or Ollama models folder on this computer.")
        sources = sorted({folder.source for folder in scan.searched})
        text = self.tr("{0} chat models in {1}.").format(len(scan.models), ", ".join(sources))
        if scan.skipped:
            text += " " + self.tr("{0} files left out (hover for why).").format(len(scan.skipped))
        return text

    def _item(self, model: FoundModel) -> QTreeWidgetItem:
        if model.thinking.supported:
            thinking = self.tr("yes, switchable")
        elif model.can_think:
            thinking = self.tr("always")
        else:
            thinking = self.tr("no")
        context = f"{model.context_length:,}" if model.context_length else self.tr("unknown")
        item = QTreeWidgetItem(
            [model.name, model.source, _size(model.size_bytes), model.quantization or "?", context, thinking]
        )
        item.setData(0, PATH_ROLE, str(model.path))
        item.setToolTip(0, f"{model.path}\n{model.gguf_name or ''} ({model.architecture or '?'})")
        item.setToolTip(5, core_text(model.thinking.reason))
        for column in (2, 4):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def select_path(self, path: str) -> None:
        """Select the row of the model at `path` (none when it is not one found)."""
        self.current_path = path
        self.tree.clearSelection()
        for index in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(index)
            if item is not None and item.data(0, PATH_ROLE) == path:
                self.tree.setCurrentItem(item)
                return

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        path = str(item.data(0, PATH_ROLE))
        self.current_path = path
        self.model_chosen.emit(path)

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a folder with GGUF models"))
        if folder:
            self.extra_folders.append(Path(folder))
            self.start()
