"""The interface language without Qt: from the setting or the locale; the CLI's lines from the .ts."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

from app.core import paths
from app.core.config import LANGUAGES
from app.core.errors import FolioError
from app.core.messages import CONTEXT

SOURCE_LANGUAGE = "en"
# POSIX order: LC_ALL overrides LC_MESSAGES, which overrides LANG (LANGUAGE is GNU's list, first).
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def translations_dir() -> Path:
    """resources/i18n: the Qt Linguist sources (folio_<lang>.ts) and, after set-up, the built .qm."""
    return paths.resources_dir() / "i18n"


def translation_source(language: str) -> Path:
    return translations_dir() / f"folio_{language}.ts"


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale variables ask for: "zh_CN" for any Chinese locale, else "en"."""
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            first = value.split(":", 1)[0].strip().lower()
            return "zh_CN" if first.startswith("zh") else SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def chosen_language(setting: str, environ: Mapping[str, str] | None = None) -> str:
    """The language to show: the setting's, or the locale's when the setting is "system"."""
    if setting in LANGUAGES and setting != "system":
        return setting
    return locale_language(environ)


@cache
def catalog(language: str) -> dict[tuple[str, str], str]:
    """(context, source) -> finished translation, parsed from the language's .ts (empty for English
    or when the file is missing or unreadable: the source text is shown)."""
    if language == SOURCE_LANGUAGE:
        return {}
    import xml.etree.ElementTree as ElementTree  # only when a translation is shown

    try:
        root = ElementTree.parse(translation_source(language)).getroot()
    except (OSError, ElementTree.ParseError):
        return {}
    found: dict[tuple[str, str], str] = {}
    for context in root.iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
                continue
            found[(name, message.findtext("source", ""))] = translation.text or ""
    return found


class CliText:
    """The CLI's language, set once from the settings (`use`); the locale until then."""

    def __init__(self) -> None:
        self.language = ""

    def use(self, setting: str) -> None:
        self.language = chosen_language(setting)

    def translate(self, context: str, source: str) -> str:
        if not self.language:
            self.language = chosen_language("system")
        return catalog(self.language).get((context, source)) or source


CLI_TEXT = CliText()


def translate(context: str, source: str) -> str:
    """`source` in the CLI's language; lupdate reads these calls into the .ts like Qt's translate."""
    return CLI_TEXT.translate(context, source)


def message_text(text: str, translate: Callable[[str, str], str]) -> str:
    """A message the core marked ("Core" context) through `translate`; one that reads
    "<marked message>: <detail>" (a reader's reason with a library's own words after it) gets its
    marked head translated and its detail as it is; any other text as it is."""
    if not text:
        return text
    translated = translate(CONTEXT, text)
    if translated != text or ": " not in text:
        return translated
    head, detail = text.split(": ", 1)
    shown = translate(CONTEXT, head)
    return text if shown == head else f"{shown}：{detail}"


def error_message(error: BaseException, translate: Callable[[str, str], str]) -> str:
    """A FolioError's message through `translate` (its marked template, with its values); any
    other error's text as it is. The window passes Qt's translate, the CLI the one above."""
    if not isinstance(error, FolioError):
        return str(error)
    if not error.values:
        return message_text(error.template, translate)
    template = translate(CONTEXT, error.template)
    try:
        return template.format(*error.values)
    except (IndexError, KeyError, ValueError):  # a translation that lost a placeholder: the English
        return str(error)
