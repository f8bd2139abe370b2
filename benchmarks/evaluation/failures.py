"""Why a wrong answer is wrong: one class per answerable question a model got wrong."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from app.core.answering.judge.refusal import is_refusal
from app.core.keywords import content_terms
from app.core.normalize import normalize_text
from app.core.prompt.citations import strip_markers
from benchmarks.evaluation.dataset import Question, answer_matches
from benchmarks.evaluation.scoring import overlaps

CLASSES = (
    "restated the question",
    "bare marker",
    "refused while the answer was there",
    "right page not in the prompt",
    "wrong figure from the right passage",
    "other",
)
# an answer adds this little beyond the question's own terms: it restates it
RESTATED_NOVELTY = 0.34
_NUMBER = re.compile(r"\d")


def classify(question: Question, answer: str, passages: Sequence[dict[str, Any]]) -> str:
    """The class of a wrong answer to an answerable question, given the passages the prompt showed
    (dicts with document, page, page_end, text), in the order of CLASSES: the first that applies."""
    bare = strip_markers(answer).strip(" \t\n.。:：-*")
    if not bare:
        return "bare marker"
    right_pages = [p for p in passages if overlaps(question, p["document"], p["page"], p["page_end"])]
    holds = any(answer_matches(question.answers, p["text"]) for p in right_pages) or (
        question.cross and bool(right_pages)
    )
    if is_refusal(answer):
        return "refused while the answer was there" if holds else "right page not in the prompt"
    if _restates(question.question, bare):
        return "restated the question"
    if not right_pages:
        return "right page not in the prompt"
    if _NUMBER.search(bare) and question.kind in ("number", "wrong-binding"):
        return "wrong figure from the right passage"
    return "other"


def _restates(question: str, answer: str) -> bool:
    """The answer's first sentence adds (almost) no term the question lacks, and no number."""
    first = re.split(r"(?<=[.!?。！？])\s*", normalize_text(answer), maxsplit=1)[0]
    terms = set(content_terms(first))
    if not terms or any(t[:1].isdigit() for t in terms - set(content_terms(normalize_text(question)))):
        return False
    novel = terms - set(content_terms(normalize_text(question)))
    return len(novel) / len(terms) <= RESTATED_NOVELTY
