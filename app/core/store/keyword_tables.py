"""The FTS5 keyword tables beside the chunks: rows written, deleted, searched and refilled."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.core.keywords import terms_text
from app.core.passage import with_heading
from app.core.store.models import Chunk

# chunks_terms: words and CJK bigrams/characters ranked by bm25; chunks_trigram: partial words
KEYWORD_TABLES = ("chunks_terms", "chunks_trigram")
# At most about this many matching rows are ranked by bm25 in one keyword search (search_keywords)
RANKED_ROWS = 20_000


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
    session: Session,
    table: str,
    phrases: Sequence[str],
    limit: int,
    budget: int | None = RANKED_ROWS,
    document_id: int | None = None,
) -> list[int]:
    """Chunk ids matching any of the FTS5 `phrases` in one keyword table, best bm25 first (with
    `document_id`: among that document's chunks only, ranked exactly).

    bm25 scores every row the expression matches, and a common phrase matches a good part of a
    large library. So the phrases are split: the rarest, while the rows they match add up to at
    most `budget` (at least the rarest one, whatever its count), and the common rest. Ranked are
    the rows holding a rare phrase: by the rare phrases alone, and those also holding a common
    phrase (`rare AND common`: few rows) by every phrase, each row's better score kept. That is the
    exact bm25 ranking of every row with a rare phrase; left out are the rows with only common
    phrases, whose bm25 weights (idf) are the smallest. Below `budget` matching rows in all (any
    small library) it is the one exact query over every phrase; `budget` None: always that.
    """
    table = _checked(table)
    if not phrases:
        return []
    if document_id is not None:
        budget = None  # one document's rows are few
    rare, common = ([*phrases], []) if budget is None else _split_rarest(session, table, phrases, budget)
    any_rare = " OR ".join(rare)
    found = _ranked(session, table, any_rare, limit, document_id)
    if not common:
        return [rowid for rowid, _ in found]
    scores = dict(found)
    for rowid, score in _ranked(session, table, f"({any_rare}) AND ({' OR '.join(common)})", limit):
        scores[rowid] = min(score, scores.get(rowid, 0.0))  # bm25(): the lower, the better
    return [rowid for rowid, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]))[:limit]]


def _ranked(
    session: Session, table: str, expression: str, limit: int, document_id: int | None = None
) -> list[tuple[int, float]]:
    """(chunk id, bm25) of the best `limit` rows matching an FTS5 expression, best first (with
    `document_id`: that document's rows only)."""
    within = "" if document_id is None else " AND rowid IN (SELECT id FROM chunks WHERE document_id = :d)"
    rows = session.execute(
        text(
            f"SELECT rowid, bm25({table}) FROM {table} WHERE {table} MATCH :q{within} "
            f"ORDER BY bm25({table}) LIMIT :n"
        ),
        {"q": expression, "n": limit, "d": document_id},
    ).all()
    return [(int(r[0]), float(r[1])) for r in rows]


def _split_rarest(
    session: Session, table: str, phrases: Sequence[str], budget: int
) -> tuple[list[str], list[str]]:
    """The rarest of `phrases` whose matching rows add up to at most `budget` (at least one), and
    the others, each in their given order; all are rare when they fit."""
    if _rows_matching(session, table, " OR ".join(phrases), budget + 1) <= budget:
        return [*phrases], []  # one statement for a small library
    counts = [_rows_matching(session, table, phrase, budget + 1) for phrase in phrases]
    if min(counts) > budget:  # every phrase is common: count them all to find the rarest
        counts = [_rows_matching(session, table, phrase, None) for phrase in phrases]
    kept: set[int] = set()
    total = 0
    for n in sorted(range(len(phrases)), key=lambda n: counts[n]):
        if kept and total + counts[n] > budget:
            break
        kept.add(n)
        total += counts[n]
    rare = [phrase for n, phrase in enumerate(phrases) if n in kept]
    return rare, [phrase for n, phrase in enumerate(phrases) if n not in kept]


def _rows_matching(session: Session, table: str, phrase: str, cap: int | None) -> int:
    """How many rows of `table` match `phrase`, counted up to `cap` (None: all)."""
    limit = "" if cap is None else f" LIMIT {int(cap)}"
    return int(
        session.execute(
            text(f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {table} MATCH :q{limit})"), {"q": phrase}
        ).scalar_one()
    )


def keyword_row_ids(session: Session, table: str) -> npt.NDArray[np.int64]:
    """Every chunk id a keyword table holds, ascending."""
    table = _checked(table)
    rows = session.execute(text(f"SELECT rowid FROM {table} ORDER BY rowid")).all()
    return np.asarray([r[0] for r in rows], dtype=np.int64)


def refill_keyword_tables(session: Session, tables: Sequence[str]) -> None:
    """Empty `tables` and index every chunk again, its heading path and text (the chunks are the truth)."""
    for table in tables:
        session.execute(text(f"DELETE FROM {_checked(table)}"))
    last = 0
    while True:
        rows = session.execute(
            select(Chunk.id, Chunk.heading, Chunk.text).where(Chunk.id > last).order_by(Chunk.id).limit(2000)
        ).all()
        if not rows:
            break
        insert_keyword_rows(session, [(r[0], with_heading(r[1], r[2])) for r in rows], tables)
        last = rows[-1][0]
