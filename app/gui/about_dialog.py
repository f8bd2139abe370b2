"""Help › About Folio: the version, and each model in use with its source package and licence."""

from __future__ import annotations

import html
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from app.core.api import Settings, by_file


def folio_version() -> str:
    try:
        return version("folio")
    except PackageNotFoundError:  # a frozen bundle without metadata
        return "0.1.0"


def model_rows(settings: Settings) -> list[tuple[str, str]]:
    """(role, description) of the chat and embedding models the settings point at."""
    rows: list[tuple[str, str]] = []
    for role, path in (
        (QCoreApplication.translate("AboutDialog", "Chat model"), settings.chat_model_path()),
        (QCoreApplication.translate("AboutDialog", "Embedding model"), settings.embed_model_path()),
    ):
        known = by_file(Path(path).name)
        if known is None:
            rows.append(
                (
                    role,
                    QCoreApplication.translate(
                        "AboutDialog", "{0} (your own file; source and licence unknown to Folio)"
                    ).format(path),
                )
            )
            continue
        source = (
            ", ".join(known.sources)
            if len(known.sources) <= 2
            else f"{known.sources[0]} … {known.sources[-1]}"
        )
        rows.append(
            (
                role,
                QCoreApplication.translate(
                    "AboutDialog", "{0} — licence {1}, {2} MB, from the PyPI package(s) {3}"
                ).format(known.display_name, known.licence, known.size_mb, source),
            )
        )
    return rows


class AboutDialog(QDialog):
    """What Folio is and which models it runs, with their licences."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About Folio"))
        layout = QVBoxLayout(self)
        rows = "".join(
            f"<tr><td><b>{html.escape(role)}</b></td><td>{html.escape(text)}</td></tr>"
            for role, text in model_rows(settings)
        )
        purpose = self.tr("Answers questions about your own documents, offline, with page citations.")
        offline = self.tr("Nothing leaves this computer: no account, no network, no cloud model.")
        self.text = QLabel(
            f"<h3>Folio {html.escape(folio_version())}</h3><p>{html.escape(purpose)}</p>"
            f"<table cellspacing='6'>{rows}</table><p>{html.escape(offline)}</p>",
            self,
        )
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
