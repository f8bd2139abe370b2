"""Whether an answer asserts what its supporting passage denies ("可以水洗" against "不可水洗")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.core.answering.evidence.lexical import normalize
from app.core.keywords import content_terms
from app.core.script import has_cjk

# A negation and the clause it governs, up to the next punctuation. Chinese words that only
# contain a negation character (不同 different, 不过 but, 未来 future, 不少 many) are no negation.
_LATIN = re.compile(
    r"\b(?:not|no|never|cannot|can't|don't|doesn't|didn't|isn't|aren't|wasn't|won't|mustn't|"
    r"shouldn't|without)\b([^.,;:!?\n]*)",
    re.IGNORECASE,
)
_CJK = re.compile(
    r"(?:不(?![同过仅但断久少错论])|没有?|未(?!来)|勿|别(?![的人处]))([^，。；：！？,.;:!?\n]*)"
)
# What stands between a negation and the word it denies ("不可水洗", "must not be washed").
_CJK_MODAL = re.compile(r"^(?:可以|可|能够|能|会|得|要|应该|应|该|宜|准|需要|需|必须|必|用|是|再|要求)+")
_LATIN_FILLER = frozenset(
    {"be", "been", "being", "to", "the", "a", "an", "it", "them", "this", "that", "any", "ever"}
)
PHRASE_TERMS = 2  # content terms after the negation that make up what it denies
# A Latin negation denies something specific only with two content terms ("not be washed with water",
# not "do not switch it on"); a Chinese two-character word is specific enough ("不可水洗").
LATIN_MIN_TERMS = 2


# A negation in a condition denies nothing the sentence states ("…除非你有特殊的理由不使用",
# "unless you do not need it").
_CONDITION = re.compile(r"除非|如果|假如|若|要是|否则|unless|\bif\b|except|otherwise", re.IGNORECASE)
_CLAUSE_START = re.compile(r"[，。；：！？,.;:!?\n]")


def _in_condition(text: str, at: int) -> bool:
    """Whether position `at` stands in a condition clause (a condition word since the last punctuation)."""
    start = max((m.end() for m in _CLAUSE_START.finditer(text, 0, at)), default=0)
    return _CONDITION.search(text, start, at) is not None


def denied_phrases(text: str) -> list[frozenset[str]]:
    """What each negation of `text` denies: the first PHRASE_TERMS content terms after it (Chinese:
    the first two-character terms after any modal verb); none for a negation in a condition."""
    phrases: list[frozenset[str]] = []
    for match in _CJK.finditer(text):
        if _in_condition(text, match.start()):
            continue
        clause = _CJK_MODAL.sub("", match.group(1).strip())
        bigrams = [t for t in content_terms(normalize(clause)) if len(t) == 2 and has_cjk(t)]
        if bigrams:
            phrases.append(frozenset(bigrams[:PHRASE_TERMS]))
    for match in _LATIN.finditer(text):
        if _in_condition(text, match.start()):
            continue
        words = [w for w in re.findall(r"[A-Za-z]+", match.group(1).lower()) if w not in _LATIN_FILLER]
        terms = [t for t in content_terms(normalize(" ".join(words[:4]))) if not has_cjk(t)]
        if len(terms) >= LATIN_MIN_TERMS:
            phrases.append(frozenset(terms[:PHRASE_TERMS]))
    return phrases


def asserts_denied(answer: str, supporting: Iterable[str]) -> bool:
    """True when a supporting text denies something the answer states without a negation of its
    own: every term of a denied phrase is in the answer, and no negation of the answer touches it.
    (The other way round, an answer denying what a page states, is not judged: "do not switch it on
    yet" over "switch it off" would read as a contradiction.)"""
    answer_terms = frozenset(content_terms(normalize(answer)))
    answer_denies = frozenset().union(*denied_phrases(answer))
    for text in supporting:
        for phrase in denied_phrases(text):
            if phrase <= answer_terms and not phrase & answer_denies:
                return True
    return False
