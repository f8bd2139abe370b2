"""GUI entry point: `run_gui(argv)` builds the application and shows the window before any model loads."""

from __future__ import annotations

import logging
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.core import paths
from app.core.api import Settings, UsageError, load_settings
from app.gui.app_controller import AppController, ServicesFactory, default_factory
from app.gui.errors import ErrorReporter
from app.gui.fonts import CjkFont, ensure_cjk_font, missing_font_message
from app.gui.language import Translations
from app.gui.main_window import MainWindow
from app.gui.startup_problems import StartupProblemBox
from app.gui.tasks import TaskRunner, stragglers

log = logging.getLogger(__name__)


def load_stylesheet() -> str:
    style = paths.resources_dir() / "style" / "folio.qss"
    try:
        return style.read_text(encoding="utf-8")
    except OSError:
        return ""


def create_window(
    settings: Settings,
    library_dir: Path,
    factory: ServicesFactory = default_factory,
    settings_path: Path | None = None,
    translations: Translations | None = None,
) -> MainWindow:
    """Build controllers and the window; services start on the next event-loop turn. The window's
    language follows `translations` (installed for the settings' language) and later settings."""
    if translations is None:
        translations = Translations()
        translations.use(settings.language)
    runner = TaskRunner()
    reporter = ErrorReporter()
    controller = AppController(settings, library_dir, runner, reporter, factory, settings_path)
    window = MainWindow(controller)
    window.translations = translations
    translations.setParent(window)
    controller.settings_changed.connect(lambda changed: translations.use(changed.language))
    runner.setParent(window)
    controller.setParent(window)
    reporter.setParent(window)
    reporter._parent_widget = window
    runner.task_failed.connect(reporter.report)

    def offer_fix(kind: str, message: str) -> None:
        StartupProblemBox(window, controller, kind, message).open()  # owned by the window

    controller.startup_problem.connect(offer_fix)
    return window


def say_when_chinese_cannot_show(font: CjkFont, reporter: ErrorReporter) -> None:
    """No font for Chinese could be had: tell the user how to get one rather than draw boxes."""
    if not font.found:
        reporter.problem(missing_font_message())


def _excepthook_for(reporter: ErrorReporter) -> object:
    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        details = "".join(traceback.format_exception(kind, value, tb))
        log.error("uncaught exception on the GUI thread\n%s", details)
        reporter.report(value, details)

    return hook


def run_gui(argv: Sequence[str]) -> int:
    """Show the main window at once; open the library and load the models in the background."""
    app = QApplication.instance() or QApplication(list(argv) or ["folio"])
    assert isinstance(app, QApplication)
    app.setApplicationName("Folio")
    app.setApplicationDisplayName("Folio")
    app.setOrganizationName("Folio")
    icon = paths.resources_dir() / "folio.png"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    cjk_font = ensure_cjk_font()  # before any widget lays out text
    log.info("Chinese font: %s (%s)", cjk_font.family or "none", cjk_font.source)
    app.setStyleSheet(load_stylesheet())
    settings_problem = ""
    try:
        settings = load_settings()
    except UsageError as exc:
        settings, settings_problem = Settings(), str(exc)
    translations = Translations()
    log.info("language: %s", translations.use(settings.language))
    window = create_window(settings, paths.default_library_dir(), translations=translations)
    window.show()
    reporter = window.app.reporter
    sys.excepthook = _excepthook_for(reporter)  # type: ignore[assignment]
    if settings_problem:
        reporter.problem(
            QApplication.translate(
                "Folio", "Your settings could not be read, so the defaults are used: {0}"
            ).format(settings_problem)
        )
    say_when_chinese_cannot_show(cjk_font, reporter)
    QTimer.singleShot(0, window.app.start)
    code = int(app.exec())
    if stragglers():  # a worker stuck in a step that cannot be interrupted: do not wait for it
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
