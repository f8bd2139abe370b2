"""Marks on a finished answer: verified and matched citation links, unsupported sentences underlined."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument

from app.core.api import SentenceCheck, marker_numbers
from app.gui.markdown_stream import CITATION, link_citations

UNSUPPORTED_COLOR = "#b3261e"
_MARKDOWN_NOISE = re.compile(r"[*_`#>]+|^\s*(?:[-+]|\d+[.)])\s+", re.MULTILINE)


def annotated_markdown(text: str, sentences: Sequence[SentenceCheck]) -> str:
    """The answer's Markdown with, per sentence: its verified markers as `cite:n-i` links, markers
    whose passage does not support it struck through, and the citations Folio matched for it
    appended as `match:n-i` links (i: the sentence's index)."""
    if not sentences:
        return link_citations(text, valid=None)
    out: list[str] = []
    position = 0
    for index, sentence in enumerate(sentences):
        out.append(link_citations(text[position : sentence.start], valid=set()))
        segment = text[sentence.start : sentence.end]
        linked = link_citations(segment, valid=set(sentence.citations), sentence=index)
        own = set(marker_numbers(segment))
        added = [n for n in sentence.citations if n not in own]
        if added:
            links = ", ".join(f"[{n}](match:{n}-{index})" for n in added)
            body = linked.rstrip()
            linked = f"{body} \\[{links}\\]{linked[len(body) :]}"
        out.append(linked)
        position = sentence.end
    out.append(link_citations(text[position:], valid=set()))
    return "".join(out)


def plain_pieces(sentence: str) -> list[str]:
    """The stretches of the sentence the rendered document shows unbroken: split at citation
    markers, without Markdown marks, with single spaces."""
    pieces = CITATION.sub("\x00", _MARKDOWN_NOISE.sub("", sentence)).split("\x00")
    return [" ".join(piece.split()) for piece in pieces if piece.strip(" .,;:!?。，；：！？")]


def mark_unsupported(
    document: QTextDocument, sentences: Sequence[SentenceCheck], tip: str, off_question_tip: str = ""
) -> int:
    """Underline (dotted, red, with `tip` as tooltip) every unsupported sentence found in the rendered
    document, and (with `off_question_tip`) every supported one that is not about the question;
    returns how many were marked."""
    marked = 0
    cursor = QTextCursor(document)
    for sentence in sentences:
        if sentence.supported is False:
            text = tip
        elif sentence.supported and sentence.on_question is False and off_question_tip:
            text = off_question_tip
        else:
            continue
        style = QTextCharFormat()
        style.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        style.setUnderlineColor(QColor(UNSUPPORTED_COLOR))
        style.setToolTip(text)
        hits = 0
        for piece in plain_pieces(sentence.text):
            found = document.find(piece, cursor)
            if found.isNull():
                continue
            found.mergeCharFormat(style)
            cursor = found
            hits += 1
        marked += 1 if hits else 0
    return marked
