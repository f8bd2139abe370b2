"""Re-indexing a library: why it should be (an English-only embedder wrote it), and into what folder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.errors import ModelError, UsageError
from app.core.messages import QT_TRANSLATE_NOOP

if TYPE_CHECKING:  # the front ends import ReindexAdvice from api.py, which stays cheap to import
    from app.core.config import Settings
    from app.core.embed.embedder import Embedder
    from app.core.store.records import DocumentInfo

# Pages re-read per second by a re-index with the multilingual default on 2 busy cores (measured by
# benchmarks/bench_ingest.py, benchmarks/README.md "Embedders"): what the window's estimate is from.
REINDEX_PAGES_PER_S = 10.0


@dataclass(frozen=True)
class ReindexAdvice:
    """Why the open library should be re-indexed: it was written with an English-only embedder and
    new libraries get a multilingual one (a question in one language finds pages in the other)."""

    embedder: str  # the library's, e.g. all-MiniLM-L6-v2
    default: str  # the default of new libraries, e.g. use-multilingual-v3
    documents: int
    pages: int

    @property
    def minutes(self) -> int:
        """About how long re-reading every page takes, in whole minutes (at least 1)."""
        return reading_minutes(self.pages)


def reading_minutes(pages: int) -> int:
    """About how long reading `pages` pages again takes here, in whole minutes (at least 1)."""
    return max(1, round(pages / REINDEX_PAGES_PER_S / 60))


def reindex_advice(
    settings: Settings, embedder: Embedder, documents: Sequence[DocumentInfo]
) -> ReindexAdvice | None:
    """Advice to re-index when the library's embedder is English-only, the settings name none
    (the library keeps its own) and the default of new libraries is multilingual; else None."""
    from app.core.embed.engine import open_engine

    if settings.embed_model_dir or not documents or embedder.multilingual:
        return None
    default = settings.embed_model_path()
    try:
        engine = open_engine(default, embedder.batch_size, embedder.precision)
    except ModelError:  # the default is not installed: nothing to re-index with
        return None
    if not engine.multilingual:
        return None
    pages = sum(info.pages for info in documents)
    return ReindexAdvice(embedder.name, default.name, len(documents), pages)


def check_reindex_target(into: Path, library_dir: Path) -> None:
    """UsageError unless `into` is a new or empty folder other than the library being read."""
    if into.resolve() == library_dir.resolve():
        raise UsageError(
            QT_TRANSLATE_NOOP("Core", "re-index into a new library folder, not the library being read")
        )
    if into.exists() and (not into.is_dir() or any(into.iterdir())):
        raise UsageError(
            QT_TRANSLATE_NOOP("Core", "{0} is not empty: re-index into a new, empty folder"), into
        )
