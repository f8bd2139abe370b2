"""Page-aware, sentence-aware chunking sized in embedder tokens, for Latin and CJK text."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from app.core.passage import ChunkDraft
from app.core.script import CJK_CHAR

# A sentence ends after CJK full stops (。！？；, always), after . ! ? ; followed by a space, or after
# ! ? ; that follow a CJK character (NFKC turns ！？； into their ASCII forms). Closing quotes and
# brackets stay with the sentence.
_SENTENCE_END = re.compile(rf"(?:[。！？；]|(?<=[{CJK_CHAR}])[!?;]|[.!?;](?=\s))[\"'”’)\]」』）]*\s*")


@dataclass(frozen=True)
class Span:
    """A piece of one page's normalised text: [start, end) offsets in that page."""

    page: int  # 1-based
    start: int
    end: int
    text: str
    n_tokens: int


TokenCounter = Callable[[Sequence[str]], list[int]]
TokenSplitter = Callable[[str, int], list[tuple[int, int]]]


def split_sentences(text: str) -> list[tuple[int, int]]:
    """[start, end) offsets of sentences in `text` (trailing spaces excluded)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        while start < end and text[start].isspace():  # blanked running lines (running.py)
            start += 1
        piece_end = end
        while piece_end > start and text[piece_end - 1].isspace():
            piece_end -= 1
        if piece_end > start:
            spans.append((start, piece_end))
        start = end
    if start < len(text) and text[start:].strip():
        start += len(text[start:]) - len(text[start:].lstrip())
        spans.append((start, len(text.rstrip())))
    return spans


def join_texts(left: str, right: str) -> str:
    """Join two pieces: no space between CJK characters, one space otherwise."""
    if not left:
        return right
    if re.match(f"[{CJK_CHAR}]", left[-1]) and re.match(f"[{CJK_CHAR}]", right[:1] or " "):
        return left + right
    return left + " " + right


class Chunker:
    """Packs sentences of consecutive pages into chunks of at most `max_tokens` embedder tokens,
    with about `overlap_tokens` of trailing sentences repeated at the start of the next chunk."""

    def __init__(
        self,
        count_tokens: TokenCounter,
        split_tokens: TokenSplitter,
        target_tokens: int,
        overlap_tokens: int,
        hard_limit: int,
    ) -> None:
        self._count = count_tokens
        self._split = split_tokens
        self._target = min(target_tokens, hard_limit)
        self._overlap = overlap_tokens
        self._limit = hard_limit
        self._pending: list[Span] = []
        self._pending_tokens = 0
        self._fresh = 0  # spans in _pending not yet part of an emitted chunk

    def _sentences(self, page: int, text: str) -> list[Span]:
        offsets = split_sentences(text)
        counts = self._count([text[a:b] for a, b in offsets]) if offsets else []
        spans: list[Span] = []
        for (start, end), n_tokens in zip(offsets, counts, strict=True):
            if n_tokens <= self._target:
                spans.append(Span(page, start, end, text[start:end], n_tokens))
                continue
            # An over-long sentence (a table, a run-on line): cut it at token boundaries.
            for a, b in self._split(text[start:end], self._target):
                piece = text[start + a : start + b]
                if piece.strip():
                    spans.append(Span(page, start + a, start + b, piece, self._count([piece])[0]))
        return spans

    def _emit(self) -> ChunkDraft:
        spans = self._pending
        text = ""
        for span in spans:
            text = join_texts(text, span.text)
        first, last = spans[0], spans[-1]
        return ChunkDraft(text, first.page, first.start, last.page, last.end, self._pending_tokens)

    def _start_next(self) -> None:
        """Keep trailing sentences (up to the overlap budget) as the head of the next chunk."""
        keep: list[Span] = []
        tokens = 0
        for span in reversed(self._pending[1:]):
            if tokens + span.n_tokens > self._overlap:
                break
            keep.insert(0, span)
            tokens += span.n_tokens
        self._pending = keep
        self._pending_tokens = tokens
        self._fresh = 0

    def add_page(self, page: int, text: str) -> Iterator[ChunkDraft]:
        """Feed one page's normalised text; yields the chunks completed by it."""
        for span in self._sentences(page, text):
            if self._pending and self._pending_tokens + span.n_tokens > self._target:
                yield self._emit()
                self._start_next()
                if self._pending_tokens + span.n_tokens > self._target:
                    self._pending, self._pending_tokens = [], 0
            self._pending.append(span)
            self._pending_tokens += span.n_tokens
            self._fresh += 1

    def finish(self) -> Iterator[ChunkDraft]:
        """Yield the last, partly filled chunk, unless it would only repeat the overlap."""
        if self._fresh:
            yield self._emit()
        self._pending, self._pending_tokens, self._fresh = [], 0, 0


def chunk_pages(
    chunker: Chunker, pages: Iterable[tuple[int, str]], separate: bool = False
) -> Iterator[ChunkDraft]:
    """Chunk a stream of (1-based page number, normalised text) pairs. With `separate`, no chunk
    spans two pages (sections of a document without pages are cited one at a time)."""
    for page, text in pages:
        yield from chunker.add_page(page, text)
        if separate:
            yield from chunker.finish()
    yield from chunker.finish()
