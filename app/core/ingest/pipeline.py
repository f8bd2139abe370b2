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
from app.core.ingest.page import OcrStarted, PageContent, PagePlan
from app.core.ingest.page_counter import PageCounter
from app.core.ingest.read_base import ReadOptions
from app.core.ingest.reader_version import READER_VERSION
from app.core.ingest.readers import MARKDOWN_KINDS, SECTION_KINDS, file_kind, unsupported_reason
from app.core.ingest.running import without_running_lines
from app.core.ingest.worker import ExtractionFailed, PageExtractor
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.normalize import normalize_text
from app.core.passage import ChunkDraft, with_heading
from app.core.store.library import LibraryStore
from app.core.store.records import DocumentInfo, NewChunk

EMBED_BATCH = 64
# Fewer non-space characters than this per page: no text layer (a scan with page numbers at most).
MIN_TEXT_CHARS_PER_PAGE = 3
# How many text pages one OCR'd page weighs in progress and time left: the ratio of the measured
# times of a page read by OCR and a dense text page (benchmarks/README.md, "Figures behind the
# code's constants").
OCR_PAGE_WEIGHT = 20.0


@dataclass(frozen=True)
class IngestProgress:
    """Where an ingestion run is; sent after every page and at each file's end."""

    file_index: int  # 0-based
    file_count: int
    path: str
    pages_done: int
    pages_total: int
    stage: str  # parsing | ocr (page pages_done + 1 is being recognised) | done | failed | unchanged
    ocr_pages_done: int = 0
    ocr_pages_planned: int = 0  # pages of this file expected to need OCR (no text layer)

    @property
    def file_fraction(self) -> float:
        """How far into this file, weighing a page to OCR as OCR_PAGE_WEIGHT text pages."""
        if self.stage in ("done", "failed", "unchanged"):
            return 1.0
        if self.pages_total <= 0:
            return 0.0
        planned = min(self.ocr_pages_planned, self.pages_total)
        done_ocr = min(self.ocr_pages_done, planned)
        total = self.pages_total - planned + planned * OCR_PAGE_WEIGHT
        done = (self.pages_done - done_ocr) + done_ocr * OCR_PAGE_WEIGHT
        return max(0.0, min(1.0, done / total))


@dataclass(frozen=True)
class FileResult:
    """The outcome for one input file."""

    path: str
    document: str
    status: str  # added | updated | unchanged | failed
    pages: int = 0
    chunks: int = 0
    error: str | None = None
    ocr_pages: int = 0  # pages read by OCR

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "document": self.document,
            "status": self.status,
            "pages": self.pages,
            "chunks": self.chunks,
            "error": self.error,
            "ocr_pages": self.ocr_pages,
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


def _file_identity(path: Path) -> FileResult | tuple[str, int, str]:
    """The file's kind, size and SHA-256; a failed FileResult when it cannot be read as a document."""
    name = path.name
    kind = file_kind(path)
    if not path.exists():
        return FileResult(str(path), name, "failed", error=QT_TRANSLATE_NOOP("Core", "file not found"))
    if not path.is_file():
        return FileResult(str(path), name, "failed", error=QT_TRANSLATE_NOOP("Core", "not a regular file"))
    if kind is None:
        return FileResult(str(path), name, "failed", error=unsupported_reason(path))
    try:
        size = path.stat().st_size
        digest = sha256_of(path)
    except OSError as exc:
        return FileResult(
            str(path),
            name,
            "failed",
            error=QT_TRANSLATE_NOOP("Core", "cannot read the file") + f": {exc.strerror or exc}",
        )
    return kind, size, digest


