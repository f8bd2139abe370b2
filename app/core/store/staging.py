"""A scratch SQLite file that holds a document's chunks while it is read and embedded.

Streaming a long file into the library inside one transaction would hold the store's write lock
for minutes (a question asked meanwhile could not even save its chat). Chunks are staged here
batch by batch instead, so memory stays bounded, and then copied into the library in one short
transaction. A crash leaves only a scratch file, removed the next time the library opens.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType

import numpy as np
import numpy.typing as npt

from app.core.passage import ChunkDraft

STAGING_PREFIX = ".staging-"
STAGING_SUFFIX = ".sqlite3"


def remove_leftover_staging(library_dir: Path) -> None:
    """Delete scratch files a crashed ingestion left behind."""
    for leftover in library_dir.glob(f"{STAGING_PREFIX}*{STAGING_SUFFIX}*"):
        leftover.unlink(missing_ok=True)


class ChunkStaging:
    """Append (draft, vector) batches; read them back in order, a batch at a time."""

    def __init__(self, library_dir: Path) -> None:
        fd, name = tempfile.mkstemp(prefix=STAGING_PREFIX, suffix=STAGING_SUFFIX, dir=library_dir)
        os.close(fd)  # an empty file is a valid new SQLite database
        self.path = Path(name)
        self._db = sqlite3.connect(self.path)
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute(
            "CREATE TABLE staged (ordinal INTEGER PRIMARY KEY, text TEXT, page_start INTEGER, "
            "page_end INTEGER, char_start INTEGER, char_end INTEGER, n_tokens INTEGER, embedding BLOB, "
            "section TEXT)"
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
                )
            )
            self.count += 1
            self.max_page = max(self.max_page, draft.page_end)
        self._db.executemany("INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
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

    def __enter__(self) -> ChunkStaging:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
