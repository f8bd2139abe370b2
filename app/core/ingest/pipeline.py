"""Ingest files into the library: hash, extract pages, normalise, chunk, embed, store, index."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.core.cancel import CancelToken
from app.core.config import SettingsOwner
from app.core.embed.embedder import Embedder
from app.core.errors import Cancelled
from app.core.index.sync import apply_change
from app.core.index.vector_index import VectorIndex
from app.core.ingest.chunker import Chunker, chunk_pages
from app.core.ingest.normalize import normalize_text
from app.core.ingest.readers import file_kind
from app.core.ingest.worker import ExtractionFailed, PageExtractor
from app.core.passage import ChunkDraft
from app.core.store.library import LibraryStore, NewChunk

EMBED_BATCH = 64
# Fewer non-space characters than this per page: no text layer (a scan with page numbers at most).
MIN_TEXT_CHARS_PER_PAGE = 3


@dataclass(frozen=True)
class IngestProgress:
    """Where an ingestion run is; sent after every page and at each file's end."""

    file_index: int  # 0-based
    file_count: int
    path: str
    pages_done: int
    pages_total: int
    stage: str  # parsing | done | failed | unchanged


@dataclass(frozen=True)
class FileResult:
    """The outcome for one input file."""

    path: str
    document: str
    status: str  # added | updated | unchanged | failed
    pages: int = 0
    chunks: int = 0
    error: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "document": self.document,
            "status": self.status,
            "pages": self.pages,
            "chunks": self.chunks,
            "error": self.error,
        }


@dataclass
class IngestReport:
    """All files of one run; `cancelled` when the user stopped it (the current file rolled back)."""

    files: list[FileResult] = field(default_factory=list)
    elapsed_ms: float = 0.0
    cancelled: bool = False

    @property
    def failed(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "failed"]

    def to_json(self) -> dict[str, object]:
        return {
            "files": [f.to_json() for f in self.files],
            "elapsed_ms": round(self.elapsed_ms, 1),
            "cancelled": self.cancelled,
        }


ProgressCallback = Callable[[IngestProgress], None]


def collect_files(paths: Sequence[Path]) -> list[Path]:
    """Files named directly, plus supported files found recursively in folders (hidden skipped)."""
    found: list[Path] = []
    for path in paths:
        path = path.expanduser()
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                relative = child.relative_to(path).parts
                if child.is_file() and file_kind(child) and not any(p.startswith(".") for p in relative):
                    found.append(child.resolve())
        else:
            found.append(path.resolve() if path.exists() else path.absolute())
    unique: dict[str, Path] = {}
    for item in found:
        unique.setdefault(str(item), item)
    return list(unique.values())


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class NoTextLayer(Exception):
    """The file has pages but (almost) no extractable text."""


