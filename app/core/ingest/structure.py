"""Where each chunk sits in its document: the headings above it, and whether it is a table of contents.

Fed every page of a document in order (its raw text, whose lines tell contents lines and numbered
headings apart, and its normalised text, where chunk offsets point), it marks each chunk draft with
- `heading`: the heading path in effect at the chunk ("Guide › Networking › Proxy settings"): a
  PDF's bookmarks when it has any, else the numbered headings of its lines ("Chapter 7",
  "7.18 Why does …", "第三章 …") and, in a Markdown or plain-text file, its "#" heading lines
  (the path names them without the "#" marks; lines inside ``` fences are code); a section's path
  for documents without pages; led by what the page's running header says, when it says more than
  a page number (a PDF's "Owner's Manual" line at the top of every page: running.py);
- `contents`: at least CONTENTS_SHARE of the chunk's characters are table-of-contents, index or
  dotted-leader lines (app/core/contents.py).
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right, insort

from app.core.contents import contents_flags, heading_level
from app.core.ingest.page import PageContent
from app.core.ingest.sections import PATH_SEPARATOR
from app.core.normalize import normalize_text
from app.core.passage import ChunkDraft

# A chunk at least this much made of contents lines is a contents chunk
CONTENTS_SHARE = 0.5
# A heading path keeps its deepest levels, at most this many ("Part › Chapter › Section")
PATH_LEVELS = 3
# A "#" line longer than this is a comment or a hashtagged sentence, not a heading
HEADING_CHARS = 100
# A Markdown (ATX) heading line: one to six "#", a space, the title, optional closing "#"s
_MARKDOWN_HEADING = re.compile(r"(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*")
# A line that opens or closes a fenced code block ("# install" inside it is a shell comment)
_FENCE = re.compile(r"(?:```|~~~)")


def line_spans(raw: str, normalized: str) -> list[tuple[int, int, str]]:
    """(start, end, normalised line) of each non-blank line of `raw`, found in order in the page's
    normalised text; a line the normalisation joined to the next (a hyphenated word) is left out."""
    spans: list[tuple[int, int, str]] = []
    at = 0
    for line in raw.splitlines():
        piece = normalize_text(line)
        if not piece:
            continue
        found = normalized.find(piece, at)
        if found < 0:
            continue
        spans.append((found, found + len(piece), piece))
        at = found + len(piece)
    return spans


def page_lines(page: PageContent, text: str) -> list[tuple[int, int, str]]:
    """The page's lines as (start, end, text) in its normalised text `text`: the raw text's lines,
    an OCR'd page's recognised lines, a section's paragraphs; none for other normalised text
    (its line breaks are gone)."""
    if not page.normalized:
        return line_spans(page.text, text)
    if page.boxes:
        return [(box.start, box.end, text[box.start : box.end]) for box in page.boxes]
    starts = list(page.paragraphs)
    ends = [*starts[1:], len(text)]
    return [(start, end, text[start:end].strip()) for start, end in zip(starts, ends, strict=True)]


class DocumentStructure:
    """The headings and contents lines of one document's pages, read as they stream in."""

    def __init__(self, markdown: bool = False) -> None:
        self._markdown = markdown  # "#" lines are headings (Markdown files)
        self._fenced = False  # inside a fenced code block (it may span pages)
        # (page, offset, order read, path): two headings at one place (a bookmark whose title is not
        # found on its page is put at the page's start) count in the order they came
        self._headings: list[tuple[int, int, int, str]] = []
        self._open: list[tuple[int, str]] = []  # (level, title) of the headings now open
        self._contents: dict[int, list[tuple[int, int]]] = {}  # page -> contents ranges
        self._lengths: dict[int, int] = {}
        self._titles: dict[int, str] = {}  # page -> what its running header says (running.py)

    def add_page(self, page: PageContent, text: str, title: str = "") -> None:
        """Read one page (or section): `text` is its normalised text, `title` what the page's
        running header says, normalised (left out of `text`: app/core/ingest/running.py)."""
        self._lengths[page.number] = len(text)
        if title:
            self._titles[page.number] = title
        if page.section:
            insort(self._headings, (page.number, 0, len(self._headings), page.section))
        lines = page_lines(page, text)
        flags = contents_flags([line for _, _, line in lines])
        ranges = [(start, end) for (start, end, _), flag in zip(lines, flags, strict=True) if flag]
        if ranges:
            self._contents[page.number] = ranges
        if page.outline is not None:  # a PDF with bookmarks: they are its headings
            folded = text.casefold()
            for level, title in page.outline:
                offset = folded.find(normalize_text(title).casefold())
                self._open_heading(level, normalize_text(title), page.number, max(offset, 0))
        elif not page.section:
            markdown = self._markdown_lines(page, text) if self._markdown else set()
            for (start, _, line), flag in zip(lines, flags, strict=True):
                if start in markdown:
                    continue
                level = 0 if flag else heading_level(line)
                if level:
                    self._open_heading(level, line, page.number, start)

    def _markdown_lines(self, page: PageContent, text: str) -> set[int]:
        """The offsets in `text` of a text file's Markdown structure lines: its "#" headings
        (opened here, named without the marks), code fences and the lines inside them. A "#" line
        indented by four spaces or more is code ("    # apt-get source foo"), as in Markdown."""
        structure: set[int] = set()
        at = 0
        for raw in page.text.splitlines():
            line = normalize_text(raw)
            found = text.find(line, at) if line else -1
            if found < 0:
                continue
            at = found + len(line)
            indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
            if _FENCE.match(line) and indent < 4:
                self._fenced = not self._fenced
                structure.add(found)
                continue
            if self._fenced:
                structure.add(found)
                continue
            heading = _MARKDOWN_HEADING.fullmatch(line)
            if heading and indent < 4 and len(heading.group(2)) <= HEADING_CHARS:
                self._open_heading(len(heading.group(1)), heading.group(2), page.number, found)
                structure.add(found)
        return structure

    def _open_heading(self, level: int, title: str, page: int, offset: int) -> None:
        if not title:
            return
        while self._open and self._open[-1][0] >= level:
            self._open.pop()
        self._open.append((level, title))
        path = PATH_SEPARATOR.join(name for _, name in self._open[-PATH_LEVELS:])
        insort(self._headings, (page, offset, len(self._headings), path))

    def heading_at(self, page: int, offset: int) -> str:
        """The heading path in effect at `offset` of `page` ("" before the first heading)."""
        found = bisect_right(self._headings, (page, offset, len(self._headings), ""))
        return self._headings[found - 1][3] if found else ""

    def contents_share(self, draft: ChunkDraft) -> float:
        """The share of the draft's characters that lie on contents lines."""
        total = covered = 0
        for page in range(draft.page_start, draft.page_end + 1):
            start = draft.char_start if page == draft.page_start else 0
            end = draft.char_end if page == draft.page_end else self._lengths.get(page, 0)
            total += max(0, end - start)
            covered += sum(max(0, min(b, end) - max(a, start)) for a, b in self._contents.get(page, ()))
        return covered / total if total else 0.0

    def mark(self, draft: ChunkDraft) -> ChunkDraft:
        """The draft with its heading path (in effect at its middle, so a chunk that starts with the
        end of one section and goes on into the next is filed under the next), led by its first
        page's running header when the path does not already name it, and its contents flag."""
        if draft.page_start == draft.page_end:
            middle = (draft.page_start, (draft.char_start + draft.char_end) // 2)
        else:
            middle = (draft.page_start, draft.char_start)
        heading = self.heading_at(*middle)
        title = self._titles.get(draft.page_start, "")
        if title and title.casefold() not in heading.casefold():
            heading = PATH_SEPARATOR.join(part for part in (title, heading) if part)
        return dataclasses.replace(
            draft, heading=heading, contents=self.contents_share(draft) >= CONTENTS_SHARE
        )
