"""Find citation markers ([1], [1, 3], [1-3], 【1】) in an answer and check them against the passages."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.passage import Hit

# Inside the brackets: numbers separated by commas (ASCII, full-width, ideographic) or joined by a
# dash (ASCII, en dash, full-width) into a range.
_INNER = r"\s*\d{1,4}\s*(?:[-–—－,，、]\s*\d{1,4}\s*)*"
_MARKER = re.compile(rf"\[({_INNER})\]|【({_INNER})】|［({_INNER})］")
_PART = re.compile(r"(\d+)\s*(?:[-–—－]\s*(\d+))?")
MAX_RANGE = 50  # a wider "range" is not a citation, e.g. [1-2024]


@dataclass(frozen=True)
class Citation:
    """A marker that points to a passage that was in the prompt; page is a page holding it."""

    n: int
    chunk_id: int
    document: str
    path: str
    page: int
    page_end: int
    char_start: int
    char_end: int
    text: str
    section: str = ""  # heading path and paragraph for documents without pages (see Hit.section)

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "document": self.document,
            "page": self.page,
            "page_end": self.page_end,
            "path": self.path,
            "char_start": self.char_start,
            "char_end": self.char_end,
            "text": self.text,
            "chunk_id": self.chunk_id,
            "section": self.section,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Citation:
        return cls(
            n=int(data["n"]),
            chunk_id=int(data["chunk_id"]),
            document=str(data["document"]),
            path=str(data.get("path", "")),
            page=int(data["page"]),
            page_end=int(data.get("page_end", data["page"])),
            char_start=int(data.get("char_start", 0)),
            char_end=int(data.get("char_end", 0)),
            text=str(data.get("text", "")),
            section=str(data.get("section", "")),
        )


def marker_numbers(text: str) -> list[int]:
    """Every passage number the markers in `text` name, in order of first appearance."""
    seen: dict[int, None] = {}
    for match in _MARKER.finditer(text):
        inner = next(group for group in match.groups() if group is not None)
        for part in _PART.finditer(inner):
            first = int(part.group(1))
            last = int(part.group(2)) if part.group(2) else first
            if last < first or last - first > MAX_RANGE:
                seen.setdefault(first, None)
                if last != first:
                    seen.setdefault(last, None)
                continue
            for n in range(first, last + 1):
                seen.setdefault(n, None)
    return list(seen)


def parse_citations(text: str, passages: Sequence[Hit]) -> tuple[list[Citation], list[int]]:
    """Map markers to the prompt's passages ([1] is passages[0]); the rest are invalid."""
    citations: list[Citation] = []
    invalid: list[int] = []
    for n in marker_numbers(text):
        if 1 <= n <= len(passages):
            hit = passages[n - 1]
            citations.append(
                Citation(
                    n=n,
                    chunk_id=hit.chunk_id,
                    document=hit.document,
                    path=hit.path,
                    page=hit.page,
                    page_end=hit.page_end,
                    char_start=hit.char_start,
                    char_end=hit.char_end,
                    text=hit.text,
                    section=hit.section,
                )
            )
        else:
            invalid.append(n)
    return citations, invalid
