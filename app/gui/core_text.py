"""The core's marked texts (errors, reasons) in the window's language, where the window shows them."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.api import CORE_CONTEXT, error_message


def core_text(text: str | None) -> str:
    """A text the core marked with QT_TRANSLATE_NOOP("Core", ...), translated; others as they are."""
    return QCoreApplication.translate(CORE_CONTEXT, text) if text else ""


def error_text(error: BaseException) -> str:
    """A FolioError's message translated (its template, with its values); any other error's text."""
    return error_message(error, QCoreApplication.translate)
