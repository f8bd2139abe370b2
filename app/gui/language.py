"""The window's language: Qt's and Folio's translators for the setting, replaced at run time."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QObject, QTranslator

from app.core.api import SOURCE_LANGUAGE, chosen_language, translations_dir

# The choices of Settings.language, each named in its own language (never translated).
LANGUAGE_NAMES = {"en": "English", "zh_CN": "中文（简体）"}


def system_language() -> str:
    """The language of the system's locale (Qt's view of it: the OS setting on Windows and macOS)."""
    locale = QLocale.system()
    if locale.language() == QLocale.Language.Chinese:
        return "zh_CN"
    return chosen_language("system")  # the locale variables, where Qt's locale says nothing of Chinese


def window_language(setting: str) -> str:
    return system_language() if setting == "system" else chosen_language(setting)


def is_language_change(event: QEvent) -> bool:
    """True for the event Qt sends every widget when a translator is installed or removed."""
    return event.type() == QEvent.Type.LanguageChange


class Translations(QObject):
    """Installs the translators of one language; `use` swaps them, and Qt then sends every widget a
    LanguageChange event (each re-sets its texts: nothing is rebuilt, the chat stays)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.language = SOURCE_LANGUAGE
        self._installed: list[QTranslator] = []

    def use(self, setting: str) -> str:
        """Show `setting`'s language ("system", "en", "zh_CN"); returns the language shown."""
        language = window_language(setting)
        if language == self.language:
            return language
        for translator in self._installed:
            QCoreApplication.removeTranslator(translator)
        self._installed = []
        if language != SOURCE_LANGUAGE:
            candidates = (
                ("qtbase", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)),
                ("folio", str(translations_dir())),
            )
            for name, directory in candidates:
                translator = QTranslator(self)
                if translator.load(f"{name}_{language}", directory):
                    QCoreApplication.installTranslator(translator)
                    self._installed.append(translator)
        QLocale.setDefault(QLocale(language if language != SOURCE_LANGUAGE else "en_US"))
        self.language = language
        return language

    @property
    def loaded(self) -> bool:
        """Folio's own translation is installed (false for English, or when the .qm is missing)."""
        return any(t.filePath().endswith(".qm") and "folio_" in t.filePath() for t in self._installed)
