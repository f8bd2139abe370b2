"""The app's services seen from the GUI: build the facade, load models, list documents, settings."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.core.config import Settings, save_settings
from app.core.errors import UsageError
from app.gui.errors import ErrorReporter
from app.gui.tasks import Resource, TaskContext, TaskRunner

if TYPE_CHECKING:
    from app.core.qa import Folio

log = logging.getLogger(__name__)

ServicesFactory = Callable[[Settings, Path], "Folio"]


def default_factory(settings: Settings, library_dir: Path) -> Folio:
    from app.core.qa import build_services

    return build_services(settings, library_dir)


class AppController(QObject):
    """Owns the Folio facade once it is built; every call into it goes through the task runner."""

    status_changed = Signal(str)
    services_ready = Signal()
    documents_changed = Signal(list)  # list[DocumentInfo]
    model_loaded = Signal(object)  # ModelInfo
    model_failed = Signal(str)
    settings_changed = Signal(object)  # Settings

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
        self.settings = settings
        self.library_dir = library_dir
        self.runner = runner
        self.reporter = reporter
        self.factory = factory
        self.settings_path = settings_path
        self.folio: Folio | None = None
        self.model_info: Any = None
        self.model_loading = False
        self.embedder_ready = False
        self._built: Folio | None = None  # written by the store worker, read after it is joined

    # -- start-up ------------------------------------------------------------------------------
    def start(self) -> None:
        """Open the library on the store worker, then load the models in the background."""
        self.status_changed.emit(self.tr("Opening the library…"))

        def build(_ctx: TaskContext) -> Folio:
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

    def _on_built(self, folio: Folio) -> None:
        self.folio = folio
        self.services_ready.emit()
        self.refresh_documents()
        self.load_model()
        self.status_changed.emit(self.tr("Loading the embedding model…"))
        self.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.warm_up(),
            name="warm up",
            on_success=self._on_warm,
            on_failure=self._on_warm_failed,
        )

    def _on_build_failed(self, error: BaseException, details: str) -> None:
        self.status_changed.emit(self.tr("The library could not be opened."))
        self.reporter.report(error, details)

    def _on_warm(self, _result: object) -> None:
        self.embedder_ready = True
        self._status_ready()

    def _on_warm_failed(self, error: BaseException, details: str) -> None:
        self.status_changed.emit(self.tr("The embedding model could not be loaded."))
        self.reporter.report(error, details)

    def load_model(self) -> None:
        folio = self.folio
        if folio is None:
            return
        self.model_loading = True
        self.status_changed.emit(self.tr("Loading model…"))
        self.runner.submit(
            Resource.MODEL,
            lambda _ctx: folio.answerer.load_model(),
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
        self.model_failed.emit(str(error))
        self.status_changed.emit(self.tr("The model could not be loaded."))
        self.reporter.report(error, details)

    def _status_ready(self) -> None:
        if self.model_loading:
            self.status_changed.emit(self.tr("Loading model…"))
        elif not self.embedder_ready:
            self.status_changed.emit(self.tr("Loading the embedding model…"))
        else:
            self.status_changed.emit(self.tr("Ready"))

    # -- library ---------------------------------------------------------------------------------
    def refresh_documents(self) -> None:
        folio = self.folio
        if folio is None:
            return
        self.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.documents(),
            name="list documents",
            on_success=self.documents_changed.emit,
        )

    def remove_document(self, document_id: int) -> None:
        folio = self.folio
        if folio is None:
            return
        self.runner.submit(
            Resource.STORE,
            lambda _ctx: folio.remove(document_id),
            name="remove document",
            on_success=lambda _info: self.refresh_documents(),
            on_failure=self._refresh_after_failure,
        )

    def _refresh_after_failure(self, error: BaseException, details: str) -> None:
        self.reporter.report(error, details)
        self.refresh_documents()

    # -- settings --------------------------------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        """Save and apply: a changed model reloads on the model worker (a failure keeps the old one)."""
        old = self.settings
        save_settings(settings, self.settings_path)
        self.settings = settings
        self.settings_changed.emit(settings)
        folio = self.folio
        if folio is None:
            return
        folio.settings = settings
        model_changed = (old.chat_model_path(), old.n_ctx, old.n_threads, old.n_gpu_layers) != (
            settings.chat_model_path(),
            settings.n_ctx,
            settings.n_threads,
            settings.n_gpu_layers,
        )
        if model_changed:
            self.model_loading = True
            self.status_changed.emit(self.tr("Loading model…"))

        def apply(_ctx: TaskContext) -> Any:
            folio.answerer.set_settings(settings)
            return folio.answerer.load_model()

        def failed(error: BaseException, details: str) -> None:
            # the engine kept the previous model: keep the previous model settings too
            try:
                kept = settings.replace(
                    model_path=old.model_path,
                    n_ctx=old.n_ctx,
                    n_threads=old.n_threads,
                    n_gpu_layers=old.n_gpu_layers,
                )
            except UsageError:  # the other new values only made sense with the new context size
                kept = old
            save_settings(kept, self.settings_path)
            self.settings = kept
            if self.folio is not None:
                self.folio.settings = kept
            self.settings_changed.emit(kept)
            self._on_model_failed(error, details)
            self._status_ready()

        self.runner.submit(
            Resource.MODEL, apply, name="apply settings", on_success=self._on_model, on_failure=failed
        )

    # -- shutdown ----------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Cancel and join every worker, then close the facade (store, index, model)."""
        self.runner.shutdown()
        folio = self.folio or self._built
        self.folio = None
        self._built = None
        if folio is not None:
            try:
                folio.close()
            except Exception:  # closing must not hide the window's own shutdown
                log.exception("closing the library failed")
