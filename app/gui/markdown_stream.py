"""Streaming Markdown: split a growing answer into settled blocks and a tail; link [n] citations."""

from __future__ import annotations

import re
from collections.abc import Collection

# [1], [1, 3], [1-3], 【1】, ［1］: the same forms as app.core.prompt.citations accepts.
_INNER = r"\s*\d{1,4}\s*(?:[-–—－,，、]\s*\d{1,4}\s*)*"
CITATION = re.compile(rf"\[({_INNER})\]|【({_INNER})】|［({_INNER})］")
_SEPARATOR = re.compile(r"(\s*[-–—－,，、]\s*)")
_NUMBER = re.compile(r"\d+")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)", re.MULTILINE)


def _link(n: int, valid: Collection[int] | None, sentence: int | None) -> str:
    if valid is not None and n not in valid:
        return f"~~{n}~~"
    return f"[{n}](cite:{n})" if sentence is None else f"[{n}](cite:{n}-{sentence})"


def link_citations(text: str, valid: Collection[int] | None = None, sentence: int | None = None) -> str:
    """Turn citation markers outside code fences into `cite:n` links (`cite:n-i` for sentence i;
    markers not in `valid` struck through)."""
    pieces = re.split(
        r"(^\s{0,3}(?:```|~~~).*?^\s{0,3}(?:```|~~~)[^\n]*$)", text, flags=re.MULTILINE | re.DOTALL
    )
    out: list[str] = []
    for index, piece in enumerate(pieces):
        if index % 2 == 1:  # a fenced code block: leave as is
            out.append(piece)
            continue
        out.append(CITATION.sub(lambda m: _replace(m, valid, sentence), piece))
    return "".join(out)


def _replace(match: re.Match[str], valid: Collection[int] | None, sentence: int | None) -> str:
    body = next(group for group in match.groups() if group is not None).strip()
    parts = _SEPARATOR.split(body)
    linked: list[str] = []
    for part in parts:
        if _NUMBER.fullmatch(part):
            linked.append(_link(int(part), valid, sentence))
        else:
            linked.append(", " if any(c in part for c in ",，、") else "–")
    return "\\[" + "".join(linked) + "\\]"


class MarkdownStream:
    """Accumulates streamed text; hands out blocks that are complete (end at a blank line outside
    a code fence) exactly once, and the unfinished tail to re-render on every update."""

    def __init__(self) -> None:
        self.text = ""
        self._settled = 0  # text[:_settled] has been handed out as settled blocks
        self._fence_open = False  # fence state at _settled

    def feed(self, chunk: str) -> tuple[str, str]:
        """Append `chunk`; return (newly settled Markdown, current tail Markdown)."""
        self.text += chunk
        pending = self.text[self._settled :]
        boundary = -1
        fence_open = self._fence_open
        position = 0
        # walk the blank-line boundaries in the pending text, tracking code fences
        for match in re.finditer(r"\n[ \t]*\n", pending):
            fences = len(_FENCE.findall(pending, position, match.start()))
            position = match.start()
            if fences % 2:
                fence_open = not fence_open
            if not fence_open:
                boundary = match.end()
                self._fence_open = fence_open
        if boundary < 0:
            return "", pending
        settled = pending[:boundary]
        self._settled += boundary
        return settled, self.text[self._settled :]

    @property
    def tail(self) -> str:
        return self.text[self._settled :]
