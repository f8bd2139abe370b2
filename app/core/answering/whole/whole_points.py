"""The points of a map step (lines of the model's text with their passage markers) and the reduce
that keeps them: renumbered to the answer's passages, near-duplicates dropped, one line each."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.keywords import content_terms
from app.core.prompt.citations import marker_numbers, strip_markers

POINTS_PER_STEP = 3
DUPLICATE_SHARE = 0.8  # a point whose terms are this share of an earlier point's is the same point
POINT_CHARS = 240  # a longer point (a passage copied out) is cut at a sentence end or a word
_BULLET = re.compile(r"^\s*(?:(?:[-*•·]|\d{1,2}[.)、]|[（(]?\d{1,2}[)）])\s*)+")
# a passage's label copied from the prompt ("report.pdf, pp. 9–10:"), which says nothing itself
_LABEL = re.compile(
    r"^[^\s,]+\.(?:pdf|txt|md|docx|html?|epub|odt|rtf)\b,?\s*(?:pp?\.\s*\d+(?:\s*[–-]\s*\d+)?)?\s*[:：.-]?\s*",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)")


@dataclass(frozen=True)
class Point:
    """One statement of the answer and the answer's passage numbers that it cites."""

    text: str
    cites: tuple[int, ...]

    def line(self) -> str:
        """'- text [3, 4]' (no marker when it cites nothing)."""
        marker = f" [{', '.join(str(n) for n in self.cites)}]" if self.cites else ""
        body = self.text
        if marker and body and body[-1] in ".。!！?？":  # the marker goes before the full stop
            return f"- {body[:-1]}{marker}{body[-1]}"
        return f"- {body}{marker}"


def map_points(text: str, offset: int, count: int, limit: int = POINTS_PER_STEP) -> list[Point]:
    """The points of one map step's text: each non-empty line (bullets and numbering removed) with
    the markers naming one of the step's `count` passages, renumbered by `offset` (the step's
    passage [1] is the answer's [offset + 1]); markers naming no passage of the step are dropped.
    A step of one passage cites it on every point. At most `limit` points."""
    points: list[Point] = []
    for raw in text.splitlines():
        body = shortened(_BULLET.sub("", _LABEL.sub("", strip_markers(_BULLET.sub("", raw)).strip())))
        if len(content_terms(body)) < 3:  # a heading, "Here are the points:", a label, a stray marker
            continue
        if body.endswith((":", "：")):
            continue
        local = [n for n in marker_numbers(raw) if 1 <= n <= count]
        if not local and count == 1:
            local = [1]
        points.append(Point(body, tuple(offset + n for n in local)))
        if len(points) >= limit:
            break
    return points


def shortened(text: str, limit: int = POINT_CHARS) -> str:
    """`text` cut to at most `limit` characters: at its last sentence end within them, else at a
    word, with an ellipsis."""
    if len(text) <= limit:
        return text
    ends = [match.end() for match in _SENTENCE_END.finditer(text, 0, limit)]
    if ends and ends[-1] >= limit // 3:
        return text[: ends[-1]]
    cut = text[:limit].rsplit(" ", 1)[0]
    return f"{cut}…"


def new_points(points: Sequence[Point], kept: Sequence[Point]) -> list[Point]:
    """`points` without the ones that repeat a kept point (or one before them in `points`)."""
    seen = [set(content_terms(point.text)) for point in kept]
    fresh: list[Point] = []
    for point in points:
        terms = set(content_terms(point.text))
        if terms and any(len(terms & other) >= DUPLICATE_SHARE * len(terms) for other in seen):
            continue
        seen.append(terms)
        fresh.append(point)
    return fresh


def points_text(points: Sequence[Point]) -> str:
    """The points as the answer shows them, one line each."""
    return "".join(f"{point.line()}\n" for point in points)
