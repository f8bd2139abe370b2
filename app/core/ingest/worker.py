"""Extract pages in a separate process with a time limit and a memory cap per file.

A hang, a memory blow-up or a crash inside a parser or the OCR engine kills only the worker: the
file fails with a reason and the next file gets a fresh worker. OCR'd pages get their own time
limit each, on top of the file's.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import Any

from app.core.cancel import CancelToken
from app.core.ingest.page import OcrStarted, PageContent, ReadEvent
from app.core.ingest.read_base import ReadOptions, UnreadableFile
from app.core.ingest.readers import file_kind, kind_label, read_pages

POLL_SECONDS = 0.2  # how often a wait for the worker looks at the cancel token


@dataclass(frozen=True)
class ExtractLimits:
    """Per-file limits: seconds = base + per MiB of file size, plus `ocr_seconds_per_page` for
    each page recognised (and no single page may take longer); memory cap of the worker."""

    base_seconds: float = 60.0
    seconds_per_mib: float = 15.0
    ocr_seconds_per_page: float = 300.0  # ~5x a dense page on 2 busy cores (benchmarks/README.md)
    memory_bytes: int = 3 * 1024**3

    def seconds_for(self, size: int) -> float:
        return self.base_seconds + self.seconds_per_mib * size / 1024**2


def _cap_memory(limit: int) -> None:
    if sys.platform.startswith("linux") or sys.platform == "darwin":
        import resource

        # A platform may refuse an address-space cap; the time limit still applies.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(conn: multiprocessing.connection.Connection, memory_bytes: int) -> None:
    """Worker main loop: for each (path, options) received, stream ("event", ReadEvent)... then
    ("done",), or ("failed", reason)."""
    _cap_memory(memory_bytes)
    # pypdf logs every odd font it meets; the per-file outcome is what the user needs.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        if request is None:
            return
        path, options = Path(request[0]), request[1]
        label = kind_label(file_kind(path))
        try:
            for event in read_pages(path, options):
                conn.send(("event", event))
            conn.send(("done",))
        except UnreadableFile as exc:
            conn.send(("failed", str(exc)))
        except MemoryError:
            conn.send(("failed", f"not a readable {label}: parsing it needs too much memory"))
        except RecursionError:
            conn.send(("failed", f"not a readable {label}: its structure is too deeply nested"))
        except Exception as exc:  # a parser bug on a malformed file: that file fails, the worker lives
            reason = _ocr_unavailable(exc) or f"not a readable {label}: {type(exc).__name__}: {exc}"
            conn.send(("failed", reason[:300]))


def _ocr_unavailable(exc: Exception) -> str | None:
    from app.core.ingest.ocr import OcrUnavailable

    return f"it needs OCR, which cannot run: {exc}" if isinstance(exc, OcrUnavailable) else None


class ExtractionFailed(Exception):
    """The file could not be read; the message is the user-facing reason."""


class PageExtractor:
    """Owns one worker process, restarted after a timeout or a crash. Not thread-safe: one
    ingestion at a time uses it."""

    def __init__(self, limits: ExtractLimits | None = None) -> None:
        self.limits = limits or ExtractLimits()
        self._process: SpawnProcess | None = None
        self._conn: multiprocessing.connection.Connection | None = None

    def _start(self) -> tuple[SpawnProcess, multiprocessing.connection.Connection]:
        if self._process is None or not self._process.is_alive() or self._conn is None:
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe(duplex=True)
            process = context.Process(
                target=_serve, args=(child, self.limits.memory_bytes), daemon=True, name="folio-extract"
            )
            process.start()
            child.close()
            self._process, self._conn = process, parent
        return self._process, self._conn

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join(5)
        if self._conn is not None:
            self._conn.close()
        self._process, self._conn = None, None

    def _wait(self, conn: multiprocessing.connection.Connection, seconds: float, cancel: CancelToken) -> bool:
        """Wait up to `seconds` for a message, looking at the cancel token meanwhile."""
        deadline = time.monotonic() + max(seconds, 0.0)
        while True:
            cancel.raise_if_cancelled()
            left = deadline - time.monotonic()
            if conn.poll(max(0.0, min(POLL_SECONDS, left))):
                return True
            if left <= 0:
                return False

    def pages(
        self, path: Path, options: ReadOptions | None = None, cancel: CancelToken | None = None
    ) -> Iterator[ReadEvent]:
        """Yield the reader's events (PageContent, and for PDFs with OCR, PagePlan and OcrStarted).
        Time spent by the caller between events does not count against the limit; only waiting
        for the worker does. A cancel stops the worker at once (raises Cancelled)."""
        cancel = cancel or CancelToken()
        label = kind_label(file_kind(path))
        budget = self.limits.seconds_for(path.stat().st_size)
        process, conn = self._start()
        conn.send((str(path), options or ReadOptions()))
        finished = False
        ocr_page: int | None = None
        try:
            while True:
                waited = time.monotonic()
                allowed = budget if ocr_page is None else min(budget, self.limits.ocr_seconds_per_page)
                if not self._wait(conn, allowed, cancel):
                    self._kill()
                    if ocr_page is not None:
                        limit = self.limits.ocr_seconds_per_page
                        raise ExtractionFailed(f"OCR of page {ocr_page} took longer than {limit:.0f} s")
                    limit = self.limits.seconds_for(path.stat().st_size)
                    raise ExtractionFailed(
                        f"not a readable {label}: reading it took longer than {limit:.0f} s"
                    )
                budget -= time.monotonic() - waited
                try:
                    message: tuple[Any, ...] = conn.recv()
                except (EOFError, OSError) as exc:
                    code = process.exitcode
                    self._kill()
                    raise ExtractionFailed(
                        f"not a readable {label}: the reader crashed (exit code {code})"
                    ) from exc
                if message[0] == "event":
                    event: ReadEvent = message[1]
                    if isinstance(event, OcrStarted):
                        ocr_page = event.number
                        budget += self.limits.ocr_seconds_per_page
                    elif isinstance(event, PageContent):
                        ocr_page = None
                    yield event
                elif message[0] == "done":
                    finished = True
                    return
                else:
                    finished = True
                    raise ExtractionFailed(str(message[1]))
        finally:
            if not finished:
                # The caller stopped early (cancel, error) or the worker failed: its pipe may still
                # hold pages of this file, so it cannot serve the next one.
                self._kill()

    def close(self) -> None:
        if self._conn is not None and self._process is not None and self._process.is_alive():
            with contextlib.suppress(OSError):
                self._conn.send(None)
            self._process.join(2)
        self._kill()
