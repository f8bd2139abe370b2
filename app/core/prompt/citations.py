"""Find citation markers ([1], [1, 3], [1-3], 【1】) in an answer and check them against the passages."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.core.passage import Citation, Hit

# Inside the brackets: numbers separated by commas (ASCII, full-width, ideographic) or joined by a
# dash (ASCII, en dash, full-width) into a range.
_INNER = r"\s*\d{1,4}\s*(?:[-–—－,，、]\s*\d{1,4}\s*)*"
_MARKER = re.compile(rf"\[({_INNER})\]|【({_INNER})】|［({_INNER})］")
_PART = re.compile(r"(\d+)\s*(?:[-–—－]\s*(\d+))?")
MAX_RANGE = 50  # a wider "range" is not a citation, e.g. [1-2024]


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
            citations.append(Citation.from_hit(n, passages[n - 1]))
        else:
            invalid.append(n)
    return citations, invalid


def strip_markers(text: str) -> str:
    """`text` without its citation markers (and the spaces before them)."""
    return re.sub(r"\s+([.,;:!?。，；：！？])", r"\1", re.sub(rf"\s*(?:{_MARKER.pattern})", "", text)).strip()
