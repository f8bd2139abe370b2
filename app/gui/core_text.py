"""The core's marked texts (errors, reasons) in the window's language, where the window shows them."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.api import error_message, message_text


def core_text(text: str | None) -> str:
    """A text the core marked with QT_TRANSLATE_NOOP("Core", ...), translated (a marked head before
    ": " too); others as they are."""
    return message_text(text or "", QCoreApplication.translate)


def error_text(error: BaseException) -> str:
    """A FolioError's message translated (its template, with its values); any other error's text."""
    return error_message(error, QCoreApplication.translate)
