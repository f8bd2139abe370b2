"""The library store: documents and chunks in SQLite with their two keyword indexes kept in step."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from sqlalchemy import ColumnElement, Engine, func, select, text
from sqlalchemy.orm import Session, sessionmaker

from app.core.errors import DocumentNotFoundError
from app.core.keywords import KEYWORDS_VERSION
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.store import document_writes
from app.core.store.database import open_engine, session_factory
from app.core.store.document_writes import GENERATION_KEY
from app.core.store.embedder_record import bind_embedder
from app.core.store.file_lock import InterProcessLock
from app.core.store.folders import WatchedFolders
from app.core.store.keyword_tables import (
    KEYWORD_TABLES,
    RANKED_ROWS,
    keyword_row_ids,
    refill_keyword_tables,
    search_keywords,
)
from app.core.store.layers import (
    PageLayerInfo,
    load_layer,
    ocr_page_counts,
    ocr_pages_of,
)
from app.core.store.models import Chunk, Document, Meta
from app.core.store.records import (
    ChunkRow,
    CommitHook,
    DocumentInfo,
    NewChunk,
    VectorChange,
    WriteOutcome,
    document_info,
)
from app.core.store.schema import migrate
from app.core.store.staging import remove_leftover_staging

WRITER_LOCK_FILE = ".writer.lock"

log = logging.getLogger("folio")


class LibraryStore:
    """All reads and writes of documents, chunks and keyword indexes.

    Writers hold `write_lock`, a lock file in the library shared by every process and thread, so
    there is one writer at a time; readers never wait for it (WAL). Every change of the vectors
    bumps the index generation stored in `meta` in the same transaction, so each process sees
    when its copy of the vector index is behind.
    """

    def __init__(self, library_dir: Path) -> None:
        self.library_dir = library_dir
        self.engine: Engine = open_engine(library_dir)
        migrate(self.engine)
        remove_leftover_staging(library_dir)
        self.sessions: sessionmaker[Session] = session_factory(self.engine)
        self.write_lock = InterProcessLock(library_dir / WRITER_LOCK_FILE)
        self.folders = WatchedFolders(self.sessions, self.write_lock)
        self._refresh_keyword_tables()

    def close(self) -> None:
        self.engine.dispose()

    # -- metadata ------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        with self.sessions() as session:
            row = session.get(Meta, key)
            return row.value if row else None

    def index_generation(self) -> int:
        """The number of committed vector changes so far (moves on every add, replace, delete)."""
        value = self.meta(GENERATION_KEY)
        return int(value) if value else 0

    def bind_embedder(
        self,
        name: str,
        dimension: int,
        identity: str | None = None,
        same_as_legacy: Callable[[], bool] | None = None,
    ) -> None:
        """Record the embedder on first use; refuse a library indexed with another one.

        `identity` is the hash of the model's weights and config (embed/identity.py): a renamed
        copy of the same model is accepted. A library made before identities were recorded holds
        only the model's folder name; it is upgraded when the name matches or when
        `same_as_legacy()` confirms that the model reproduces the stored vectors."""
        bind_embedder(self.sessions, self.write_lock, name, dimension, identity, same_as_legacy)

    # -- documents -----------------------------------------------------------------------------

    def documents(self) -> list[DocumentInfo]:
        with self.sessions() as session:
            counts = dict(
                session.execute(
                    select(Chunk.document_id, func.count(Chunk.id)).group_by(Chunk.document_id)
                ).all()
            )
            docs = session.scalars(select(Document).order_by(Document.name, Document.id)).all()
            ocr = ocr_page_counts(session)
            return [document_info(doc, int(counts.get(doc.id, 0)), ocr.get(doc.id, 0)) for doc in docs]

    def document_by_path(self, path: str) -> DocumentInfo | None:
        return self._first_document(Document.path == path)

    def document_by_sha256(self, sha256: str) -> DocumentInfo | None:
        return self._first_document(Document.sha256 == sha256)

    def _first_document(self, condition: ColumnElement[bool]) -> DocumentInfo | None:
        with self.sessions() as session:
            doc = session.scalar(select(Document).where(condition).order_by(Document.id).limit(1))
            if doc is None:
                return None
            count = session.scalar(select(func.count(Chunk.id)).where(Chunk.document_id == doc.id)) or 0
            return document_info(doc, int(count), len(ocr_pages_of(session, doc.id)))

    def find_document(self, ref: str | int) -> DocumentInfo:
        """A document by id, full path, or file name (a name must be unique)."""
        docs = self.documents()
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            matches = [d for d in docs if d.id == int(ref)]
        else:
            resolved = str(Path(ref).expanduser().resolve())
            matches = [d for d in docs if d.path in (ref, resolved)] or [d for d in docs if d.name == ref]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise DocumentNotFoundError(QT_TRANSLATE_NOOP("Core", "no document {0!r} in the library"), ref)
        raise DocumentNotFoundError(
            QT_TRANSLATE_NOOP("Core", "{0} documents are named {1!r}; give the full path or the id"),
            len(matches),
            ref,
        )

    def write_document(
        self,
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
        """Insert (or replace) a document and all its chunks in ONE transaction. The chunk batches
        are streamed into a scratch file first (bounded memory, no lock held while a file is read
        and embedded), then copied in under the writer lock. If the batches raise (cancel,
        unreadable file), nothing is changed: an old version stays as it was.

        Under the lock the store looks again: the same bytes already stored under this path, or
        (for a new path) under another one, make the outcome `unchanged` (unless `replace_same`:
        a re-index). `on_commit` runs after the commit, still under the writer lock, so the
        caller can bring its vector index up to date and save it before any other writer.
        `page_count` is asked once all batches are consumed (a streamed file's page count is
        known only then); so is `layers`, the stored texts of OCR'd pages and sections (see
        app/core/store/layers.py). `reader_version`: the version of the reading that made the chunks
        (app/core/ingest/reader_version.py)."""
        return document_writes.write_document(
            self.sessions,
            self.write_lock,
            self.library_dir,
            path=path,
            name=name,
            sha256=sha256,
            kind=kind,
            size=size,
            batches=batches,
            page_count=page_count,
            layers=layers,
            replace_same=replace_same,
            on_commit=on_commit,
            reader_version=reader_version,
        )

    def delete_document(self, document_id: int, on_commit: CommitHook | None = None) -> VectorChange:
        """Delete a document, its chunks and keyword rows in one transaction; `on_commit` runs
        after it under the writer lock (see `write_document`)."""
        return document_writes.delete_document(self.sessions, self.write_lock, document_id, on_commit)

    def page_layer(self, path: str, page: int) -> PageLayerInfo | None:
        """The stored text (and OCR line boxes) of a page or section, if the viewer needs one."""
        with self.sessions() as session:
            return load_layer(session, path, page)

    def ocr_pages(self, document_id: int) -> list[int]:
        """The pages of a document that were read by OCR."""
        with self.sessions() as session:
            return ocr_pages_of(session, document_id)

    # -- chunks --------------------------------------------------------------------------------

    def chunk_count(self) -> int:
        with self.sessions() as session:
            return int(session.scalar(select(func.count(Chunk.id))) or 0)

    def document_chunk_ids(self, document_id: int) -> list[int]:
        """The chunk ids of one document in reading order (page, then offset on the page)."""
        with self.sessions() as session:
            order = (Chunk.page_start, Chunk.char_start, Chunk.id)
            return [
                int(i)
                for i in session.scalars(
                    select(Chunk.id).where(Chunk.document_id == document_id).order_by(*order)
                )
            ]

    def all_chunk_ids(self) -> npt.NDArray[np.int64]:
        with self.sessions() as session:
            return np.asarray(session.scalars(select(Chunk.id).order_by(Chunk.id)).all(), dtype=np.int64)

    def iter_embeddings(self, batch: int = 4096) -> Iterator[tuple[npt.NDArray[np.int64], bytes]]:
        """(ids, concatenated float32 bytes) in id order, a batch at a time (bounded memory)."""
        last = 0
        while True:
            with self.sessions() as session:
                rows = session.execute(
                    select(Chunk.id, Chunk.embedding).where(Chunk.id > last).order_by(Chunk.id).limit(batch)
                ).all()
            if not rows:
                return
            last = rows[-1][0]
            yield np.asarray([r[0] for r in rows], dtype=np.int64), b"".join(r[1] for r in rows)

    def iter_texts(self, after: int = 0, batch: int = 4096) -> Iterator[list[tuple[int, str]]]:
        """(id, text) of the chunks with an id above `after`, in id order, a batch at a time."""
        while True:
            with self.sessions() as session:
                rows = session.execute(
                    select(Chunk.id, Chunk.text).where(Chunk.id > after).order_by(Chunk.id).limit(batch)
                ).all()
            if not rows:
                return
            after = rows[-1][0]
            yield [(int(r[0]), str(r[1])) for r in rows]

    def chunk_ids_at_generation(self) -> tuple[int, npt.NDArray[np.int64]]:
        """(generation, every chunk id) read as one consistent pair: the generation is read before
        and after the ids, and the read repeats if a writer committed in between."""
        generation = self.index_generation()
        while True:
            ids = self.all_chunk_ids()
            again = self.index_generation()
            if again == generation:
                return generation, ids
            generation = again

    def embeddings_of(self, ids: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], bytes]:
        """(ids found, concatenated float32 bytes in that order) for the given chunk ids."""
        found: list[int] = []
        blobs: list[bytes] = []
        for start in range(0, len(ids), 500):
            part = [int(i) for i in ids[start : start + 500]]
            with self.sessions() as session:
                rows = session.execute(
                    select(Chunk.id, Chunk.embedding).where(Chunk.id.in_(part)).order_by(Chunk.id)
                ).all()
            found.extend(int(r[0]) for r in rows)
            blobs.extend(r[1] for r in rows)
        return np.asarray(found, dtype=np.int64), b"".join(blobs)

    def chunks(self, ids: Sequence[int]) -> dict[int, ChunkRow]:
        if not ids:
            return {}
        with self.sessions() as session:
            rows = session.execute(
                select(Chunk, Document.name, Document.path)
                .join(Document, Chunk.document_id == Document.id)
                .where(Chunk.id.in_(list(ids)))
            ).all()
        return {
            c.id: ChunkRow(
                c.id,
                c.document_id,
                name,
                path,
                c.page_start,
                c.page_end,
                c.char_start,
                c.char_end,
                c.text,
                c.embedding,
                c.section,
                c.heading,
                bool(c.contents),
            )
            for c, name, path in rows
        }

    def contents_chunks(self, ids: Sequence[int]) -> set[int]:
        """Which of these chunks are tables of contents or indexes (Chunk.contents)."""
        if not ids:
            return set()
        with self.sessions() as session:
            found = session.scalars(select(Chunk.id).where(Chunk.id.in_(list(ids)), Chunk.contents.is_(True)))
            return {int(cid) for cid in found}

    def keyword_search(
        self,
        table: str,
        phrases: Sequence[str],
        limit: int,
        budget: int | None = RANKED_ROWS,
        document_id: int | None = None,
    ) -> list[int]:
        """Chunk ids matching any of the FTS5 phrases in `chunks_terms` or `chunks_trigram`, bm25
        order, the rarest phrases first within `budget` rows (keyword_tables.search_keywords; with
        `document_id`: that document's chunks only)."""
        with self.sessions() as session:
            return search_keywords(session, table, phrases, limit, budget, document_id)

    def keyword_row_ids(self, table: str) -> npt.NDArray[np.int64]:
        with self.sessions() as session:
            return keyword_row_ids(session, table)

    def rebuild_keyword_tables(self, tables: Sequence[str] = KEYWORD_TABLES) -> None:
        """Refill keyword tables from the chunk texts (the truth) in one transaction, and stamp
        the library with the current keyword version."""
        if any(table not in KEYWORD_TABLES for table in tables):
            raise ValueError(tables)
        with self.write_lock, self.sessions.begin() as session:
            refill_keyword_tables(session, tables)
            session.merge(Meta(key="keywords_version", value=KEYWORDS_VERSION))

    def _refresh_keyword_tables(self) -> None:
        """A library whose terms index was made by another version of the keyword forms gets it
        rebuilt from the chunk texts, so that old and new rows never mix."""
        stored = self.meta("keywords_version")
        if stored == KEYWORDS_VERSION:
            return
        chunks = self.chunk_count()
        if chunks:
            log.warning("rebuilding the keyword index of %d chunks (new CJK keyword forms)", chunks)
        self.rebuild_keyword_tables(("chunks_terms",))

    def integrity_problems(self) -> list[str]:
        with self.sessions() as session:
            result = [r[0] for r in session.execute(text("PRAGMA integrity_check")).all()]
            bad_docs = (
                session.execute(select(Document.name).where(Document.status != "ready")).scalars().all()
            )
        problems = [f"SQLite integrity check: {r}" for r in result if r != "ok"]
        problems += [f"document {name!r} was left half-indexed" for name in bad_docs]
        return problems
