"""Which version of Folio's reading a document was read with, and what each version changed."""

from __future__ import annotations

# Stored with every document read (documents.reader_version); a document read with a lower version
# is offered to be read again (app/core/ingest/reread.py). Raise it when a change to reading, chunking
# or marking would change what a stored document's passages hold, and say what changed:
# 0: read before Folio recorded it (libraries made before schema version 4): no headings or
#    contents marks before schema version 3, page headers and footers inside the passages.
# 1: headings and contents pages marked (schema 3), running headers and footers of PDF pages left
#    out of the passages, their words leading the heading path (app/core/ingest/running.py).
READER_VERSION = 1