def _unchanged(path: Path, document: DocumentInfo) -> FileResult:
    return FileResult(
        str(path), document.name, "unchanged", document.pages, document.chunks, None, document.ocr_pages
    )


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
                progress(
                    IngestProgress(
                        number,
                        len(files),
                        str(path),
                        result.pages,
                        result.pages,
                        stage,
                        result.ocr_pages,
                        result.ocr_pages,
                    )
                )
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
        identity = _file_identity(path)
        if isinstance(identity, FileResult):
            return identity
        kind, size, digest = identity
        existing = self.store.document_by_path(str(path))
        if existing is not None and existing.sha256 == digest and not reread:
            return _unchanged(path, existing)
        twin = self.store.document_by_sha256(digest) if existing is None else None
        if twin is not None:  # the same bytes under another path: one document
            return _unchanged(path, twin)

        page_counter = PageCounter(markdown=kind in MARKDOWN_KINDS)
        read = self._read(path, number, total, progress, cancel, page_counter)
        pages = _counted(read, page_counter, kind == "pdf")
        batches = self._batches(pages, page_counter, kind in SECTION_KINDS)
        try:
            outcome = self.store.write_document(
                path=str(path),
                name=name,
                sha256=digest,
                kind=kind,
                size=size,
                batches=batches,
                page_count=lambda: page_counter.pages,
                layers=lambda: page_counter.layers,
                replace_same=reread,
                reader_version=READER_VERSION,
                on_commit=lambda change: apply_change(self.index, self.store, change, self.index_path),
            )
        except ExtractionFailed as exc:
            return FileResult(str(path), name, "failed", error=str(exc))
        except NoTextLayer:
            return FileResult(str(path), name, "failed", page_counter.pages, error=self._no_text_reason(kind))
        if outcome.status == "unchanged":  # the same bytes were stored meanwhile (another process)
            return _unchanged(path, outcome.document)
        doc = outcome.document
        return FileResult(
            str(path), doc.name, outcome.status, doc.pages, doc.chunks, None, page_counter.ocr_pages
        )

    def _batches(
        self, pages: Iterator[tuple[int, str]], page_counter: PageCounter, sectioned: bool
    ) -> Iterator[list[NewChunk]]:
        """The file's chunks, embedded in batches as its `pages` are read (lazily: inside the write);
        NoTextLayer when the pages held too little text."""
        settings = self.settings.current  # read per file: a change applies from the next file on
        chunker = Chunker(
            self.embedder.count_tokens,
            self.embedder.split_by_tokens,
            settings.chunk_tokens,
            settings.chunk_overlap_tokens,
            self.embedder.max_tokens - 2,
        )
        pending: list[ChunkDraft] = []
        for draft in chunk_pages(chunker, pages, separate=sectioned):
            pending.append(page_counter.locate(draft))
            if len(pending) >= EMBED_BATCH:
                yield self._embed(pending)
                pending = []
        if page_counter.text_chars < max(1, MIN_TEXT_CHARS_PER_PAGE * page_counter.pages):
            raise NoTextLayer()
        if pending:
            yield self._embed(pending)

    def _no_text_reason(self, kind: str) -> str:
        if kind != "pdf":
            return QT_TRANSLATE_NOOP("Core", "no text (empty file)")
        if not self.settings.current.ocr_enabled:
            return QT_TRANSLATE_NOOP(
                "Core", "no text layer (scanned?); turn on OCR in Settings to read scanned pages"
            )
        return QT_TRANSLATE_NOOP(
            "Core", "no text layer, and OCR found no legible text on its pages (blank or pictures only?)"
        )

    def _read(
        self,
        path: Path,
        number: int,
        total: int,
        progress: ProgressCallback | None,
        cancel: CancelToken,
        counter: PageCounter,
    ) -> Iterator[tuple[PageContent, str]]:
        options = ReadOptions(ocr=self.settings.current.ocr_enabled)
        for event in self.extractor.pages(path, options, cancel):
            cancel.raise_if_cancelled()
            if isinstance(event, PagePlan):
                counter.ocr_planned = len(event.ocr_pages)
                continue
            if isinstance(event, OcrStarted):
                if progress:
                    progress(_progress(counter, number, total, path, event.number - 1, event.count, "ocr"))
                continue
            text = event.text if event.normalized else normalize_text(event.text)
            if progress:
                progress(_progress(counter, number, total, path, event.number, event.count, "parsing"))
            yield event, text

    def _embed(self, drafts: list[ChunkDraft]) -> list[NewChunk]:
        matrix = self.embedder.embed([with_heading(d.heading, d.text) for d in drafts])
        return [NewChunk(d, matrix[i]) for i, d in enumerate(drafts)]


def _counted(
    read: Iterator[tuple[PageContent, str]], counter: PageCounter, paged: bool
) -> Iterator[tuple[int, str]]:
    """The file's (page number, normalised text) pairs as it is `read`, each counted; with `paged`
    (a PDF) its running headers and footers are left out of the text and its header's words lead
    the passages' heading path instead (running.py)."""
    pages = without_running_lines(read) if paged else ((page, text, "") for page, text in read)
    for page, text, title in pages:
        counter.add(page, text, title)
        yield page.number, text


def _progress(
    counter: PageCounter, number: int, total: int, path: Path, done: int, count: int, stage: str
) -> IngestProgress:
    return IngestProgress(
        number, total, str(path), done, count, stage, counter.ocr_pages, counter.ocr_planned
    )
