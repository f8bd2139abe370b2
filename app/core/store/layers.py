"""Stored page texts for OCR'd pages and sections (added in schema version 2: store/schema.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.core.store.models import Document, PageLayer


@dataclass(frozen=True)
class PageLayerInfo:
    """A page's stored text: `boxes` are (start, end, x0, y0, x1, y1), offsets into `text` and a
    box in PDF points from the page's top-left corner; `paragraphs` are start offsets."""

    document_id: int
    page: int
    ocr: bool
    section: str
    text: str
    paragraphs: tuple[int, ...] = ()
    boxes: tuple[tuple[int, int, float, float, float, float], ...] = ()

    def boxes_between(self, start: int, end: int) -> list[tuple[float, float, float, float]]:
        """Boxes (x0, y0, x1, y1) of the lines that hold any of the text [start, end)."""
        return [(x0, y0, x1, y1) for s, e, x0, y0, x1, y1 in self.boxes if s < end and e > start]


def replace_layers(session: Session, document_id: int, layers: Sequence[PageLayerInfo]) -> None:
    """Store `layers` as the document's page texts (in the caller's transaction)."""
    session.execute(delete(PageLayer).where(PageLayer.document_id == document_id))
    session.add_all(
        PageLayer(
            document_id=document_id,
            page=layer.page,
            ocr=layer.ocr,
            section=layer.section,
            text=layer.text,
            paragraphs=json.dumps(list(layer.paragraphs)),
            boxes=json.dumps([list(box) for box in layer.boxes]),
        )
        for layer in layers
    )


def ocr_page_counts(session: Session) -> dict[int, int]:
    """Document id -> how many of its pages were read by OCR."""
    rows = session.execute(
        select(PageLayer.document_id, func.count(PageLayer.id))
        .where(PageLayer.ocr.is_(True))
        .group_by(PageLayer.document_id)
    ).all()
    return {int(document_id): int(count) for document_id, count in rows}


def ocr_pages_of(session: Session, document_id: int) -> list[int]:
    """The page numbers of a document that were read by OCR, in order."""
    return list(
        session.scalars(
            select(PageLayer.page)
            .where(PageLayer.document_id == document_id, PageLayer.ocr.is_(True))
            .order_by(PageLayer.page)
        ).all()
    )


def load_layer(session: Session, path: str, page: int) -> PageLayerInfo | None:
    """The stored text of page `page` of the document at `path`, if one was stored."""
    row = session.scalar(
        select(PageLayer)
        .join(Document, Document.id == PageLayer.document_id)
        .where(Document.path == path, PageLayer.page == page)
    )
    if row is None:
        return None
    return PageLayerInfo(
        row.document_id,
        row.page,
        bool(row.ocr),
        row.section,
        row.text,
        tuple(int(p) for p in json.loads(row.paragraphs or "[]")),
        tuple(
            (int(b[0]), int(b[1]), float(b[2]), float(b[3]), float(b[4]), float(b[5]))
            for b in json.loads(row.boxes or "[]")
        ),
    )
