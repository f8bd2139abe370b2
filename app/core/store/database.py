"""Open the library's SQLite file: WAL mode, foreign keys, schema and full-text tables."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

from app.core.errors import LibraryError
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.store import chats as _chats  # noqa: F401  (registers the chat tables)
from app.core.store import folders as _folders  # noqa: F401  (registers the watched folders)
from app.core.store import models as _models  # noqa: F401  (registers the library tables)
from app.core.store.base import Base

STORE_FILE = "library.sqlite3"
FULL_DISK_BYTES = 1024 * 1024  # less free space than this when the store fails: the disk is full

# Two keyword indexes, kept in step with `chunks` by the store in the same transaction:
# - chunks_trigram: FTS5 trigram over the chunk text (substrings of 3+ characters, any script);
# - chunks_terms: FTS5 unicode61 over "terms" text: Latin words plus CJK character bigrams, so
#   two-character Chinese words (模型, 缓存) match and rank with bm25.
FTS_SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_trigram USING fts5(text, tokenize='trigram')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_terms USING fts5("
    "terms, tokenize='porter unicode61 remove_diacritics 2')",
)


def _on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def open_engine(library_dir: Path) -> Engine:
    """Create the directory and schema if needed and return an engine on the store."""
    library_dir.mkdir(parents=True, exist_ok=True)
    db_path = library_dir / STORE_FILE
    engine = create_engine(f"sqlite:///{db_path}", future=True)
    event.listen(engine, "connect", _on_connect)
    try:
        Base.metadata.create_all(engine)
        with engine.begin() as conn:
            for statement in FTS_SCHEMA:
                conn.execute(text(statement))
    except Exception as exc:  # sqlite3.DatabaseError surfaces wrapped by SQLAlchemy
        engine.dispose()
        if not os.access(library_dir, os.W_OK):
            raise LibraryError(
                QT_TRANSLATE_NOOP(
                    "Core",
                    "the library folder {0} is read-only: Folio needs to write there (open "
                    "another library, or make this one writable)",
                ),
                library_dir,
            ) from exc
        if shutil.disk_usage(library_dir).free < FULL_DISK_BYTES:
            raise LibraryError(
                QT_TRANSLATE_NOOP(
                    "Core",
                    "the disk holding the library {0} is full: free some space and try again",
                ),
                library_dir,
            ) from exc
        reason = getattr(exc, "orig", None) or exc
        raise LibraryError(
            QT_TRANSLATE_NOOP("Core", "cannot open the library store {0}: {1}"), db_path, reason
        ) from exc
    return engine


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
