"""Table-of-contents, index and dotted-leader lines: text that lists where things are, not what they say."""

from __future__ import annotations

import re

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


def contents_share(text: str) -> float:
    """The share of `text`'s non-blank lines that are contents lines (0 for no lines): a page or a
    passage mostly made of them is a table of contents or an index."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return 0.0
    return sum(1 for line in lines if is_contents_line(line)) / len(lines)
