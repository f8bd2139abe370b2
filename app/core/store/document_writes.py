"""One document written or deleted in one transaction under the writer lock; the index generation moves."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from app.core.errors import DocumentNotFoundError
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.passage import with_heading
from app.core.store.base import utcnow
from app.core.store.file_lock import InterProcessLock
from app.core.store.keyword_tables import delete_keyword_rows, insert_keyword_rows
from app.core.store.layers import PageLayerInfo, replace_layers
from app.core.store.models import Chunk, Document, Meta
from app.core.store.records import (
    CommitHook,
    NewChunk,
    VectorChange,
    WriteOutcome,
    document_info,
)
from app.core.store.staging import ChunkStaging, chunk_fields

GENERATION_KEY = "index_generation"


def write_document(
    sessions: sessionmaker[Session],
    write_lock: InterProcessLock,
    library_dir: Path,
    *,
    path: str,
    name: str,
    sha256: str,
    kind: str,
    size: int,
    batches: Iterable[Sequence[NewChunk]],
    page_count: Callable[[], int] | None = None,
    layers: Callable[[], Sequence[PageLayerInfo]] | None = None,
    replace_same: bool = False,
    on_commit: CommitHook | None = None,
    reader_version: int = 0,
) -> WriteOutcome:
    """Insert or replace a document and its chunks in one transaction (LibraryStore.write_document)."""
    with ChunkStaging(library_dir) as staging:
        for batch in batches:
            staging.add([(item.draft, item.vector) for item in batch])
        pages = max(page_count() if page_count is not None else 0, staging.max_page)
        with write_lock:
            with sessions.begin() as session:
                old = session.scalar(select(Document).where(Document.path == path))
                same = _same_document(session, old, sha256, replace_same)
                if same is not None:
                    count = session.scalar(select(func.count(Chunk.id)).where(Chunk.document_id == same.id))
                    return WriteOutcome("unchanged", document_info(same, int(count or 0)), None)
                now = utcnow()
                if old is not None:
                    replaced = _clear_chunks(session, old.id)
                    doc = old
                    doc.sha256, doc.size, doc.kind, doc.updated_at = sha256, size, kind, now
                    doc.reader_version = reader_version
                    doc.status, doc.pages = "ready", pages
                else:
                    replaced = np.zeros(0, dtype=np.int64)
                    doc = Document(
                        path=path,
                        name=name,
                        sha256=sha256,
                        kind=kind,
                        pages=pages,
                        size=size,
                        status="ready",
                        added_at=now,
                        updated_at=now,
                        reader_version=reader_version,
                    )
                    session.add(doc)
                session.flush()
                replace_layers(session, doc.id, layers() if layers is not None else [])
                new_ids = _insert_chunks(session, doc.id, staging)
                before, after = bump_generation(session)
            change = VectorChange(before, after, replaced, np.asarray(new_ids, dtype=np.int64))
            if on_commit is not None:
                on_commit(change)
    status = "updated" if old is not None else "added"
    return WriteOutcome(status, document_info(doc, len(new_ids)), change)


def _same_document(
    session: Session, old: Document | None, sha256: str, replace_same: bool
) -> Document | None:
    """The stored document this write would leave unchanged: the one at the path with the same
    content (unless `replace_same`), or for a new path the first one with the same content."""
    if old is not None:
        return old if old.sha256 == sha256 and not replace_same else None
    return session.scalar(select(Document).where(Document.sha256 == sha256).order_by(Document.id).limit(1))


def _clear_chunks(session: Session, document_id: int) -> np.ndarray:
    """Delete a document's chunks and their keyword rows; the deleted chunk ids."""
    ids = np.asarray(
        session.scalars(select(Chunk.id).where(Chunk.document_id == document_id)).all(),
        dtype=np.int64,
    )
    delete_keyword_rows(session, ids)
    session.execute(delete(Chunk).where(Chunk.document_id == document_id))
    return ids


def _insert_chunks(session: Session, document_id: int, staging: ChunkStaging) -> list[int]:
    """Copy the staged chunks into the library with their keyword rows; their new ids, in order."""
    new_ids: list[int] = []
    for part in staging.rows():
        rows = [Chunk(document_id=document_id, **chunk_fields(staged)) for staged in part]
        session.add_all(rows)
        session.flush()
        insert_keyword_rows(session, [(r.id, with_heading(r.heading, r.text)) for r in rows])
        new_ids.extend(r.id for r in rows)
    return new_ids


def delete_document(
    sessions: sessionmaker[Session],
    write_lock: InterProcessLock,
    document_id: int,
    on_commit: CommitHook | None = None,
) -> VectorChange:
    """Delete a document, its chunks and keyword rows in one transaction (LibraryStore.delete_document)."""
    with write_lock:
        with sessions.begin() as session:
            doc = session.get(Document, document_id)
            if doc is None:
                raise DocumentNotFoundError(QT_TRANSLATE_NOOP("Core", "no document with id {0}"), document_id)
            ids = np.asarray(
                session.scalars(select(Chunk.id).where(Chunk.document_id == document_id)).all(),
                dtype=np.int64,
            )
            delete_keyword_rows(session, ids)
            session.execute(delete(Chunk).where(Chunk.document_id == document_id))
            session.delete(doc)
            before, after = bump_generation(session)
        change = VectorChange(before, after, ids, np.zeros(0, dtype=np.int64))
        if on_commit is not None:
            on_commit(change)
    return change


def bump_generation(session: Session) -> tuple[int, int]:
    """Count one more committed vector change in `meta`; (before, after)."""
    row = session.get(Meta, GENERATION_KEY)
    before = int(row.value) if row is not None else 0
    session.merge(Meta(key=GENERATION_KEY, value=str(before + 1)))
    return before, before + 1
