"""The chat model slot and the one path of a settings change: apply now, load the model at its next
use, put the previous model's settings back when it fails to load."""

from __future__ import annotations

import logging
import threading

from app.core.answering.pipeline.prime import prime_opening
from app.core.config import Settings, SettingsOwner, model_fields_changed, with_model_of
from app.core.errors import ModelError, ServerError, UsageError
from app.core.generate.chat_engine import ChatEngine, engine_for
from app.core.generate.model import ModelInfo, check_model_file

log = logging.getLogger("folio.model")


class ModelSlot:
    """One engine in use and at most one pending (configured, loaded at its first use). It is the
    only writer of the settings owner: `apply` and the rollback of a model that fails to load."""

    def __init__(self, settings: SettingsOwner, engine: ChatEngine | None = None) -> None:
        self._settings = settings
        self._owns_engine = engine is None
        self._engine: ChatEngine = engine or engine_for(settings.current)
        self._pending: ChatEngine | None = None
        self._before_pending = settings.current  # the model settings to go back to
        self._state = threading.RLock()

    @property
    def engine(self) -> ChatEngine:
        return self._engine

    def target(self) -> ChatEngine:
        """The engine the next request runs on: the pending one when the model changed."""
        with self._state:
            return self._pending or self._engine

    def is_current(self, engine: ChatEngine) -> bool:
        return engine is self._engine

    def info(self) -> ModelInfo | None:
        return self._engine.info()

    def apply(self, settings: Settings) -> bool:
        """Make `settings` current (invalid values: UsageError, nothing changes). Fields other than
        the model's apply at once; a changed model or context is checked now and loads at its next
        use (`load`). A model file that fails the check keeps the previous model's fields (the rest
        still applies) and raises its ModelError. Returns whether a model load is pending."""
        settings.validate()
        with self._state:
            changed = model_fields_changed(self._settings.current, settings) or self._pending is not None
            if changed or not self._engine.matches(settings):  # a server's key changed, say
                try:
                    self._prepare(settings)
                except ModelError:
                    self._settings.update(self._without_model_change(settings))
                    raise
            self._settings.update(settings)
            return self._pending is not None

    def _without_model_change(self, settings: Settings) -> Settings:
        try:
            return with_model_of(settings, self._settings.current)
        except UsageError:  # the other new values only make sense with the new context size
            return self._settings.current

    def _prepare(self, settings: Settings) -> None:
        target = self._pending or self._engine
        if target.matches(settings):
            return
        if self._engine.matches(settings):
            self._pending = None
            return
        if not settings.uses_server:  # a server is asked at the model's next use, not now
            check_model_file(settings.chat_model_path())
        if self._pending is None:
            self._before_pending = self._settings.current
        self._pending = engine_for(settings)

    def load(self) -> ModelInfo:
        """Load the configured model once (thread-safe); a new model that fails to load keeps the
        old one and puts its settings back (listeners hear it), then raises the ModelError. A server
        that cannot answer now (ServerError) stays the configured one."""
        with self._state:
            pending = self._pending
            if pending is None:
                return self._engine.load()
            try:
                info = pending.load()
            except ServerError:  # down, busy, loading, a wrong key: the server stays chosen, the
                raise  # next question asks it again (a local model never replaces it unasked)
            except ModelError:
                self._pending = None
                self._settings.update(with_model_of(self._settings.current, self._before_pending))
                raise
            old, self._engine, self._pending = self._engine, pending, None
            owned, self._owns_engine = self._owns_engine, True
        if owned:
            with old.lock:  # wait for a generation still running on the old model
                old.close()
        return info

    def prime(self) -> int:
        """The loaded model given the opening every answer's prompt shares (prime.py), so that the
        first question prefills less; skipped while a question holds the model. Returns the tokens
        cached (0: none); nothing for a server's model, whose server keeps its own cache. A failure
        here costs only the head start."""
        engine = self._engine
        info = engine.info()
        if info is None or info.server or not engine.lock.acquire(blocking=False):
            return 0
        try:
            return prime_opening(engine, self._settings.current)
        except Exception as exc:
            log.warning("the prompt opening was not cached: %s: %s", type(exc).__name__, exc)
            return 0
        finally:
            engine.lock.release()

    def close(self) -> None:
        with self._state:
            engines = [self._engine] if self._owns_engine else []
            if self._pending is not None:
                engines.append(self._pending)
            self._pending = None
        for engine in engines:
            with engine.lock:
                engine.close()
