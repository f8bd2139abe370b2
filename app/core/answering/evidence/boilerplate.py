"""Text that repeats from passage to passage (a page's running header or footer): where it stands."""

from __future__ import annotations

import re
from collections.abc import Sequence

Span = tuple[int, int]
WIDTH = 12  # characters a repeated run must have: "清岚 S3 空气净化器" and "Page 2 of 5 Aurelia" do
_DIGIT = re.compile(r"[0-9０-９]")


def repeated_spans(texts: Sequence[str], width: int = WIDTH) -> list[list[Span]]:
    """For each text, the (start, end) runs of at least `width` characters that also stand in another
    text, digits compared as one ("第 2 页，共 3 页" repeats "第 1 页，共 3 页"). The passages of one
    answer never overlap (retrieval keeps distinct places), so what repeats is boilerplate."""
    masked = [_DIGIT.sub("0", text) for text in texts]
    owners: dict[str, set[int]] = {}
    for n, text in enumerate(masked):
        for start in range(len(text) - width + 1):
            owners.setdefault(text[start : start + width], set()).add(n)
    spans: list[list[Span]] = []
    for text in masked:
        runs: list[Span] = []
        for start in range(len(text) - width + 1):
            if len(owners[text[start : start + width]]) < 2:
                continue
            end = start + width
            if runs and start <= runs[-1][1]:
                runs[-1] = (runs[-1][0], end)
            else:
                runs.append((start, end))
        spans.append(runs)
    return spans


def without_spans(text: str, start: int, end: int, spans: Sequence[Span]) -> str:
    """text[start:end] with the parts inside `spans` (positions in `text`) left out."""
    kept, at = [], start
    for a, b in spans:
        if b <= at or a >= end:
            continue
        kept.append(text[at : max(at, a)])
        at = max(at, b)
    kept.append(text[at:end] if at < end else "")
    return " ".join(part for part in kept if part.strip())
