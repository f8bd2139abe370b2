"""The library's schema version, and the in-place migration of a library made by an older Folio."""

from __future__ import annotations

from sqlalchemy import Engine, inspect, text

# 2: chunks.section and the page_layers table (OCR'd pages, sections of DOCX/HTML/EPUB).
# 3: chunks.heading (the heading path a chunk sits under) and chunks.contents (a table of contents
#    or an index); a library from before keeps working with none marked, until it is re-indexed.
# 4: documents.reader_version (app/core/ingest/reader_version.py); the documents of a library from
#    before take 0, and the window offers to read them again.
SCHEMA_VERSION = "4"

# Columns added since version 1, each with its table and the default its old rows take
_ADDED_COLUMNS = (
    ("chunks", "section", "TEXT NOT NULL DEFAULT ''"),
    ("chunks", "heading", "TEXT NOT NULL DEFAULT ''"),
    ("chunks", "contents", "BOOLEAN NOT NULL DEFAULT 0"),
    ("documents", "reader_version", "INTEGER NOT NULL DEFAULT 0"),
)


def migrate(engine: Engine) -> None:
    """Bring a library made by an older Folio up to date, in place (new tables are created by
    create_all already; columns are added here)."""
    tables = {table for table, _, _ in _ADDED_COLUMNS}
    columns = {(table, column["name"]) for table in tables for column in inspect(engine).get_columns(table)}
    with engine.begin() as conn:
        for table, name, declaration in _ADDED_COLUMNS:
            if (table, name) not in columns:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {declaration}"))
        conn.execute(
            text("UPDATE meta SET value = :v WHERE key = 'schema_version' AND CAST(value AS INTEGER) < :n"),
            {"v": SCHEMA_VERSION, "n": int(SCHEMA_VERSION)},
        )
