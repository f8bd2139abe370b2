"""A scratch SQLite file that holds a document's chunks while it is read and embedded.

Streaming a long file into the library inside one transaction would hold the store's write lock
for minutes (a question asked meanwhile could not even save its chat). Chunks are staged here
batch by batch instead, so memory stays bounded, and then copied into the library in one short
transaction. Each scratch file has an owner lock held by the process writing it; a crash leaves a
scratch file whose lock is free, removed the next time a library opens. A file whose owner is
still alive (another process ingesting into the same library) is never touched.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.passage import ChunkDraft
from app.core.store.file_lock import is_free, lock_fd, unlock_fd

STAGING_PREFIX = ".staging-"
STAGING_SUFFIX = ".sqlite3"
OWNER_SUFFIX = ".owner"
OWNER_TMP_PREFIX = ".owner-tmp-"
UNNAMED_OWNER_AGE_S = 600.0


def _owner_of(staging: Path) -> Path:
    stem = staging.name.split(STAGING_SUFFIX, 1)[0]
    return staging.with_name(stem + OWNER_SUFFIX)


def remove_leftover_staging(library_dir: Path) -> list[Path]:
    """Delete scratch files whose owner process is gone (its lock is free); returns them."""
    removed: list[Path] = []
    for leftover in sorted(library_dir.glob(f"{STAGING_PREFIX}*{STAGING_SUFFIX}*")):
        owner = _owner_of(leftover)
        if is_free(owner):
            leftover.unlink(missing_ok=True)
            removed.append(leftover)
    for owner in library_dir.glob(f"{STAGING_PREFIX}*{OWNER_SUFFIX}"):
        stem = owner.name[: -len(OWNER_SUFFIX)]
        if not any(library_dir.glob(f"{stem}{STAGING_SUFFIX}*")) and is_free(owner):
            owner.unlink(missing_ok=True)
    # A crash between creating an owner lock and naming it leaves a free `.owner-tmp-` file; a
    # young one may belong to a process about to lock it, so only old ones are removed.
    for unnamed in library_dir.glob(f"{OWNER_TMP_PREFIX}*"):
        with contextlib.suppress(OSError):
            if time.time() - unnamed.stat().st_mtime > UNNAMED_OWNER_AGE_S and is_free(unnamed):
                unnamed.unlink(missing_ok=True)
    return removed


def _locked_owner(library_dir: Path) -> tuple[int, Path]:
    """A new owner lock file, locked BEFORE it gets a name the cleaner looks at."""
    fd, name = tempfile.mkstemp(prefix=OWNER_TMP_PREFIX, dir=library_dir)
    lock_fd(fd)
    token = Path(name).name.removeprefix(OWNER_TMP_PREFIX)
    owner = library_dir / f"{STAGING_PREFIX}{os.getpid()}-{token}{OWNER_SUFFIX}"
    os.replace(name, owner)
    return fd, owner


def chunk_fields(staged: sqlite3.Row) -> dict[str, Any]:
    """A staged row's columns as a stored chunk's fields (a flag comes back from SQLite as 0 or 1)."""
    fields = dict(staged)
    fields["contents"] = bool(fields["contents"])
    return fields


class ChunkStaging:
    """Append (draft, vector) batches; read them back in order, a batch at a time."""

    def __init__(self, library_dir: Path) -> None:
        self._owner_fd, self.owner = _locked_owner(library_dir)
        self.path = self.owner.with_name(self.owner.name[: -len(OWNER_SUFFIX)] + STAGING_SUFFIX)
        self._db = sqlite3.connect(self.path)
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute(
            "CREATE TABLE staged (ordinal INTEGER PRIMARY KEY, text TEXT, page_start INTEGER, "
            "page_end INTEGER, char_start INTEGER, char_end INTEGER, n_tokens INTEGER, embedding BLOB, "
            "section TEXT, heading TEXT, contents BOOLEAN)"
        )
        self.count = 0
        self.max_page = 0

    def add(self, batch: Sequence[tuple[ChunkDraft, npt.NDArray[np.float32]]]) -> None:
        rows = []
        for draft, vector in batch:
            rows.append(
                (
                    self.count,
                    draft.text,
                    draft.page_start,
                    draft.page_end,
                    draft.char_start,
                    draft.char_end,
                    draft.n_tokens,
                    np.ascontiguousarray(vector, dtype=np.float32).tobytes(),
                    draft.section,
                    draft.heading,
                    draft.contents,
                )
            )
            self.count += 1
            self.max_page = max(self.max_page, draft.page_end)
        self._db.executemany("INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self._db.commit()

    def rows(self, batch: int = 500) -> Iterator[list[sqlite3.Row]]:
        """Staged chunks in order; each row has the columns of the `staged` table by name."""
        self._db.row_factory = sqlite3.Row
        last = -1
        while True:
            part = self._db.execute(
                "SELECT * FROM staged WHERE ordinal > ? ORDER BY ordinal LIMIT ?", (last, batch)
            ).fetchall()
            if not part:
                return
            last = part[-1]["ordinal"]
            yield part

    def close(self) -> None:
        self._db.close()
        self.path.unlink(missing_ok=True)
        self.owner.unlink(missing_ok=True)
        unlock_fd(self._owner_fd)
        os.close(self._owner_fd)

    def __enter__(self) -> ChunkStaging:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
