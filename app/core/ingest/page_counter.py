"""What streaming one file's pages has seen: pages, characters, OCR'd pages, layers and structure."""

from __future__ import annotations

import dataclasses

from app.core.ingest.page import PageContent
from app.core.ingest.sections import paragraph_at, section_locator
from app.core.ingest.structure import DocumentStructure
from app.core.passage import ChunkDraft
from app.core.store.layers import PageLayerInfo


class PageCounter:
    """Pages and characters seen while streaming a file; the texts the viewer will need; its
    headings and contents lines."""

    def __init__(self, markdown: bool = False) -> None:
        self.pages = 0
        self.text_chars = 0
        self.ocr_planned = 0
        self.ocr_pages = 0
        self.layers: list[PageLayerInfo] = []
        self._sections: dict[int, tuple[str, tuple[int, ...]]] = {}
        self.structure = DocumentStructure(markdown)

    def add(self, page: PageContent, text: str, title: str = "") -> None:
        self.pages = page.count
        self.structure.add_page(page, text, title)
        self.text_chars += len(text.replace(" ", ""))
        if page.ocr:
            self.ocr_pages += 1
        if page.section or page.paragraphs:
            self._sections[page.number] = (page.section, page.paragraphs)
        if page.ocr or page.section or page.paragraphs:
            boxes = tuple((b.start, b.end, b.x0, b.y0, b.x1, b.y1) for b in page.boxes)
            self.layers.append(
                PageLayerInfo(0, page.number, page.ocr, page.section, text, page.paragraphs, boxes)
            )

    def locate(self, draft: ChunkDraft) -> ChunkDraft:
        """The draft with its heading path and contents flag, and its section locator for a chunk
        of a document without pages."""
        draft = self.structure.mark(draft)
        section = self._sections.get(draft.page_start)
        if section is None:
            return draft
        path, paragraphs = section
        locator = section_locator(path, paragraph_at(paragraphs, draft.char_start))
        return dataclasses.replace(draft, section=locator)
