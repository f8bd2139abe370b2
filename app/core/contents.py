"""Table-of-contents, index and dotted-leader lines: text that lists where things are, not what they say."""

from __future__ import annotations

import re
from collections.abc import Sequence

# A leader: dots (spaced or not), ellipses, middle dots or underscores running towards a page number.
_LEADER = re.compile(r"(?:\.\s?){4,}|(?:…\s?){2,}|(?:·\s?){4,}|(?:_\s?){5,}|(?:-\s?){6,}\s*\d")
# A section number that opens a heading: "2.4 How can …", "7.18 Why does …", "3.1. Overview"
# (a capital or a Chinese character follows, not a unit: "2.4 and 2.6 are", "2.5 倍" are figures)
_SECTION = re.compile(
    r"(?:^|(?<=\s))(?:\d{1,3}|[A-Z])(?:\.\d{1,3}){1,4}\.?\s+"
    r"(?=[A-Z]|[\u4e00-\u9fff](?<![倍个年月日元米秒分时次版号条项章节页位克升度岁天周人名种家台件只]))"
)
# "第三章 …", "第 2 节 …": a Chinese chapter or section heading
_CJK_HEADING = re.compile(r"第\s*[0-9一二三四五六七八九十百]+\s*[章节篇部]")
# A page number at the end of a line, or before a section number at its start ("4 2.4 How can …")
_TRAILING_PAGE = re.compile(r"\s(?:\d{1,4}|[ivxlc]{1,6})\s*$", re.IGNORECASE)
_LEADING_PAGE = re.compile(r"^\s*\d{1,4}\s+(?:\d{1,3}|[A-Z])(?:\.\d{1,3}){1,4}\.?\s+\S")
# An index entry: a term followed by a list of page numbers ("bootloader, 12, 45, 103")
_INDEX_ENTRY = re.compile(r"^\s*[^\d,;]{2,60}(?:,\s*\d{1,4}(?:[-–]\d{1,4})?){2,}\s*$")
_SENTENCE_END = re.compile(r"[.!?。！？]\s*$")


def is_contents_line(text: str) -> bool:
    """Whether `text` (a line, or a run of lines a sentence splitter joined) is a table of contents,
    an index or a list of headings with page numbers, rather than a statement: a dotted leader to a
    page number, two or more numbered headings in one run, a page number before a numbered heading,
    a chapter heading ending in a page number, or a term followed by page numbers."""
    line = " ".join(text.split())
    if not line:
        return False
    if _LEADER.search(line) and re.search(r"\d\s*$", line):
        return True
    if len(_SECTION.findall(line)) + len(_CJK_HEADING.findall(line)) >= 2:
        return True
    if _LEADING_PAGE.match(line):
        return True
    heading = _SECTION.match(line) or _CJK_HEADING.match(line)
    if heading and _TRAILING_PAGE.search(line) and not _SENTENCE_END.search(line) and len(line) <= 160:
        return True
    return bool(_INDEX_ENTRY.match(line))


# A table of contents without page numbers (a plain-text FAQ's): a run of this many numbered
# headings, one a line, with at most _BRIDGE other lines (a wrapped title, a chapter) between two
_HEADING_RUN = 3
_BRIDGE = 2


def _listed_heading(line: str) -> bool:
    """A short line that is a numbered heading and no sentence: "2.4. How can R be obtained?"."""
    line = " ".join(line.split())
    starts = _SECTION.match(line) or _CJK_HEADING.match(line)
    return bool(starts) and len(line) <= 120 and not line.endswith((".", "。"))


def contents_flags(lines: Sequence[str]) -> list[bool]:
    """Which of a page's lines are contents lines: each line by `is_contents_line`, and also the
    lines of a run of numbered headings listed one under the other (a table of contents without
    page numbers; headings in the body have their paragraphs between them)."""
    flags = [is_contents_line(line) for line in lines]
    filled = [n for n, line in enumerate(lines) if line.strip()]
    run: list[int] = []  # positions in `filled` of the current run's headings
    for position, n in enumerate([*filled, -1]):
        if n >= 0 and _listed_heading(lines[n]):
            if run and position - run[-1] > _BRIDGE + 1:
                _mark_run(flags, filled, run)
                run = []
            run.append(position)
            continue
        if n < 0 or (run and position - run[-1] > _BRIDGE):
            _mark_run(flags, filled, run)
            run = []
    return flags


def _mark_run(flags: list[bool], filled: list[int], run: list[int]) -> None:
    if len(run) >= _HEADING_RUN:
        for position in range(run[0], run[-1] + 1):
            flags[filled[position]] = True


_NUMBERED_HEADING = re.compile(r"((?:\d{1,3})(?:\.\d{1,3}){1,4})\.?\s+\S")
_CHAPTER = re.compile(r"(?:chapter|part|appendix)\s+(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})\b", re.IGNORECASE)
_CJK_PART = re.compile(r"第\s*[0-9一二三四五六七八九十百]+\s*([章节篇部])")


def heading_level(line: str) -> int:
    """How deep a line that looks like a numbered heading sits ("Chapter 7" and "第七章" 1, "7.18 Why
    …" 2, "3.1.2 …" 3), or 0 when it is no such heading: too long, a sentence ending in a full
    stop, or a contents line."""
    line = " ".join(line.split())
    if not line or len(line) > 100 or line.endswith((".", "。")) or is_contents_line(line):
        return 0
    if _CHAPTER.match(line):
        return 1
    if cjk := _CJK_PART.match(line):
        return 2 if cjk.group(1) == "节" else 1
    if _SECTION.match(line) and (numbered := _NUMBERED_HEADING.match(line)):
        return numbered.group(1).count(".") + 1
    return 0


def contents_share(text: str) -> float:
    """The share of `text`'s non-blank lines that are contents lines (0 for no lines): a page or a
    passage mostly made of them is a table of contents or an index."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return 0.0
    return sum(contents_flags(lines)) / len(lines)
