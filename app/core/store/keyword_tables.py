"""The FTS5 keyword tables beside the chunks: rows written, deleted, searched and refilled."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.core.keywords import terms_text
from app.core.store.models import Chunk

# chunks_terms: words and CJK bigrams/characters ranked by bm25; chunks_trigram: partial words
KEYWORD_TABLES = ("chunks_terms", "chunks_trigram")


def _checked(table: str) -> str:
    if table not in KEYWORD_TABLES:
        raise ValueError(table)
    return table


def insert_keyword_rows(
    session: Session, rows: Sequence[tuple[int, str]], tables: Sequence[str] = KEYWORD_TABLES
) -> None:
    """Index (chunk id, text) pairs in `tables`."""
    if not rows:
        return
    if "chunks_trigram" in tables:
        session.execute(
            text("INSERT INTO chunks_trigram(rowid, text) VALUES (:id, :text)"),
            [{"id": cid, "text": body} for cid, body in rows],
        )
    if "chunks_terms" in tables:
        session.execute(
            text("INSERT INTO chunks_terms(rowid, terms) VALUES (:id, :terms)"),
            [{"id": cid, "terms": terms_text(body)} for cid, body in rows],
        )


def delete_keyword_rows(session: Session, ids: npt.NDArray[np.int64]) -> None:
    """Remove the rows of these chunk ids from every keyword table."""
    for start in range(0, len(ids), 500):
        part = [int(i) for i in ids[start : start + 500]]
        params = {f"i{n}": v for n, v in enumerate(part)}
        marks = ", ".join(f":i{n}" for n in range(len(part)))
        for table in KEYWORD_TABLES:
            session.execute(text(f"DELETE FROM {table} WHERE rowid IN ({marks})"), params)


def search_keywords(
    session: Session, table: str, expression: str, limit: int, document_id: int | None = None
) -> list[int]:
    """Chunk ids matching an FTS5 expression in one keyword table, best bm25 first (with
    `document_id`: among that document's chunks only)."""
    table = _checked(table)
    within = "" if document_id is None else " AND rowid IN (SELECT id FROM chunks WHERE document_id = :d)"
    rows = session.execute(
        text(f"SELECT rowid FROM {table} WHERE {table} MATCH :q{within} ORDER BY bm25({table}) LIMIT :n"),
        {"q": expression, "n": limit, "d": document_id},
    ).all()
    return [int(r[0]) for r in rows]


def keyword_row_ids(session: Session, table: str) -> npt.NDArray[np.int64]:
    """Every chunk id a keyword table holds, ascending."""
    table = _checked(table)
    rows = session.execute(text(f"SELECT rowid FROM {table} ORDER BY rowid")).all()
    return np.asarray([r[0] for r in rows], dtype=np.int64)


def refill_keyword_tables(session: Session, tables: Sequence[str]) -> None:
    """Empty `tables` and index every chunk text again (the chunks are the truth)."""
    for table in tables:
        session.execute(text(f"DELETE FROM {_checked(table)}"))
    last = 0
    while True:
        rows = session.execute(
            select(Chunk.id, Chunk.text).where(Chunk.id > last).order_by(Chunk.id).limit(2000)
        ).all()
        if not rows:
            break
        insert_keyword_rows(session, [(r[0], r[1]) for r in rows], tables)
        last = rows[-1][0]
