"""Why a library should be re-indexed: it was written with an English-only embedder."""

from __future__ import annotations

from dataclasses import dataclass

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
        return max(1, round(self.pages / REINDEX_PAGES_PER_S / 60))
