"""Damage found at start-up, shown with its fix: open another library, choose another model."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton, QWidget

from app.gui.app_controller import AppController


class StartupProblemBox(QMessageBox):
    """What is wrong and, when the user can fix it from here, a button that does. Nothing of the
    user's is deleted: a damaged library stays on disk as it is."""

    def __init__(self, parent: QWidget, app: AppController, kind: str, message: str) -> None:
        super().__init__(
            QMessageBox.Icon.Warning, self.tr("Folio"), "", QMessageBox.StandardButton.Close, parent
        )
        self.app = app
        self.kind = kind
        self.fix_button: QPushButton | None = None
        if kind == "library":
            self.setText(
                self.tr(
                    "The library could not be opened: {0}\n\nIts files were left as they are. "
                    "You can open another library folder, or quit and restore this one from a backup."
                ).format(message)
            )
            self.fix_button = self.addButton(
                self.tr("Open another library…"), QMessageBox.ButtonRole.ActionRole
            )
            self.fix_button.clicked.connect(self.open_another_library)
        elif kind == "model":
            self.setText(
                self.tr(
                    "The chat model could not be loaded: {0}\n\nChoose another model file (GGUF)."
                ).format(message)
            )
            self.fix_button = self.addButton(
                self.tr("Choose another model…"), QMessageBox.ButtonRole.ActionRole
            )
            self.fix_button.clicked.connect(self.choose_another_model)
        else:
            self.setIcon(QMessageBox.Icon.Information)
            self.setText(self.tr("The search index was repaired: {0}").format(message))
        self.setModal(False)

    def open_another_library(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a library folder"))
        if folder:
            self.app.open_library(Path(folder))

    def choose_another_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose a chat model"), "", self.tr("GGUF models (*.gguf)")
        )
        if path:
            self.app.apply_settings(self.app.settings.replace(model_path=path))
