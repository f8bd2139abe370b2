"""The library's schema version, and the in-place migration of a library made by an older Folio."""

from __future__ import annotations

from sqlalchemy import Engine, inspect, text

# 2: chunks.section and the page_layers table (OCR'd pages, sections of DOCX/HTML/EPUB).
# 3: chunks.heading (the heading path a chunk sits under) and chunks.contents (a table of contents
#    or an index); a library from before keeps working with none marked, until it is re-indexed.
SCHEMA_VERSION = "3"

# Columns added since version 1, each with the default its old rows take
_ADDED_COLUMNS = (
    ("section", "TEXT NOT NULL DEFAULT ''"),
    ("heading", "TEXT NOT NULL DEFAULT ''"),
    ("contents", "BOOLEAN NOT NULL DEFAULT 0"),
)


def migrate(engine: Engine) -> None:
    """Bring a library made by an older Folio up to date, in place (new tables are created by
    create_all already; columns are added here)."""
    columns = {column["name"] for column in inspect(engine).get_columns("chunks")}
    with engine.begin() as conn:
        for name, declaration in _ADDED_COLUMNS:
            if name not in columns:
                conn.execute(text(f"ALTER TABLE chunks ADD COLUMN {name} {declaration}"))
        conn.execute(
            text("UPDATE meta SET value = :v WHERE key = 'schema_version' AND CAST(value AS INTEGER) < :n"),
            {"v": SCHEMA_VERSION, "n": int(SCHEMA_VERSION)},
        )
