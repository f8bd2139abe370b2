"""Small fakes of the facade, for GUI wiring tests only (real components everywhere else)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.answering.evidence.locate import locate
from app.core.answering.types import (
    Answer,
    AnswerEvent,
    AnswerMetrics,
    AskOptions,
    Delta,
    Finished,
    Located,
    Progress,
    Retrieved,
)
from app.core.cancel import CancelToken
from app.core.config import Settings, SettingsOwner
from app.core.embed.reindex import ReindexAdvice
from app.core.errors import ModelError
from app.core.generate.model import ModelInfo, Sampling
from app.core.ingest.folder_scan import FolderScan
from app.core.ingest.pipeline import FileResult, IngestProgress, IngestReport, ProgressCallback
from app.core.ingest.reread import RereadAdvice
from app.core.passage import Citation, Hit
from app.core.prompt.budget import Budget
from app.core.store.conversations import ChatSummary
from app.core.store.folders import FolderInfo
from app.core.store.layers import PageLayerInfo
from app.core.store.records import DocumentInfo

if TYPE_CHECKING:
    from app.core.api import FolioApi


def fake_answer(
    text: str, finish_reason: str, chat_id: int | None = 1, citations: list[Citation] | None = None
) -> Answer:
    """A finished Answer with the figures the GUI shows (a real Answer: the GUI reads it typed)."""
    budget = Budget(
        n_ctx=4096,
        answer_reserve=512,
        limit_tokens=3584,
        ttft_limit_tokens=None,
        prompt_tokens=1032,
        system_tokens=120,
        passages_tokens=900,
        question_tokens=12,
    )
    return Answer(
        question="",
        answer=text,
        thinking="",
        citations=citations or [],
        invalid_citations=[],
        finish_reason=finish_reason,
        model="fake.gguf",
        budget=budget,
        metrics=AnswerMetrics(ttft_ms=120.0, tokens_per_s=50.0, completion_tokens=3),
        spans={"queue": 1.0, "retrieve": 20.0, "prefill": 100.0, "decode": 300.0},
        grounded=True,
        sampling=Sampling(),
        chat_id=chat_id,
    )


class FakeAnswerer:
    """Streams `tokens` (one Delta each); records every request; honours the cancel token."""

    def __init__(
        self,
        tokens: list[str],
        supports_thinking: bool = True,
        pause_s: float = 0.0,
        hits: list[Hit] | None = None,
        steps: list[Progress] | None = None,
    ) -> None:
        self.tokens = tokens
        self.hits = hits or []
        self.steps = steps or []  # a whole-document answer's steps, one before each token
        self.supports_thinking = supports_thinking
        self.pause_s = pause_s
        self.requests: list[tuple[str, AskOptions, int | None]] = []
        self.started = threading.Event()
        self.settings_seen: list[Settings] = []
        self.citations: list[Citation] = []  # the finished answers' citations
        self.finish_reason = "stop"  # how each answer that is not cancelled finishes

    def load_model(self) -> ModelInfo:
        reason = "" if self.supports_thinking else "the model's chat template has no thinking switch"
        return ModelInfo(
            "fake.gguf", "/models/fake.gguf", 4096, 8192, self.supports_thinking, reason, "gguf", 2
        )

    def check_settings(self, settings: Settings) -> None:
        if settings.model_path and not Path(settings.model_path).is_file():
            raise ModelError(f"model file not found: {settings.model_path}")
        self.settings_seen.append(settings)

    def ask_stream(
        self, question: str, options: AskOptions | None, chat_id: int | None, cancel: CancelToken | None
    ) -> Iterator[AnswerEvent]:
        options = options or AskOptions()
        self.requests.append((question, options, chat_id))
        cancel = cancel or CancelToken()
        yield Retrieved(self.hits, 1.0)
        if self.hits:  # Folio's located sentences come before the first token
            yield Located(locate(question, self.hits, None, None), 2.0)
        self.started.set()
        text: list[str] = []
        for index, token in enumerate(self.tokens):
            if cancel.cancelled:
                yield Finished(fake_answer("".join(text), "cancelled"))
                return
            if index < len(self.steps):
                yield self.steps[index]
            if self.pause_s:
                time.sleep(self.pause_s)
            text.append(token)
            yield Delta(token, "answer", 1)
        yield Finished(
            replace(
                fake_answer("".join(text), self.finish_reason, citations=self.citations), question=question
            )
        )

    def chats(self) -> list[ChatSummary]:
        now = datetime.now(UTC)
        return [ChatSummary(1, "first chat", now, now, 2)] if self.requests else []

    def close(self) -> None:
        pass


class FakeFolio:
    """The facades' surface the GUI uses, over a FakeAnswerer; ingestion reports every file added.
    One object plays the library, the chats and the answering facade, so that a test reads what
    the window asked of any of them in one place."""

    def __init__(self, settings: Settings, library_dir: Path, answerer: FakeAnswerer) -> None:
        self.settings_owner = SettingsOwner(settings)
        self.library_dir = library_dir
        self.answerer = answerer
        self.closed = False
        self.removed: list[int | str] = []
        self.exported: list[tuple[int, str]] = []  # (chat, format) of each export call
        self.exported_on_gui_thread: list[bool] = []
        self.notices: list[str] = []
        self.advice: ReindexAdvice | None = None  # what reindex_advice says
        self.reread_advised: RereadAdvice | None = None  # what reread_advice says
        self.reread: list[tuple[str | int, ...]] = []  # the documents of each reindex call
        self.reindex_documents = ["a.pdf", "b.pdf"]
        self.reindex_gate = threading.Event()
        self.reindex_gate.set()

    @property
    def library(self) -> FakeFolio:
        return self

    @property
    def chats(self) -> FakeFolio:
        return self

    @property
    def answering(self) -> FakeFolio:
        return self

    @property
    def settings(self) -> Settings:
        return self.settings_owner.current

    def apply_settings(self, settings: Settings) -> bool:
        """As Folio's: the rest applies when the model file fails its check, and the error is raised."""
        try:
            self.answerer.check_settings(settings)
        except ModelError:
            self.settings_owner.update(settings.replace(model_path=self.settings.model_path))
            raise
        self.settings_owner.update(settings)
        return False

    def load_model(self) -> ModelInfo:
        return self.answerer.load_model()

    def ask_stream(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterator[AnswerEvent]:
        return self.answerer.ask_stream(question, options, chat_id, cancel)

    def summaries(self) -> list[ChatSummary]:
        return self.answerer.chats()

    def answers(self, chat_id: int) -> list[Answer]:
        return []

    def delete(self, chat_id: int) -> None:
        pass

    def export(
        self, chat_id: int, fmt: str = "md", translate: Callable[[str, str], str] | None = None
    ) -> str:
        """The real renderer over this fake's chat; the request is recorded."""
        from app.core.answering.presentation.export import render_chat
        from app.core.answering.presentation.export_rows import as_written

        self.exported.append((chat_id, fmt))
        self.exported_on_gui_thread.append(threading.current_thread() is threading.main_thread())
        return render_chat(f"chat {chat_id}", self.answers(chat_id), fmt, translate or as_written)

    def page_layer(self, path: str, page: int) -> PageLayerInfo | None:
        return None  # no OCR'd pages or sections in the fake library

    def warm_up(self) -> None:
        pass

    def documents(self) -> list[DocumentInfo]:
        return []

    def ingest(
        self,
        paths: Sequence[Path],
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport:
        return IngestReport([FileResult(str(p), p.name, "added", 1, 1) for p in paths], 1.0)

    def reindex(
        self,
        *documents: str | int,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport:
        self.reread.append(documents)
        return IngestReport([FileResult(str(d), str(d), "updated", 1, 1) for d in documents], 1.0)

    def reindex_advice(self) -> ReindexAdvice | None:
        return self.advice

    def reread_advice(self) -> RereadAdvice | None:
        return self.reread_advised

    def reindex_library(
        self,
        into: Path,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> IngestReport:
        """As Folio's: each document read again into `into` (a folder with one file, here), progress
        after each, a cancel between them; `reindex_gate` holds it until the test says go."""
        into.mkdir(parents=True)
        (into / "reindexed").write_text("new", encoding="utf-8")
        files: list[FileResult] = []
        for index, name in enumerate(self.reindex_documents):
            self.reindex_gate.wait(10)
            if cancel is not None and cancel.cancelled:
                return IngestReport(files, 1.0, cancelled=True)
            files.append(FileResult(name, name, "added", 10, 10))
            if progress is not None:
                progress(IngestProgress(index, len(self.reindex_documents), name, 10, 10, "done"))
        return IngestReport(files, 1.0)

    def remove(self, document: str | int) -> DocumentInfo:
        self.removed.append(document)
        now = datetime.now(UTC)
        return DocumentInfo(0, str(document), str(document), "pdf", 1, 1, 1, "ready", "", now, now)

    def watched_folders(self) -> list[FolderInfo]:
        return []  # the fake library watches no folder

    def watch_folder(self, folder: Path) -> FolderInfo:
        return FolderInfo(1, str(folder), datetime.now(UTC))

    def unwatch_folder(self, folder: str) -> bool:
        return False

    def scan_folder(self, folder: str) -> FolderScan:
        return FolderScan(folder)

    def close(self) -> None:
        self.closed = True


def fake_factory(answerer: FakeAnswerer) -> Callable[[Settings, Path], FolioApi]:
    def factory(settings: Settings, library_dir: Path) -> FolioApi:
        return FakeFolio(settings, library_dir, answerer)  # mypy checks it against the facade

    return factory
