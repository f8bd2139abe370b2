"""What the library store hands out and takes in: documents, chunk rows, new chunks, vector changes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt

from app.core.passage import ChunkDraft
from app.core.store.models import Document


@dataclass(frozen=True)
class DocumentInfo:
    """A document as listed to the user."""

    id: int
    name: str
    path: str
    kind: str
    pages: int
    chunks: int
    size: int
    status: str
    sha256: str
    added_at: datetime
    updated_at: datetime
    ocr_pages: int = 0  # pages read by OCR
    reader_version: int = 0  # the version of Folio's reading it was read with (0: unknown, older)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "document": self.name,
            "path": self.path,
            "kind": self.kind,
            "pages": self.pages,
            "chunks": self.chunks,
            "size": self.size,
            "status": self.status,
            "sha256": self.sha256,
            "added_at": self.added_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "ocr_pages": self.ocr_pages,
            "reader_version": self.reader_version,
        }


@dataclass(frozen=True)
class ChunkRow:
    """A chunk joined with its document, as retrieval needs it."""

    chunk_id: int
    document_id: int
    document: str
    path: str
    page_start: int
    page_end: int
    char_start: int
    char_end: int
    text: str
    embedding: bytes
    section: str = ""  # "Guide › Install, ¶ 2" for documents without pages
    heading: str = ""  # the heading path it sits under (passage.Hit.heading)
    contents: bool = False  # a table of contents or an index (passage.Hit.contents)


@dataclass(frozen=True)
class VectorChange:
    """One committed change of the library's vectors: the index generation moved from `before` to
    `after`; `removed` chunk ids lost their vectors, `added` ids got theirs."""

    before: int
    after: int
    removed: npt.NDArray[np.int64]
    added: npt.NDArray[np.int64]


@dataclass(frozen=True)
class WriteOutcome:
    """What `write_document` did: added, updated, or unchanged (the same bytes were already there,
    found under the writer lock, so two processes racing on one file end as ONE document)."""

    status: str  # added | updated | unchanged
    document: DocumentInfo
    change: VectorChange | None


CommitHook = Callable[[VectorChange], None]


@dataclass(frozen=True)
class NewChunk:
    """A chunk ready to store: draft plus its embedding."""

    draft: ChunkDraft
    vector: npt.NDArray[np.float32]


def document_info(doc: Document, chunks: int, ocr_pages: int = 0) -> DocumentInfo:
    """The listing of a stored document."""
    return DocumentInfo(
        doc.id,
        doc.name,
        doc.path,
        doc.kind,
        doc.pages,
        chunks,
        doc.size,
        doc.status,
        doc.sha256,
        doc.added_at,
        doc.updated_at,
        ocr_pages,
        doc.reader_version,
    )
