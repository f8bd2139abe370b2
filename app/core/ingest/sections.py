"""Documents without pages (DOCX, HTML, EPUB): headings and paragraphs gathered into sections.

Each heading opens a section named by its heading path ("Guide › Install › Linux"); the section's
text starts with the heading, then its paragraphs. A section is what a page is for a PDF: it is
chunked on its own and cited as "Guide › Install, ¶ 2" (paragraph 2 of that section).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from app.core.ingest.chunker import join_texts
from app.core.ingest.page import PageContent
from app.core.normalize import normalize_text

PATH_SEPARATOR = " › "


@dataclass
class _Section:
    path: str
    heading: str  # "" for text before any heading
    paragraphs: list[str] = field(default_factory=list)


class SectionBuilder:
    """Fed headings and paragraphs in reading order; `pages()` returns one PageContent per
    section that has body text (a heading directly followed by a sub-heading adds only its name
    to the sub-heading's path)."""

    def __init__(self) -> None:
        self._headings: list[tuple[int, str]] = []
        self._sections: list[_Section] = []
        self._fallback = ""

    def start_part(self, title: str = "") -> None:
        """A new chapter (EPUB spine item): forget the headings; text before this part's first
        heading is filed under `title`."""
        self._headings = []
        self._fallback = normalize_text(title)
        self._sections.append(_Section(self._fallback, ""))

    def heading(self, level: int, text: str) -> None:
        text = normalize_text(text)
        if not text:
            return
        while self._headings and self._headings[-1][0] >= level:
            self._headings.pop()
        self._headings.append((level, text))
        path = PATH_SEPARATOR.join(name for _, name in self._headings)
        self._sections.append(_Section(path, text))

    def paragraph(self, text: str) -> None:
        text = normalize_text(text)
        if not text:
            return
        if not self._sections:
            self._sections.append(_Section(self._fallback, ""))
        self._sections[-1].paragraphs.append(text)

    def pages(self) -> list[PageContent]:
        sections = [s for s in self._sections if s.paragraphs]
        pages: list[PageContent] = []
        for number, section in enumerate(sections, start=1):
            text = section.heading
            starts: list[int] = []
            for paragraph in section.paragraphs:
                joined = join_texts(text, paragraph)
                starts.append(len(joined) - len(paragraph))
                text = joined
            pages.append(
                PageContent(
                    number,
                    len(sections),
                    text,
                    normalized=True,
                    section=section.path,
                    paragraphs=tuple(starts),
                )
            )
        return pages


def paragraph_at(paragraphs: tuple[int, ...] | list[int], offset: int) -> int:
    """1-based number of the paragraph holding `offset`; 0 for the section's heading."""
    return bisect_right(list(paragraphs), offset)


def section_locator(path: str, paragraph: int) -> str:
    """How a passage of a section is cited: "Guide › Install, ¶ 2" (or "Guide › Install" for
    its heading, "¶ 2" for text before any heading)."""
    if paragraph <= 0:
        return path or "¶ 1"
    return f"{path}, ¶ {paragraph}" if path else f"¶ {paragraph}"