class Ingester:
    """Runs ingestion for one library; one run at a time (the store's write lock)."""

    def __init__(
        self,
        store: LibraryStore,
        index: VectorIndex,
        index_path: Path,
        embedder: Embedder,
        settings: SettingsOwner,
    ) -> None:
        self.store = store
        self.index = index
        self.index_path = index_path
        self.embedder = embedder
        self.settings = settings
        self.extractor = PageExtractor()

    def close(self) -> None:
        self.extractor.close()

    def ingest(
        self,
        paths: Sequence[Path],
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        reread: bool = False,
    ) -> IngestReport:
        """Ingest files and folders; `reread` reads files again even when their bytes are stored
        (a re-index: the old version stays searchable until the new one is committed)."""
        started = time.perf_counter()
        cancel = cancel or CancelToken()
        files = collect_files(paths)
        report = IngestReport()
        for number, path in enumerate(files):
            if cancel.cancelled:
                report.cancelled = True
                break
            try:
                result = self._ingest_one(path, number, len(files), progress, cancel, reread)
            except Cancelled:
                report.cancelled = True
                break
            report.files.append(result)
            if progress:
                stage = result.status if result.status in ("failed", "unchanged") else "done"
                progress(IngestProgress(number, len(files), str(path), result.pages, result.pages, stage))
        report.elapsed_ms = (time.perf_counter() - started) * 1000
        return report

    def _ingest_one(
        self,
        path: Path,
        number: int,
        total: int,
        progress: ProgressCallback | None,
        cancel: CancelToken,
        reread: bool = False,
    ) -> FileResult:
        name = path.name
        kind = file_kind(path)
        if not path.exists():
            return FileResult(str(path), name, "failed", error="file not found")
        if not path.is_file():
            return FileResult(str(path), name, "failed", error="not a regular file")
        if kind is None:
            return FileResult(str(path), name, "failed", error="unsupported file type")
        try:
            size = path.stat().st_size
            digest = sha256_of(path)
        except OSError as exc:
            return FileResult(str(path), name, "failed", error=f"cannot read the file: {exc.strerror or exc}")
        existing = self.store.document_by_path(str(path))
        if existing is not None and existing.sha256 == digest and not reread:
            return FileResult(str(path), existing.name, "unchanged", existing.pages, existing.chunks)
        twin = self.store.document_by_sha256(digest) if existing is None else None
        if twin is not None:  # the same bytes under another path: one document
            return FileResult(str(path), twin.name, "unchanged", twin.pages, twin.chunks)

        page_counter = _PageCounter()

        def batches() -> Iterator[list[NewChunk]]:
            pages = self._pages(path, number, total, progress, cancel, page_counter)
            settings = self.settings.current  # read per file: a change applies from the next file on
            chunker = Chunker(
                self.embedder.count_tokens,
                self.embedder.split_by_tokens,
                settings.chunk_tokens,
                settings.chunk_overlap_tokens,
                self.embedder.max_tokens - 2,
            )
            pending: list[ChunkDraft] = []
            for draft in chunk_pages(chunker, pages):
                pending.append(draft)
                if len(pending) >= EMBED_BATCH:
                    yield self._embed(pending)
                    pending = []
            if page_counter.text_chars < max(1, MIN_TEXT_CHARS_PER_PAGE * page_counter.pages):
                raise NoTextLayer()
            if pending:
                yield self._embed(pending)

        try:
            outcome = self.store.write_document(
                path=str(path),
                name=name,
                sha256=digest,
                kind=kind,
                size=size,
                batches=batches(),
                page_count=lambda: page_counter.pages,
                replace_same=reread,
                on_commit=lambda change: apply_change(self.index, self.store, change, self.index_path),
            )
        except ExtractionFailed as exc:
            return FileResult(str(path), name, "failed", error=str(exc))
        except NoTextLayer:
            reason = "no text layer (scanned?)" if kind == "pdf" else "no text (empty file)"
            return FileResult(str(path), name, "failed", page_counter.pages, error=reason)
        doc = outcome.document
        return FileResult(str(path), doc.name, outcome.status, doc.pages, doc.chunks)

    def _pages(
        self,
        path: Path,
        number: int,
        total: int,
        progress: ProgressCallback | None,
        cancel: CancelToken,
        counter: _PageCounter,
    ) -> Iterator[tuple[int, str]]:
        for page, count, raw in self.extractor.pages(path, cancel):
            cancel.raise_if_cancelled()
            text = normalize_text(raw)
            counter.pages = count
            counter.text_chars += len(text.replace(" ", ""))
            if progress:
                progress(IngestProgress(number, total, str(path), page, count, "parsing"))
            yield page, text

    def _embed(self, drafts: list[ChunkDraft]) -> list[NewChunk]:
        matrix = self.embedder.embed([d.text for d in drafts])
        return [NewChunk(d, matrix[i]) for i, d in enumerate(drafts)]


class _PageCounter:
    """Pages and characters seen while streaming a file."""

    def __init__(self) -> None:
        self.pages = 0
        self.text_chars = 0
