"""Settings' server part: the base URL, the model (listed from the server on a worker) and the API key."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from app.gui.core_text import error_text
from app.gui.tasks import Resource, TaskContext, TaskRunner


class ServerBox(QObject):
    """Edits where a server is and which of its models answers (its `rows` go into the dialog's
    form). "List models" asks the server's /v1/models on the runner's lookup worker; `listed`
    (names) or `list_failed` (why) follow."""

    listed = Signal(list)
    list_failed = Signal(str)

    def __init__(
        self, url: str, model: str, runner: TaskRunner | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        self._alive = True
        self.url = QLineEdit(url)
        self.url.setObjectName("serverUrl")
        self.url.setPlaceholderText("http://127.0.0.1:8080")
        self.model = QComboBox()
        self.model.setObjectName("serverModel")
        self.model.setEditable(True)
        self.model.setMinimumContentsLength(24)
        if model:
            self.model.addItem(model)
        self.model.setCurrentText(model)
        self.list_button = QPushButton(self.tr("List models"))
        self.list_button.setObjectName("listServerModels")
        self.list_button.clicked.connect(self.list_models)
        self.list_button.setEnabled(runner is not None)
        self.key = QLineEdit()
        self.key.setObjectName("serverKey")
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText(self.tr("optional; empty keeps the key stored before"))
        self.key.setToolTip(
            self.tr("Kept in the system keyring, or a file only you can read; never in the settings file.")
        )
        self.forget_key = QCheckBox(self.tr("Forget the stored key"))
        self.forget_key.setObjectName("forgetServerKey")
        self.forget_key.toggled.connect(lambda on: self.key.setEnabled(not on))
        self.status = QLabel()
        self.status.setObjectName("serverStatus")
        self.status.setWordWrap(True)
        model_row = QWidget()
        row = QHBoxLayout(model_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.model, 1)
        row.addWidget(self.list_button)
        self.rows: list[tuple[str, QWidget]] = [
            (self.tr("Server address"), self.url),
            (self.tr("Model on the server"), model_row),
            (self.tr("API key"), self.key),
            ("", self.forget_key),
            ("", self.status),
        ]

    def base_url(self) -> str:
        return self.url.text().strip()

    def model_name(self) -> str:
        return self.model.currentText().strip()

    def key_change(self) -> str | None:
        """The key to store: None keeps the stored one, "" forgets it."""
        if self.forget_key.isChecked():
            return ""
        return self.key.text().strip() or None

    def list_models(self) -> None:
        """Ask the server for its models on the lookup worker (the typed key, else the stored one)."""
        if self.runner is None or not self.runner.accepting:
            return
        url, typed = self.base_url(), self.key.text().strip()
        forget = self.forget_key.isChecked()

        def fetch(_ctx: TaskContext) -> tuple[str, list[str]]:
            from app.core import api

            key = None if forget else (typed or api.load_server_key(url))
            return url, api.list_server_models(url, key)

        self.list_button.setEnabled(False)
        self.status.setStyleSheet("")
        self.status.setText(self.tr("Asking {0} for its models…").format(url or "?"))
        self.runner.submit(
            Resource.LOOKUP, fetch, name="list server models", on_success=self._got, on_failure=self._failed
        )

    def stop(self) -> None:
        """The dialog closed: a reply still coming is dropped."""
        self._alive = False

    def _got(self, result: tuple[str, list[str]]) -> None:
        url, names = result
        if not self._alive:
            return
        self.list_button.setEnabled(True)
        if url != self.base_url():  # the address changed meanwhile: a stale list
            self.status.setText(self.tr("The address changed: press List models again."))
            return
        typed = self.model_name()
        self.model.clear()
        self.model.addItems(names)
        self.model.setCurrentText(typed if typed in names or not names else names[0])
        if names:
            shown = ", ".join(names[:6]) + (" …" if len(names) > 6 else "")
            self.status.setText(self.tr("Listed by the server: {0}").format(shown))
        else:
            self.status.setText(self.tr("The server lists no models."))
        self.listed.emit(names)

    def _failed(self, error: BaseException, _details: str) -> None:
        if not self._alive:
            return
        self.list_button.setEnabled(True)
        self.status.setStyleSheet("color: #b3261e;")
        self.status.setText(self.tr("No model list: {0}").format(error_text(error)))
        self.list_failed.emit(str(error))
