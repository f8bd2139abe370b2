"""The app's services seen from the GUI: build the facade, load models, list documents, settings."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.core.api import FolioError, Settings, replace_library, save_settings
from app.gui.core_text import core_text, error_text
from app.gui.errors import ErrorReporter
from app.gui.i18n import QT_TRANSLATE_NOOP
from app.gui.tasks import Resource, TaskContext, TaskRunner

if TYPE_CHECKING:
    from app.core.api import FolioApi
    from app.core.qa import Folio

log = logging.getLogger(__name__)

ServicesFactory = Callable[[Settings, Path], "FolioApi"]


def default_factory(settings: Settings, library_dir: Path) -> Folio:
    from app.core.services import build_services

    return build_services(settings, library_dir)


class AppController(QObject):
    """Owns the Folio facade once it is built; every call into it goes through the task runner."""

    status_changed = Signal(str)
    services_ready = Signal()
    documents_changed = Signal(list)  # list[DocumentInfo]
    model_loaded = Signal(object)  # ModelInfo
    model_failed = Signal(str)
    settings_changed = Signal(object)  # Settings
    # Damage found at start-up: kind ("library" | "model" | "index") and what is wrong. The window
    # offers the fix (open another library, choose another model); the user's files are kept.
    startup_problem = Signal(str, str)
    embedder_warm = Signal()  # the library's embedder is loaded and its index open
    library_replaced = Signal(str)  # a re-indexed library took the library's place; where the old one is
    _settings_moved = Signal(object)  # Settings: the core's current settings changed (any thread)

    def __init__(
        self,
        settings: Settings,
        library_dir: Path,
        runner: TaskRunner,
        reporter: ErrorReporter,
        factory: ServicesFactory = default_factory,
        settings_path: Path | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings  # until the library is open; then the facade's owner holds them
        self.library_dir = library_dir
        self.runner = runner
        self.reporter = reporter
        self.factory = factory
        self.settings_path = settings_path
        self.folio: FolioApi | None = None
        self.model_info: Any = None
        self.model_loading = False
        self.embedder_ready = False
        self.reindexing = False  # the library is being re-indexed (ReindexController): no writes to it
        self._built: FolioApi | None = None  # written by the store worker, read after it is joined
        self._settings_moved.connect(self._on_settings_moved)
        self._status_source = QT_TRANSLATE_NOOP("AppController", "Starting…")

    def _say(self, source: str) -> None:
        """Show a status line; its English source is kept so a language change can show it again."""
        self._status_source = source
        self.status_changed.emit(self.tr(source))

    def status_text(self) -> str:
        """The last status line in the current language."""
        return self.tr(self._status_source)

    @property
    def settings(self) -> Settings:
        """The current settings: the facade's once the library is open."""
        return self.folio.settings if self.folio is not None else self._settings

    # -- start-up ------------------------------------------------------------------------------
    def start(self) -> None:
        """Open the library on the store worker, then load the models in the background."""
        self._say(QT_TRANSLATE_NOOP("AppController", "Opening the library…"))

        def build(_ctx: TaskContext) -> FolioApi:
            folio = self.factory(self.settings, self.library_dir)
            self._built = folio
            return folio

        self.runner.submit(
            Resource.STORE,
            build,
            name="open library",
            on_success=self._on_built,
            on_failure=self._on_build_failed,
        )

    def _on_built(self, folio: FolioApi) -> None:
        self.folio = folio
        # every change of the core's settings (here, or a model that failed to load putting the old
        # model back on the model worker) is saved and announced on the GUI thread
        folio.settings_owner.subscribe(lambda _old, new: self._settings_moved.emit(new))
        self.services_ready.emit()
        self.refresh_documents()
        self.load_model()
        self._say(QT_TRANSLATE_NOOP("AppController", "Loading the embedding model…"))
        self.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.library.warm_up(),
            name="warm up",
            on_success=self._on_warm,
            on_failure=self._on_warm_failed,
        )

    def _on_build_failed(self, error: BaseException, details: str) -> None:
        self._say(QT_TRANSLATE_NOOP("AppController", "The library could not be opened."))
        if isinstance(error, FolioError):  # a damaged or unusable library: say so, offer another
            self.startup_problem.emit("library", error_text(error))
            return
        self.reporter.report(error, details)

    def open_library(self, library_dir: Path) -> None:
        """Open another library folder (after the first one could not be opened)."""
        if self.folio is not None:
            return
        self.library_dir = library_dir
        self.start()

    def _on_warm(self, _result: object) -> None:
        self.embedder_ready = True
        self._status_ready()
        folio = self.folio
        for notice in folio.notices if folio is not None else []:  # e.g. a damaged index rebuilt
            self.startup_problem.emit("index", core_text(notice))
        self.embedder_warm.emit()

    def _on_warm_failed(self, error: BaseException, details: str) -> None:
        self._say(QT_TRANSLATE_NOOP("AppController", "The embedding model could not be loaded."))
        self.reporter.report(error, details)

    def load_model(self) -> None:
        folio = self.folio
        if folio is None:
            return
        self.model_loading = True
        self._say(QT_TRANSLATE_NOOP("AppController", "Loading model…"))
        self.runner.submit(
            Resource.MODEL,
            lambda _ctx: folio.answering.load_model(),
            name="load model",
            on_success=self._on_model,
            on_failure=self._on_model_failed,
        )

    def _on_model(self, info: Any) -> None:
        self.model_loading = False
        self.model_info = info
        self.model_loaded.emit(info)
        self._status_ready()

    def _on_model_failed(self, error: BaseException, details: str) -> None:
        self.model_loading = False
        self.model_failed.emit(error_text(error))
        self._say(QT_TRANSLATE_NOOP("AppController", "The model could not be loaded."))
        if isinstance(error, FolioError) and self.model_info is None:  # no model at all yet
            self.startup_problem.emit("model", error_text(error))
            return
        self.reporter.report(error, details)

    def _status_ready(self) -> None:
        if self.model_loading:
            self._say(QT_TRANSLATE_NOOP("AppController", "Loading model…"))
        elif not self.embedder_ready:
            self._say(QT_TRANSLATE_NOOP("AppController", "Loading the embedding model…"))
        else:
            self._say(QT_TRANSLATE_NOOP("AppController", "Ready"))

    # -- library ---------------------------------------------------------------------------------
    def replace_library(self, reindexed: Path) -> None:
        """Put the re-indexed library in the open one's place and open it. The model worker goes
        first, so an answer in progress finishes on the old library; then the store worker closes
        it, swaps the folders (the old one kept beside) and the new library opens as at start-up."""
        folio = self.folio
        if folio is None:
            return
        self.folio = None  # nothing new reaches the old library
        self.embedder_ready = False
        self._say(QT_TRANSLATE_NOOP("AppController", "Opening the re-indexed library…"))

        def swap(_ctx: TaskContext) -> Path:
            folio.close()
            return replace_library(self.library_dir, reindexed)

        def swapped(kept: Path) -> None:
            self.library_replaced.emit(str(kept))
            self.start()

        def failed(error: BaseException, details: str) -> None:
            self.reporter.report(error, details)
            self.start()  # the old library, where it was

        def after_answers(_none: object) -> None:
            self.runner.submit(
                Resource.STORE, swap, name="replace library", on_success=swapped, on_failure=failed
            )

        self.runner.submit(
            Resource.MODEL, lambda _ctx: None, name="wait for the answer", on_success=after_answers
        )

    def refresh_documents(self) -> None:
        folio = self.folio
        if folio is None:
            return
        self.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.library.documents(),
            name="list documents",
            on_success=self.documents_changed.emit,
        )

    def remove_document(self, document_id: int) -> None:
        folio = self.folio
        if folio is None:
            return
        self.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.library.remove(document_id),
            name="remove document",
            on_success=lambda _info: self.refresh_documents(),
            on_failure=self._refresh_after_failure,
        )

    def _refresh_after_failure(self, error: BaseException, details: str) -> None:
        self.reporter.report(error, details)
        self.refresh_documents()

    # -- settings --------------------------------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        """Apply and save through the facade's one settings path: everything but the model at once;
        a changed model is checked now and loaded on the model worker, and one that fails to load
        keeps the previous model (and says why). The core's change event saves and announces."""
        folio = self.folio
        if folio is None:
            save_settings(settings, self.settings_path)
            self._settings = settings
            self.settings_changed.emit(settings)
            return
        try:
            reload = folio.apply_settings(settings)  # validation and a 4-byte model file check
        except FolioError as error:  # the rest applied; the previous model stays, and says why
            self._on_model_failed(error, "")
            self._status_ready()
            return
        if not reload:
            return
        self.model_loading = True
        self._say(QT_TRANSLATE_NOOP("AppController", "Loading model…"))

        def failed(error: BaseException, details: str) -> None:
            self._on_model_failed(error, details)
            self._status_ready()

        self.runner.submit(
            Resource.MODEL,
            lambda _ctx: folio.answering.load_model(),
            name="apply settings",
            on_success=self._on_model,
            on_failure=failed,
        )

    def _on_settings_moved(self, settings: Settings) -> None:
        save_settings(settings, self.settings_path)
        self.settings_changed.emit(settings)

    # -- shutdown ----------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Cancel and join every worker (bounded), then close the facade (store, index, model).
        A worker still busy (a model load cannot be interrupted) keeps the facade it uses: the
        process ends without closing it, and SQLite rolls back what was not committed."""
        stuck = self.runner.shutdown()
        folio = self.folio or self._built
        self.folio = None
        self._built = None
        if stuck:
            log.warning("exiting without waiting for %s", ", ".join(stuck))
            return
        if folio is not None:
            try:
                folio.close()
            except Exception:  # closing must not hide the window's own shutdown
                log.exception("closing the library failed")
