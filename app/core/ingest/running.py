"""Running headers and footers of a paged document: lines that repeat at the top or bottom of its pages."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from app.core.ingest.page import PageContent
from app.core.ingest.structure import line_spans

# Lines at each edge of a page (top and bottom) that may be a running header or footer
EDGE_LINES = 2
# Pages on each side of a page that it is compared with: odd and even pages of a book often carry
# different headers (the book's title on one, the chapter's on the other)
NEIGHBOURS = 2
# A longer line, or one that ends as a sentence does, is text even when its neighbours repeat it
# ("Section 2: the alpha protocol handles retries." on every page of a list)
RUNNING_CHARS = 100
_SENTENCE_END = re.compile(r"[.!?。！？]$")
_SENTENCE_CHARS = 24  # ...unless it is this short ("Confidential.")
_DIGITS = re.compile(r"[0-9０-９]+")
# A roman page number at either end of a line ("Debian 新维护者手册 vi", "iii")
_ROMAN_EDGE = re.compile(r"(?:^[ivxlcdm]{1,7}(?=\s|$)|(?<=\s)[ivxlcdm]{1,7}$|^[ivxlcdm]{1,7}$)")
# The page-number parts of a header line, left out of the title it gives the page's passages:
# "Page 2 of 5", "第 2 页，共 3 页", "26 / 57", and a number (or a lower-case roman one) at either end
_NUMBER = r"(?:[0-9０-９]+|[ivxlcdm]{1,7})"
_PAGE_NUMBERING = re.compile(
    rf"(?i:page)\s*{_NUMBER}\s*(?:(?i:of)\s*{_NUMBER})?|第\s*{_NUMBER}\s*页\s*(?:[,，]\s*共\s*{_NUMBER}\s*页)?"
    rf"|{_NUMBER}\s*/\s*{_NUMBER}|^[-–—\s]*{_NUMBER}(?=[-–—\s]|$)|(?<=[-–—\s]){_NUMBER}[-–—\s]*$"
)
_WORD = re.compile(r"[^\W\d_]")

Key = TypeVar("Key")


def edge_shape(line: str) -> str:
    """A line with its page numbers (digits, and a roman numeral at either end) and its case and
    spacing left out: "Page 2 of 5" and "Page 3 of 5" compare equal, so do "ii" and "iii"."""
    folded = " ".join(line.lower().split())
    return _ROMAN_EDGE.sub("#", _DIGITS.sub("#", folded))


def could_run(line: str) -> bool:
    """Whether a line may be a running header or footer at all: short, and not a sentence."""
    text = line.strip()
    return len(text) <= RUNNING_CHARS and (len(text) <= _SENTENCE_CHARS or not _SENTENCE_END.search(text))


def header_title(lines: Sequence[str]) -> str:
    """What running header lines say besides the page number ("Debian 新维护者手册 26 / 57" →
    "Debian 新维护者手册"): the lines joined, page numbering left out; "" when only numbers remain."""
    kept = []
    for line in lines:
        title = " ".join(_PAGE_NUMBERING.sub(" ", " ".join(line.split())).split()).strip(" -–—")
        if _WORD.search(title):
            kept.append(title)
    return " ".join(kept)


@dataclass(frozen=True)
class DecidedPage(Generic[Key]):
    """A page whose running lines are known: the caller's key for it, and which of its lines (by
    index in the list it was added with) are a running header (top) or footer (bottom)."""

    key: Key
    header: tuple[int, ...]
    footer: tuple[int, ...]


@dataclass
class _Seen(Generic[Key]):
    key: Key
    top: list[tuple[int, str]]  # (line index, edge shape) of its first EDGE_LINES lines
    bottom: list[tuple[int, str]]
    lines: int


class RunningLines(Generic[Key]):
    """Finds the running headers and footers of a paged document as its pages stream in: a line
    among the first or last EDGE_LINES of a page is one when a page at most NEIGHBOURS away has a
    line of the same shape at the same edge. A page is decided once the NEIGHBOURS pages after it
    are read, or at the end."""

    def __init__(self) -> None:
        self._seen: list[_Seen[Key]] = []
        self._next = 0  # index in _seen of the first page not yet decided

    def add(self, key: Key, lines: Sequence[str]) -> list[DecidedPage[Key]]:
        """Read one page's non-blank lines, in order; returns the pages decided by it."""
        indexed = list(enumerate(edge_shape(line) if could_run(line) else "" for line in lines))
        top = indexed[:EDGE_LINES]
        bottom = [item for item in indexed[-EDGE_LINES:] if item[0] >= EDGE_LINES]
        self._seen.append(_Seen(key, top, bottom, len(indexed)))
        decided = []
        while self._next + NEIGHBOURS < len(self._seen):
            decided.append(self._decide(self._next))
        self._forget()
        return decided

    def finish(self) -> list[DecidedPage[Key]]:
        """The pages not yet decided, decided with what was read."""
        decided = [self._decide(self._next) for _ in range(self._next, len(self._seen))]
        self._seen, self._next = [], 0
        return decided

    def _decide(self, index: int) -> DecidedPage[Key]:
        page = self._seen[index]
        around = range(max(0, index - NEIGHBOURS), min(len(self._seen), index + NEIGHBOURS + 1))
        others = [self._seen[i] for i in around if i != index]
        tops = {shape for other in others for _, shape in other.top}
        bottoms = {shape for other in others for _, shape in other.bottom}
        self._next = index + 1
        header = tuple(i for i, shape in page.top if shape and shape in tops)
        footer = tuple(i for i, shape in page.bottom if shape and shape in bottoms)
        if len(set(header) | set(footer)) >= page.lines:  # a page is never all header and footer
            return DecidedPage(page.key, (), ())
        return DecidedPage(page.key, header, footer)

    def _forget(self) -> None:
        """Drop pages no longer needed for comparison (more than NEIGHBOURS before the next)."""
        drop = max(0, self._next - NEIGHBOURS)
        if drop:
            self._seen = self._seen[drop:]
            self._next -= drop


def blanked(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """`text` with each (start, end) span turned into spaces: offsets into it stay where they were."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


@dataclass(frozen=True)
class _ReadPage:
    """A page read and normalised, waiting for its running lines to be known."""

    page: PageContent
    text: str
    lines: list[tuple[int, int, str]]  # its non-blank lines in `text` (structure.line_spans)


def without_running_lines(pages: Iterable[tuple[PageContent, str]]) -> Iterator[tuple[PageContent, str, str]]:
    """(page, normalised text, header title) for each of a paged document's (page, normalised text):
    its running header and footer lines blanked out of the text, and what the header says besides
    the page number. A page comes NEIGHBOURS pages late; OCR'd pages (their text is built from
    recognised boxes) are passed as they are."""
    running: RunningLines[_ReadPage] = RunningLines()
    for page, text in pages:
        lines = [] if page.normalized else line_spans(page.text, text)
        for decided in running.add(_ReadPage(page, text, lines), [line for _, _, line in lines]):
            yield _released(decided)
    for decided in running.finish():
        yield _released(decided)


def _released(decided: DecidedPage[_ReadPage]) -> tuple[PageContent, str, str]:
    read = decided.key
    spans = [read.lines[i][:2] for i in (*decided.header, *decided.footer)]
    return read.page, blanked(read.text, spans), header_title([read.lines[i][2] for i in decided.header])
