"""What the prompt shows of the sentences Folio located: the passages alone, the located sentences
alone ("found": locate, then answer from them), or the passages with the located sentences repeated
after the question ("hinted"); and the figures the answer may write when they are limited to them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from app.core.answering.evidence.excerpts import NEIGHBOURS, excerpt
from app.core.answering.evidence.locate import LocatedSentence
from app.core.answering.evidence.sentences import split_sentences
from app.core.passage import Hit
from app.core.script import cjk_language

_FIGURE = re.compile(r"[0-9０-９]+(?:[.,:][0-9０-９]+)*")
_HINT_EN = "The sentences of the passages that seem to answer it (check them against the passages):"
_HINT_ZH = "段落中看起来回答了这个问题的句子（请对照段落核实）："


def found_passages(hits: Sequence[Hit], located: Sequence[LocatedSentence]) -> list[Hit]:
    """The passages that hold a located sentence, best first, each cut to its located sentences and
    their neighbours (labels, pages and ids unchanged). No located sentence: the passages as found."""
    if not located:
        return list(hits)
    wanted: dict[int, set[str]] = {}
    for found in located:
        wanted.setdefault(found.citation.n - 1, set()).add(found.sentence)
    shown: list[Hit] = []
    for index, texts in wanted.items():
        hit = hits[index]
        sentences = split_sentences(hit.text)
        chosen = [i for i, s in enumerate(sentences) if s.text.strip() in texts]
        kept = sorted(
            {k for i in chosen for k in range(i - NEIGHBOURS, i + NEIGHBOURS + 1) if 0 <= k < len(sentences)}
        )
        shown.append(replace(hit, text=excerpt(hit.text, sentences, kept)) if kept else hit)
    return shown


def numbered_found(shown: Sequence[Hit], located: Sequence[LocatedSentence]) -> list[str]:
    """The located sentences as "[n] sentence", n the number of its passage as the prompt numbers
    `shown`; a sentence whose passage is not shown is left out."""
    numbers = {hit.chunk_id: n for n, hit in enumerate(shown, start=1)}
    return [
        f"[{numbers[found.citation.chunk_id]}] {found.sentence}"
        for found in located
        if found.citation.chunk_id in numbers
    ]


def hinted_question(question: str, shown: Sequence[Hit], located: Sequence[LocatedSentence]) -> str:
    """The question followed by the located sentences, each with the number of its passage as the
    prompt numbers them; the question alone when none was located or its passage is not shown."""
    lines = numbered_found(shown, located)
    if not lines:
        return question
    header = _HINT_ZH if cjk_language(question) is not None else _HINT_EN
    return "\n".join([question, "", header, *lines])


def found_figures(question: str, located: Sequence[LocatedSentence]) -> list[str]:
    """The numbers as spelled in the located sentences and the question ("1.8", "2025", "40" of
    "KX-40"): the only ones an answer limited to its found figures may write."""
    spelled: set[str] = set()
    for text in [question, *(found.sentence for found in located)]:
        spelled.update(_FIGURE.findall(text))
    return sorted(spelled)
