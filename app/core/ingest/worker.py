"""Extract page texts in a separate process with a time limit and a memory cap per file.

A hang, a memory blow-up or a crash inside the PDF parser kills only the worker: the file fails
with a reason and the next file gets a fresh worker.
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
from app.core.ingest.readers import UnreadableFile, read_pages

CANCEL_POLL_SECONDS = 0.1  # how often a wait for the worker looks at the cancel token


@dataclass(frozen=True)
class ExtractLimits:
    """Per-file limits: seconds = base + per MiB of file size; memory cap of the worker."""

    base_seconds: float = 60.0
    seconds_per_mib: float = 15.0
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
    """Worker main loop: for each path received, stream ("page", n, count, text) then ("done",)."""
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
        try:
            for number, count, text in read_pages(Path(request)):
                conn.send(("page", number, count, text))
            conn.send(("done",))
        except UnreadableFile as exc:
            conn.send(("failed", str(exc)))
        except MemoryError:
            conn.send(("failed", "not a readable PDF: parsing it needs too much memory"))
        except RecursionError:
            conn.send(("failed", "not a readable PDF: its structure is too deeply nested"))
        except Exception as exc:  # a parser bug on a malformed file: that file fails, the worker lives
            conn.send(("failed", f"not a readable file: {type(exc).__name__}: {exc}"[:300]))


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

    def pages(self, path: Path, cancel: CancelToken | None = None) -> Iterator[tuple[int, int, str]]:
        """Yield (page, page count, raw text). Time spent by the caller between pages does not
        count against the limit; only waiting for the worker does. A set `cancel` ends a wait
        within CANCEL_POLL_SECONDS (Cancelled; the worker is stopped)."""
        budget = self.limits.seconds_for(path.stat().st_size)
        process, conn = self._start()
        conn.send(str(path))
        finished = False
        try:
            while True:
                waited = time.monotonic()
                ready = False
                while not ready:
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    left = budget - (time.monotonic() - waited)
                    if left <= 0:
                        break
                    ready = conn.poll(min(left, CANCEL_POLL_SECONDS) if cancel is not None else left)
                if not ready:
                    self._kill()
                    limit = self.limits.seconds_for(path.stat().st_size)
                    raise ExtractionFailed(f"not a readable PDF: reading it took longer than {limit:.0f} s")
                budget -= time.monotonic() - waited
                try:
                    message: tuple[Any, ...] = conn.recv()
                except (EOFError, OSError) as exc:
                    code = process.exitcode
                    self._kill()
                    raise ExtractionFailed(
                        f"not a readable PDF: the reader crashed (exit code {code})"
                    ) from exc
                if message[0] == "page":
                    yield int(message[1]), int(message[2]), str(message[3])
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
