"""Check that the store, the vector index and the keyword tables agree; repair what can be rebuilt."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.core.index.sync import index_disagreement, rebuild_index
from app.core.index.vector_index import VectorIndex
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.store.keyword_tables import KEYWORD_TABLES
from app.core.store.library import LibraryStore


@dataclass
class VerifyReport:
    """Store ↔ index ↔ keyword-table consistency; `repaired` lists what --repair fixed."""

    ok: bool
    documents: int
    chunks: int
    vectors: int
    problems: list[str] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "documents": self.documents,
            "chunks": self.chunks,
            "vectors": self.vectors,
            "problems": self.problems,
            "repaired": self.repaired,
        }


@dataclass
class VerifyOutcome:
    """The report, and the index rebuilt by a repair (the caller replaces its copy with it)."""

    report: VerifyReport
    rebuilt_index: VectorIndex | None = None


def verify_library(store: LibraryStore, index_path: Path, repair: bool = False) -> VerifyOutcome:
    """Check store ↔ index ↔ keyword tables; with `repair`, rebuild the derived parts that disagree.
    Problems of the store itself (SQLite, documents) are reported, never "repaired"."""
    problems = store.integrity_problems()
    repaired: list[str] = []
    chunk_ids = store.all_chunk_ids()
    stored = store.meta("embed_dim")
    dimension = int(stored) if stored else None
    index: VectorIndex | None = None
    if dimension is not None:
        try:
            index = VectorIndex.load(index_path, dimension) if index_path.exists() else None
        except ValueError as exc:
            problems.append(QT_TRANSLATE_NOOP("Core", "vector index unreadable") + f": {exc}")
        if index is None and len(chunk_ids) and not index_path.exists():
            problems.append(QT_TRANSLATE_NOOP("Core", "vector index file is missing"))
        if index is not None:
            mismatch = index_disagreement(index, store)
            if mismatch:
                problems.append(
                    QT_TRANSLATE_NOOP("Core", "vector index disagrees with the store") + f": {mismatch}"
                )
    for table in KEYWORD_TABLES:
        rows = store.keyword_row_ids(table)
        if len(rows) != len(chunk_ids) or (rows != chunk_ids).any():
            counts = f"{len(rows)} rows, {len(chunk_ids)} chunks"
            problems.append(f"keyword table {table} disagrees with the store ({counts})")
    rebuilt: VectorIndex | None = None
    if repair and problems:
        if any(p.startswith("keyword table") for p in problems):
            store.rebuild_keyword_tables()
            repaired.append(QT_TRANSLATE_NOOP("Core", "keyword tables rebuilt"))
        if dimension is not None and any(p.startswith("vector index") for p in problems):
            rebuilt = index = rebuild_index(store, dimension, index_path)
            repaired.append("vector index rebuilt")
    remaining = (
        problems
        if not repair
        else [p for p in problems if p.startswith("SQLite") or p.startswith("document")]
    )
    report = VerifyReport(
        ok=not remaining,
        documents=len(store.documents()),
        chunks=len(chunk_ids),
        vectors=index.count if index is not None else 0,
        problems=problems,
        repaired=repaired,
    )
    return VerifyOutcome(report, rebuilt)
