"""Split an answer (or a passage) into sentences with their offsets, keeping citation markers with them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.prompt.citations import marker_numbers
from app.core.script import CJK_CHAR, is_cjk

# A bracketed run is a citation marker when marker_numbers() reads numbers from it (THE marker syntax).
_BRACKETED = re.compile(r"\[[^\[\]\n]{1,40}\]|【[^【】\n]{1,40}】|［[^［］\n]{1,40}］")
# Where a sentence may end: Latin . ! ? (runs, e.g. "?!" or "..."), CJK 。！？；, ! ? ; after a CJK
# character (NFKC-normalised passages carry ASCII forms of the full-width marks), and a colon before a
# capital letter ("Here is what I found: The tower…").
_STOP = re.compile(rf"[.!?]+|[。！？；]|(?<=[{CJK_CHAR}])[!?;]|:(?=[ \t]+[A-Z])")
_CLOSERS = "\"'”’)]」』）》"
_OPENERS = "[【［"
# Web addresses and e-mail addresses never end a sentence inside them.
_PROTECTED = re.compile(r"(?:https?://|www\.)[^\s<>\"'）)\]]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# Markdown list items, headings and quotes at the start of a line (CJK lists: "1、", "一、", "（1）").
_BULLET = re.compile(
    r"[ \t]*(?:(?:[-*+•·▪‣◦]|\d{1,3}[.)]|[A-Za-z][.)])[ \t]+|\d{1,3}、[ \t]*"
    r"|[一二三四五六七八九十]{1,3}、[ \t]*"
    r"|[(（]\d{1,3}[)）][ \t]*|#{1,6}[ \t]+|>[ \t]*)"
)
# Abbreviations after which a full stop does not end a sentence.
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "cf",
        "vs",
        "viz",
        "approx",
        "ca",
        "fig",
        "figs",
        "eq",
        "eqs",
        "p",
        "pp",
        "vol",
        "vols",
        "ch",
        "chap",
        "sec",
        "sect",
        "no",
        "nos",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "st",
        "jr",
        "sr",
        "rev",
        "gen",
        "col",
        "lt",
        "sgt",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "univ",
        "est",
        "ref",
        "refs",
        "resp",
        "min",
        "max",
        "avg",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
# Abbreviations that often end a sentence too: a stop after them ends one before a capital letter.
_FINAL_ABBREVIATIONS = frozenset({"etc", "al", "co", "inc", "ltd", "corp"})
# Abbreviations that are words too ("The answer is no."): only before a number are they abbreviations.
_NUMBER_ABBREVIATIONS = frozenset({"no", "nos", "p", "pp", "vol", "fig", "ch", "sec", "eq", "min", "max"})
_WORD_BEFORE = re.compile(r"([A-Za-z](?:[A-Za-z]*|(?:\.[A-Za-z])+))$")
_MARKDOWN = re.compile(r"\*\*|__|`|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)")
_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:!?。，；：！？])")
_WORD_CHAR = re.compile(r"[^\W_]")


@dataclass(frozen=True)
class Sentence:
    """One sentence: text == source[start:end] (list bullets left out); `body` is the text to score
    (markers and Markdown removed); `markers` are the passage numbers its markers name."""

    text: str
    start: int
    end: int
    body: str
    markers: tuple[int, ...]


def marker_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of every citation marker in `text`."""
    return [(m.start(), m.end()) for m in _BRACKETED.finditer(text) if marker_numbers(m.group())]


def _inside(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= position < b for a, b in spans)


def _is_full_stop(text: str, start: int, end: int, protected: list[tuple[int, int]]) -> bool:
    """Whether the Latin stop run text[start:end] ends a sentence."""
    if _inside(start, protected):
        return False
    following = end
    while following < len(text) and text[following] in _CLOSERS:
        following += 1
    if following < len(text):
        nxt = text[following]
        if not (nxt.isspace() or nxt in _OPENERS or is_cjk(nxt)):
            return False  # 3.5, 1.2.3, v2.0.1, R-intro.pdf, e.g.x
    if text[start:end] != ".":
        return True  # "!", "?", "?!", "..."
    word = _WORD_BEFORE.search(text, max(0, start - 24), start)
    if word is None or (word.start() > 0 and text[word.start() - 1].isdigit()):
        return True  # "… 31 m." is not "m.", "May 1st." is not "St."
    token = word.group(1).lower()
    rest = text[following:].lstrip()
    next_char = rest[:1]
    if token in _NUMBER_ABBREVIATIONS:
        return not next_char.isdigit()
    if token in _FINAL_ABBREVIATIONS:
        return not next_char or next_char.isupper() or is_cjk(next_char)
    if token in _ABBREVIATIONS or "." in token:
        return False
    # An initial ("J. Smith"), not a one-letter word at the end of a sentence ("... plan B.").
    return not (len(token) == 1 and word.group(1).isupper() and next_char.isupper() and word.start() > 0)


