"""Folio: one library's three facades (library, chats, answering) and its settings, as one object."""

from __future__ import annotations

from pathlib import Path

from app.core.config import Settings, SettingsOwner
from app.core.facade.answering import Answering
from app.core.facade.chats import Chats
from app.core.facade.library import Library
from app.core.index.consistency import VerifyReport

__all__ = ["Folio", "VerifyReport"]


class Folio:
    """What the front ends hold, built by `app.core.services.build_services`: `library` (ingest,
    search, documents, folders, verify), `chats` (list, open, export, delete), `answering` (ask,
    the chat model), and the settings they share."""

    def __init__(self, settings: SettingsOwner, library: Library, chats: Chats, answering: Answering) -> None:
        self.settings_owner = settings
        self.library = library
        self.chats = chats
        self.answering = answering

    @property
    def library_dir(self) -> Path:
        return self.library.library_dir

    @property
    def notices(self) -> list[str]:
        """For the user, once: e.g. a damaged index rebuilt when the library opened."""
        return self.library.notices

    @property
    def settings(self) -> Settings:
        """The current settings (read-only: change them with `apply_settings`)."""
        return self.settings_owner.current

    def apply_settings(self, settings: Settings) -> bool:
        """The one way settings change (UsageError or ModelError: nothing changes). Fields other
        than the model's apply at once; a changed model or context is checked now and loads at its
        next use (`load_model` or the next question); a model that then fails to load puts the
        previous model settings back. Listeners of `settings_owner` hear each change once.
        Returns whether a model load is pending."""
        return self.answering.model_slot.apply(settings)

    def close(self) -> None:
        self.answering.close()
        self.library.close()
