"""The front ends' one public module: the facade's protocol and every type the GUI and CLI use."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from app.core.answering.presentation.verdict_text import count_words, verdict_line, verdict_words
from app.core.cancel import CancelToken
from app.core.config import (
    CITE_MODES,
    KV_CACHE_TYPES,
    MODEL_FIELDS,
    Settings,
    SettingsOwner,
    load_settings,
    save_settings,
)
from app.core.embed.reindex import ReindexAdvice
from app.core.errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Cancelled, FolioError, ModelError, UsageError
from app.core.formats import FORMATS, all_patterns, format_names, name_patterns
from app.core.generate.catalog import by_file, chat_models, default_model
from app.core.generate.kv_cache import format_bytes
from app.core.generate.model import ModelInfo
from app.core.ingest.readers import SECTION_KINDS
from app.core.ingest.reread import RereadAdvice
from app.core.messages import CONTEXT as CORE_CONTEXT
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.passage import Citation, Hit, SearchResult, shown_heading
from app.core.server_key import load_server_key, save_server_key
from app.core.ui_text import (
    CLI_TEXT,
    SOURCE_LANGUAGE,
    chosen_language,
    error_message,
    message_text,
    translate,
    translations_dir,
)

if TYPE_CHECKING:  # loaded at first use (__getattr__ below): numpy, SQLAlchemy, FAISS stay unloaded
    from app.core.answering.evidence.locate import LocatedSentence
    from app.core.answering.judge.checks import SentenceCheck
    from app.core.answering.presentation.export import EXPORT_FORMATS, SUFFIXES, check_format, render_answer
    from app.core.answering.presentation.export_rows import bound_sentence
    from app.core.answering.types import (
        Answer,
        AnswerEvent,
        AskOptions,
        Delta,
        Finished,
        Located,
        Metrics,
        Progress,
        Replaced,
        Retrieved,
    )
    from app.core.embed.engine import is_model_folder
    from app.core.generate.found_models import ModelFolder, ModelScan, SkippedFile, app_folders, find_models
    from app.core.generate.model_facts import FoundModel
    from app.core.generate.remote import list_server_models
    from app.core.ingest.folder_scan import FolderScan, FolderState, folder_states, offline_reason, recount
    from app.core.ingest.pipeline import FileResult, IngestProgress, IngestReport, ProgressCallback
    from app.core.prompt.citations import marker_numbers
    from app.core.store.conversations import ChatSummary
    from app.core.store.folders import FolderInfo
    from app.core.store.layers import PageLayerInfo
    from app.core.store.records import DocumentInfo
    from app.core.store.swap import reindex_folder, replace_library

_LAZY = {
    "SentenceCheck": "app.core.answering.judge.checks",
    **{
        name: "app.core.answering.presentation.export"
        for name in ("EXPORT_FORMATS", "SUFFIXES", "check_format", "render_answer")
    },
    "bound_sentence": "app.core.answering.presentation.export_rows",
    "LocatedSentence": "app.core.answering.evidence.locate",
    **{
        name: "app.core.answering.types"
        for name in (
            "Answer",
            "AnswerEvent",
            "AskOptions",
            "Delta",
            "Finished",
            "Located",
            "Metrics",
            "Progress",
            "Replaced",
            "Retrieved",
        )
    },
    **{
        name: "app.core.ingest.pipeline"
        for name in ("FileResult", "IngestProgress", "IngestReport", "ProgressCallback")
    },
    **{
        name: "app.core.ingest.folder_scan"
        for name in ("FolderScan", "FolderState", "folder_states", "offline_reason", "recount")
    },
    "FolderInfo": "app.core.store.folders",
    "marker_numbers": "app.core.prompt.citations",
    "ChatSummary": "app.core.store.conversations",
    "PageLayerInfo": "app.core.store.layers",
    "DocumentInfo": "app.core.store.records",
    "is_model_folder": "app.core.embed.engine",
    **{
        name: "app.core.generate.found_models"
        for name in ("ModelFolder", "ModelScan", "SkippedFile", "app_folders", "find_models")
    },
    "FoundModel": "app.core.generate.model_facts",
    "list_server_models": "app.core.generate.remote",  # imports the llama.cpp engine module
    "reindex_folder": "app.core.store.swap",
    "replace_library": "app.core.store.swap",
}


def __getattr__(name: str) -> Any:
    """The heavier modules' names on first use, so importing this module stays light."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LibraryApi(Protocol):
    """What the window uses of the library facade (`app.core.facade.library.Library`)."""

    def warm_up(self) -> None: ...

    def documents(self) -> list[DocumentInfo]: ...

    def page_layer(self, path: str, page: int) -> PageLayerInfo | None: ...

    def ingest(
        self,
        paths: Sequence[Path],
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport: ...

    def reindex(
        self,
        *documents: str | int,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport: ...

    def reindex_advice(self) -> ReindexAdvice | None: ...

    def reread_advice(self) -> RereadAdvice | None: ...

    def reindex_library(
        self,
        into: Path,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport: ...

    def remove(self, document: str | int) -> DocumentInfo: ...

    def watched_folders(self) -> list[FolderInfo]: ...

    def watch_folder(self, folder: Path) -> FolderInfo: ...

    def unwatch_folder(self, folder: str) -> bool: ...

    def scan_folder(self, folder: str) -> FolderScan: ...


class ChatsApi(Protocol):
    """What the window uses of the chats facade (`app.core.facade.chats.Chats`)."""

    def summaries(self) -> list[ChatSummary]: ...

    def answers(self, chat_id: int) -> list[Answer]: ...

    def delete(self, chat_id: int) -> None: ...

    def export(
        self, chat_id: int, fmt: str = "md", translate: Callable[[str, str], str] | None = None
    ) -> str: ...


class AnsweringApi(Protocol):
    """What the window uses of the answering facade (`app.core.facade.answering.Answering`)."""

    def load_model(self) -> ModelInfo: ...

    def ask_stream(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterator[AnswerEvent]: ...


class FolioApi(Protocol):
    """What the window uses of `app.core.qa.Folio`: its three facades and the settings they share.
    The GUI's test fake implements it too, so mypy catches a fake that drifts from the real thing."""

    @property
    def library(self) -> LibraryApi: ...

    @property
    def chats(self) -> ChatsApi: ...

    @property
    def answering(self) -> AnsweringApi: ...

    @property
    def library_dir(self) -> Path: ...

    @property
    def notices(self) -> list[str]: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def settings_owner(self) -> SettingsOwner: ...

    def apply_settings(self, settings: Settings) -> bool: ...

    def close(self) -> None: ...


__all__ = [
    "CITE_MODES",
    "CLI_TEXT",
    "CORE_CONTEXT",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "EXPORT_FORMATS",
    "FORMATS",
    "KV_CACHE_TYPES",
    "MODEL_FIELDS",
    "QT_TRANSLATE_NOOP",
    "SECTION_KINDS",
    "SOURCE_LANGUAGE",
    "SUFFIXES",
    "Answer",
    "AnswerEvent",
    "AnsweringApi",
    "AskOptions",
    "CancelToken",
    "Cancelled",
    "ChatSummary",
    "ChatsApi",
    "Citation",
    "Delta",
    "DocumentInfo",
    "FileResult",
    "Finished",
    "FolderInfo",
    "FolderScan",
    "FolderState",
    "FolioApi",
    "FolioError",
    "FoundModel",
    "Hit",
    "IngestProgress",
    "IngestReport",
    "LibraryApi",
    "Located",
    "LocatedSentence",
    "Metrics",
    "ModelError",
    "ModelFolder",
    "ModelInfo",
    "ModelScan",
    "PageLayerInfo",
    "Progress",
    "ProgressCallback",
    "ReindexAdvice",
    "Replaced",
    "RereadAdvice",
    "Retrieved",
    "SearchResult",
    "SentenceCheck",
    "Settings",
    "SettingsOwner",
    "SkippedFile",
    "UsageError",
    "all_patterns",
    "app_folders",
    "bound_sentence",
    "by_file",
    "chat_models",
    "check_format",
    "chosen_language",
    "count_words",
    "default_model",
    "error_message",
    "find_models",
    "folder_states",
    "format_bytes",
    "format_names",
    "is_model_folder",
    "list_server_models",
    "load_server_key",
    "load_settings",
    "marker_numbers",
    "message_text",
    "name_patterns",
    "offline_reason",
    "recount",
    "reindex_folder",
    "render_answer",
    "replace_library",
    "save_server_key",
    "save_settings",
    "shown_heading",
    "translate",
    "translations_dir",
    "verdict_line",
    "verdict_words",
]
