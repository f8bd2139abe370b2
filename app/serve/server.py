"""`folio serve`: keep the embedder, the index and the model loaded, and run `folio` calls sent over
the library's Unix socket, one at a time, with the same output and exit codes as in-process."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import signal
import socket
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from app.core.config import load_settings
from app.core.errors import FolioError, UsageError
from app.serve.protocol import encode, read_line, shared_env, socket_path, usable_socket_path

if TYPE_CHECKING:
    from app.core.embed.embedder import Embedder
    from app.core.qa import Folio

CommandRunner = Callable[[list[str], "Folio"], int]
FORWARDED_COMMANDS = frozenset({"ingest", "search", "documents", "remove", "reread", "verify", "ask"})


class _FrameStream(io.TextIOBase):
    """A text stream whose writes go to the client as frames of one stream ("out" or "err")."""

    def __init__(self, conn: socket.socket, stream: str) -> None:
        self._conn = conn
        self._stream = stream

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self._conn.sendall(encode({"stream": self._stream, "text": text}))
        return len(text)

    def isatty(self) -> bool:
        return False


class _CurrentStderr(io.TextIOBase):
    """Logging's stream: whatever sys.stderr is when a record is written (the current client)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return sys.stderr.write(text)


class _Library:
    """The served library's Folio, rebuilt when the settings file or the library changed under it
    (another process ingested, the GUI changed a setting); the embedder is kept across rebuilds."""

    def __init__(self, library_dir: Path) -> None:
        self.library_dir = library_dir
        self.folio: Folio | None = None
        self._embedders: dict[tuple[Path, str], Embedder] = {}  # kept loaded across rebuilds
        self._signature: tuple[tuple[int, int], ...] | None = None

    def _library_signature(self) -> tuple[tuple[int, int], ...]:
        from app.core.index.vector_index import INDEX_FILE
        from app.core.store.database import STORE_FILE

        signature = []
        for name in (STORE_FILE, STORE_FILE + "-wal", INDEX_FILE):
            try:
                stat = (self.library_dir / name).stat()
                signature.append((stat.st_mtime_ns, stat.st_size))
            except OSError:
                signature.append((0, -1))
        return tuple(signature)

    def current(self) -> Folio:
        from app.core.embed.embedder import Embedder
        from app.core.services import build_services

        settings = load_settings()
        changed_outside = self._signature is not None and self._library_signature() != self._signature
        if self.folio is None or settings != self.folio.settings or changed_outside:

            def embedder_for(folder: Path) -> Embedder:
                key = (folder.resolve(), settings.embed_precision)
                if key not in self._embedders:
                    self._embedders = {key: Embedder(folder, precision=settings.embed_precision)}
                return self._embedders[key]

            self.close()
            self.folio = build_services(settings, self.library_dir, embedder_for=embedder_for)
        return self.folio

    def note_done(self) -> None:
        """Remember the library as this call left it: a later difference came from outside."""
        self._signature = self._library_signature()

    def close(self) -> None:
        if self.folio is not None:
            self.folio.close()
            self.folio = None


def _claim_socket(path: Path) -> socket.socket:
    """Listen on `path`: a socket file nobody answers on (a crashed service) is replaced; a live
    service is a UsageError. The socket is private to the user (mode 0600)."""
    if not usable_socket_path(path):
        raise UsageError(f"the library path is too long for a local socket: {path}")
    if path.exists() or path.is_symlink():
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(os.fspath(path))
        except OSError:
            path.unlink()  # stale
        else:
            raise UsageError(f"a Folio service already runs for this library ({path})")
        finally:
            probe.close()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        listener.bind(os.fspath(path))
    finally:
        os.umask(old_umask)
    listener.listen(16)
    return listener


def _exit_code(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=sys.stderr)
    return 1


def _handle(conn: socket.socket, library: _Library, run_command: CommandRunner, log: TextIO) -> None:
    """Run one call: its stdout and stderr go to the client as they are written, then its exit code."""
    buffer = bytearray()
    line = read_line(conn, buffer)
    if line is None:
        return
    request = json.loads(line)
    argv = [str(arg) for arg in request.get("argv", [])]
    if not argv or argv[0] not in FORWARDED_COMMANDS or request.get("env", {}) != shared_env():
        conn.sendall(encode({"fallback": "this call needs its own process"}))
        return
    saved = sys.stdout, sys.stderr, os.getcwd()
    started = time.perf_counter()
    sys.stdout, sys.stderr = _FrameStream(conn, "out"), _FrameStream(conn, "err")
    code = 1
    try:
        os.chdir(str(request.get("cwd") or saved[2]))
        try:
            folio = library.current()
        except (UsageError, FolioError) as exc:
            print(f"folio: {exc}", file=sys.stderr)
            code = 2 if isinstance(exc, UsageError) else 1
        else:
            try:
                code = run_command(argv, folio)
            except SystemExit as exc:  # argparse: --help, a usage error
                code = _exit_code(exc)
            finally:
                library.note_done()
        sys.stdout.flush()
        conn.sendall(encode({"exit": code}))
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        print(f"folio serve: {argv[0]} exit {code} in {elapsed_ms:.0f} ms", file=log, flush=True)
    except (BrokenPipeError, ConnectionResetError):
        print(f"folio serve: the client left during {argv[0]!r}; the call was stopped", file=log)
    except Exception:  # one failed call never ends the service
        print(traceback.format_exc(), file=log)
        with contextlib.suppress(OSError):
            conn.sendall(encode({"stream": "err", "text": "folio: internal error in the service\n"}))
            conn.sendall(encode({"exit": 1}))
    finally:
        sys.stdout, sys.stderr = saved[0], saved[1]
        os.chdir(saved[2])


def _raise_exit(_signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(0)


def serve(library_dir: Path, idle_minutes: float, run_command: CommandRunner, log: TextIO) -> int:
    """Serve `library_dir` until idle for `idle_minutes` (or SIGTERM / Ctrl+C); the socket file is
    removed on the way out. Returns the exit code of `folio serve`."""
    library_dir.mkdir(parents=True, exist_ok=True)
    path = socket_path(library_dir)
    logging.basicConfig(stream=_CurrentStderr(), level=logging.WARNING, format="folio: %(message)s")
    library = _Library(library_dir)
    started = time.perf_counter()
    listener = _claim_socket(path)  # calls made during the warm-up wait for it
    inode = path.stat().st_ino
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _raise_exit)
    try:
        library.current().library.warm_up()  # the slow part (torch, the embedder), once
        print(
            f"folio serve: ready in {time.perf_counter() - started:.1f} s on {path}; "
            f"exits after {idle_minutes:g} idle minutes",
            file=log,
            flush=True,
        )
        listener.settimeout(idle_minutes * 60.0)
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                print("folio serve: idle, stopping", file=log, flush=True)
                return 0
            with conn:
                conn.settimeout(None)
                _handle(conn, library, run_command, log)
    except KeyboardInterrupt:
        return 0
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            if path.stat().st_ino == inode:
                path.unlink()
        library.close()