def _extend_over_markers(text: str, end: int, markers: list[tuple[int, int]], limit: int) -> int:
    """Markers (and a stop after them) written after a sentence's full stop belong to it."""
    while True:
        probe = end
        while probe < limit and text[probe] in " \t":
            probe += 1
        span = next((b for a, b in markers if a == probe), None)
        if span is None:
            break
        end = span
    if end < limit and text[end] in ".。" and any(b == end for _, b in markers):
        end += 1
    return end


def _blocks(text: str) -> list[tuple[int, int]]:
    """[start, end) of the pieces between which a line break ends a sentence: list items,
    headings and paragraphs; a wrapped line that continues in lower case stays in its block."""
    blocks: list[tuple[int, int]] = []
    position = 0
    previous_open = False  # the last block may continue on the next line
    for line in text.splitlines(keepends=True):
        line_start = position
        position += len(line)
        content = line.rstrip("\r\n")
        if not content.strip():
            previous_open = False
            continue
        bullet = _BULLET.match(content)
        start = line_start + (bullet.end() if bullet else len(content) - len(content.lstrip()))
        end = line_start + len(content.rstrip())
        if start >= end:
            previous_open = False
            continue
        first = text[start]
        if previous_open and not bullet and (first.islower() or first.isdigit()) and blocks:
            blocks[-1] = (blocks[-1][0], end)
        else:
            blocks.append((start, end))
        last = text[end - 1]
        previous_open = not (last in ".!?:;。！？；：" or last in _CLOSERS)
    return blocks


def _body(text: str, start: int, end: int, markers: list[tuple[int, int]]) -> str:
    pieces: list[str] = []
    position = start
    for a, b in markers:
        if a >= start and b <= end:
            pieces.append(text[position:a])
            position = b
    pieces.append(text[position:end])
    body = _MARKDOWN.sub("", "".join(pieces))
    body = _SPACE_BEFORE_STOP.sub(r"\1", body)  # "31 m [1]." -> "31 m."
    return _SPACES.sub(" ", body).strip()


def _has_words(text: str) -> bool:
    return _WORD_CHAR.search(text) is not None


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of `text` in order; a piece that is only markers joins the sentence before it."""
    markers = marker_spans(text)
    protected = [(m.start(), m.start() + len(m.group().rstrip(".,;:!?"))) for m in _PROTECTED.finditer(text)]
    spans: list[tuple[int, int]] = []
    for block_start, block_end in _blocks(text):
        start = block_start
        for stop in _STOP.finditer(text, block_start, block_end):
            if stop.start() < start or _inside(stop.start(), markers):
                continue
            if stop.group()[0] in ".!?" and not _is_full_stop(text, stop.start(), stop.end(), protected):
                continue
            end = stop.end()
            while end < block_end and text[end] in _CLOSERS:
                end += 1
            end = _extend_over_markers(text, end, markers, block_end)
            spans.append((start, end))
            start = end
        if text[start:block_end].strip():
            spans.append((start, block_end))
    sentences: list[Sentence] = []
    for raw_start, raw_end in spans:
        piece = text[raw_start:raw_end]
        start = raw_start + len(piece) - len(piece.lstrip())
        end = raw_end - (len(piece) - len(piece.rstrip()))
        if start >= end:
            continue
        body = _body(text, start, end, markers)
        numbers = tuple(marker_numbers(text[start:end]))
        if not _has_words(body):
            if numbers and sentences:  # a marker on its own: it cites the sentence before
                last = sentences[-1]
                sentences[-1] = Sentence(
                    text[last.start : end],
                    last.start,
                    end,
                    last.body,
                    tuple(dict.fromkeys(last.markers + numbers)),
                )
            continue
        sentences.append(Sentence(text[start:end], start, end, body, numbers))
    return sentences
