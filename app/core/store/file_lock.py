"""Inter-process file locks (flock on POSIX, msvcrt on Windows), re-entrant within one process."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from types import TracebackType

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

    def _lock(fd: int) -> None:
        while not _try_lock(fd):
            time.sleep(0.05)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)


def lock_fd(fd: int, blocking: bool = True) -> bool:
    """Take the exclusive lock of an open file; False when `blocking` is off and it is held."""
    if blocking:
        _lock(fd)
        return True
    return _try_lock(fd)


def unlock_fd(fd: int) -> None:
    _unlock(fd)


def is_free(path: Path) -> bool:
    """True when no process holds the lock of `path` (or the file is gone): its owner has ended."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        if not _try_lock(fd):
            return False
        _unlock(fd)
        return True
    finally:
        os.close(fd)


class InterProcessLock:
    """An exclusive lock on a file, held by at most one process and one thread at a time.

    Re-entrant for the thread that holds it. Other threads of the same process wait on a thread
    lock first, so the file is locked once per process.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def acquire(self, blocking: bool = True) -> bool:
        if not self._thread_lock.acquire(blocking):
            return False
        if self._depth == 0:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except BaseException:
                self._thread_lock.release()
                raise
            try:
                locked = lock_fd(fd, blocking)
            except BaseException:
                os.close(fd)
                self._thread_lock.release()
                raise
            if not locked:
                os.close(fd)
                self._thread_lock.release()
                return False
            self._fd = fd
        self._depth += 1
        return True

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                _unlock(fd)
            finally:
                os.close(fd)
        self._thread_lock.release()

    @property
    def held(self) -> bool:
        """True when this process holds the lock (from any thread)."""
        return self._fd is not None

    def __enter__(self) -> InterProcessLock:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
