"""Documents an earlier version of Folio's reading read: which to read again, and about how long it takes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.embed.reindex import reading_minutes
from app.core.ingest.reader_version import READER_VERSION

if TYPE_CHECKING:  # the front ends import RereadAdvice from api.py, which stays cheap to import
    from app.core.store.records import DocumentInfo


@dataclass(frozen=True)
class RereadAdvice:
    """Documents read with an older READER_VERSION whose files are still where they were read from:
    reading them again (in place, each replaced in one transaction) brings their passages up to date."""

    documents: tuple[int, ...]  # their ids
    pages: int

    @property
    def minutes(self) -> int:
        """About how long reading them again takes, in whole minutes (at least 1)."""
        return reading_minutes(self.pages)


def reread_advice(documents: Sequence[DocumentInfo]) -> RereadAdvice | None:
    """Advice to read again the documents an earlier version read, or None when there are none (a
    document whose file is gone cannot be read again, and keeps what it has)."""
    outdated = [
        info for info in documents if info.reader_version < READER_VERSION and Path(info.path).is_file()
    ]
    if not outdated:
        return None
    return RereadAdvice(tuple(info.id for info in outdated), sum(info.pages for info in outdated))
