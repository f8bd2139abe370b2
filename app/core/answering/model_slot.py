"""The chat model slot: loads the configured engine once and swaps it when the settings change."""

from __future__ import annotations

import threading

from app.core.config import Settings, SettingsOwner
from app.core.errors import ModelError
from app.core.generate.engine import Engine
from app.core.generate.model import ModelInfo, check_model_file

MODEL_FIELDS = ("model_path", "n_ctx", "n_threads", "n_threads_batch", "n_gpu_layers")


class ModelSlot:
    """One engine in use and at most one pending (configured, loaded at its first use); a new model
    that fails to load leaves the old one in place and puts its settings back."""

    def __init__(self, settings: SettingsOwner, engine: Engine | None = None) -> None:
        self._settings = settings
        self._owns_engine = engine is None
        self._engine = engine or Engine.from_settings(settings.current)
        self._pending: Engine | None = None
        self._before_pending = settings.current  # the model settings to go back to
        self._state = threading.RLock()

    @property
    def engine(self) -> Engine:
        return self._engine

    def target(self) -> Engine:
        """The engine the next request runs on: the pending one when the model changed."""
        with self._state:
            return self._pending or self._engine

    def is_current(self, engine: Engine) -> bool:
        return engine is self._engine

    def info(self) -> ModelInfo | None:
        return self._engine.info()

    def load(self) -> ModelInfo:
        """Load the configured model once (thread-safe); a failed new model keeps the old one."""
        with self._state:
            pending = self._pending
            if pending is None:
                return self._engine.load()
            try:
                info = pending.load()
            except ModelError:
                self._pending = None
                previous = self._before_pending
                kept = {name: getattr(previous, name) for name in MODEL_FIELDS}
                self._settings.update(self._settings.current.replace(**kept))
                raise
            old, self._engine, self._pending = self._engine, pending, None
            owned, self._owns_engine = self._owns_engine, True
        if owned:
            with old.lock:  # wait for a generation still running on the old model
                old.close()
        return info

    def prepare(self, settings: Settings) -> None:
        """Before `settings` become current: a changed model or context is checked now (ModelError)
        and loads at its next use."""
        settings.validate()
        with self._state:
            target = self._pending or self._engine
            if target.matches(settings):
                return
            if self._engine.matches(settings):
                self._pending = None
                return
            check_model_file(settings.chat_model_path())
            if self._pending is None:
                self._before_pending = self._settings.current
            self._pending = Engine.from_settings(settings)

    def close(self) -> None:
        with self._state:
            engines = [self._engine] if self._owns_engine else []
            if self._pending is not None:
                engines.append(self._pending)
            self._pending = None
        for engine in engines:
            with engine.lock:
                engine.close()
