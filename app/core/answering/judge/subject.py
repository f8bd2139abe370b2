"""Whether a supported sentence is about what was asked: the question's subject in its supporting
span, and each number bound to that subject where the passage states it (not to a neighbour's)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.answering.evidence.gate import question_terms
from app.core.answering.evidence.lexical import background, normalize, specifics
from app.core.answering.evidence.quantities import naming_numbers, number_kinds, quantities
from app.core.answering.evidence.scoring import WeightedTerms, Weights
from app.core.keywords import is_number

Span = tuple[int, int]
# A sentence that opens with one of these talks about the sentence before it ("Its capacity is 1.8 L").
_ANAPHOR = re.compile(
    r"^\W*(?:it|its|this|these|those|they|their|them|that|such|there|he|she|his|her|both|each)\b"
    r"|^\W*(?:该|其|它|它们|此|这|这些|这个|那|那些|他|她)",
    re.IGNORECASE,
)
# What the sentence before an anaphoric sentence lends it, as a share of its own coverage.
ANAPHOR_SHARE = 0.5
# A number is bound to another subject when a sentence that holds another number covers the
# question's subject by this much more than every sentence holding the answer's number.
BINDING_MARGIN = 0.1
# A supported sentence answers the question when its supporting sentences (with the one before
# each) cover this share of the question's weighted terms (fitted on tests/core/data/verdict_cases.json).
ABOUT_THRESHOLD = 0.35
# ...and when at most this share of the weight of the question's terms that the answer sentence
# repeats is missing from those sentences.
UNSPANNED_SHARE = 0.3


@dataclass(frozen=True)
class PassageSentences:
    """A passage's sentences: their spans, texts and content terms, in order."""

    spans: Sequence[Span]
    texts: Sequence[str]
    terms: Sequence[frozenset[str]]
    # each sentence's terms without the running header or footer glued to it (boilerplate.py): what
    # the sentence is about; empty: the terms themselves
    context: Sequence[frozenset[str]] = ()
    boilerplate: frozenset[str] = frozenset()  # the terms of those headers and footers

    def context_terms(self, index: int) -> frozenset[str]:
        """The terms that say what sentence `index` is about (its own, not a page header's)."""
        return self.context[index] if self.context else self.terms[index]

    def number_kinds(self, index: int) -> dict[str, str]:
        """The figures of sentence `index` with what each measures (quantities.number_kinds); the
        numbers of a name or a page reference ("E5", "Page 4 of 5") are no figures."""
        text = normalize(self.texts[index])
        numbers = frozenset(t for t in self.terms[index] if is_number(t)) - naming_numbers(text)
        return number_kinds(numbers, quantities(text))


class QuestionSubject:
    """The question's content terms (no question words, no numbers), weighted for one set of passages."""

    def __init__(self, question: str, weights: Weights) -> None:
        self.terms = [term for term in question_terms(question) if not is_number(term)]
        self.weights = weights
        self.weighted = WeightedTerms.of(self.terms, weights, 1.0)

    @property
    def known(self) -> bool:
        return self.weighted.total > 0

    def coverage(self, found: frozenset[str]) -> float:
        return self.weighted.coverage(found)

    def in_context(self, passage: PassageSentences, index: int) -> float:
        """Coverage by sentence `index`, plus a share of the sentence before when it opens with an
        anaphor, capped at 1."""
        own = self.coverage(passage.context_terms(index))
        if index > 0 and _ANAPHOR.match(passage.texts[index]):
            own += ANAPHOR_SHARE * self.coverage(passage.context_terms(index - 1))
        return min(own, 1.0)


def about_question(
    subject: QuestionSubject,
    sentence_terms: Sequence[str],
    supporting: Sequence[tuple[PassageSentences, Sequence[Span]]],
) -> bool:
    """Whether the supporting spans (of every cited passage) are about the question: their sentences,
    with the sentence before each, cover enough of the question's weighted terms, and they hold the
    question's terms that the answer sentence repeats (an answer that glues the question to an
    unrelated sentence repeats terms its span never mentions, and often a specific word of the
    question that its passage never uses: "token" in "The first token is slower … because it is a
    no-op", over a passage about R and S)."""
    everywhere = frozenset().union(*(frozenset().union(*passage.terms) for passage, _ in supporting))
    if any(
        _names_the_subject(term) and term not in everywhere
        for term in sentence_terms
        if term in subject.weighted.weight
    ):
        return False  # the answer repeats a word of the question that no cited passage ever uses
    held: set[str] = set()
    for passage, spans in supporting:
        chosen = [i for i, span in enumerate(passage.spans) if any(_overlaps(span, s) for s in spans)]
        if chosen:  # a page's running header says what the page is about (a manual's product)
            held |= passage.boilerplate
        for index in chosen:
            held |= passage.terms[index]
            if index > 0:
                held |= passage.terms[index - 1]
    if subject.coverage(frozenset(held)) < ABOUT_THRESHOLD:
        return False
    repeated = WeightedTerms(
        {t: w for t, w in subject.weighted.weight.items() if t in set(sentence_terms)}, 0.0
    )
    repeated = WeightedTerms(repeated.weight, sum(repeated.weight.values()))
    return repeated.total == 0 or repeated.coverage(held) >= 1.0 - UNSPANNED_SHARE


def _names_the_subject(term: str) -> bool:
    """A specific Latin word of the question ("token", "tank", "Penrose"), not an everyday one: when
    the answer repeats it, a passage that never uses it is not about what was asked. (CJK answers
    reword their question too freely for one missing character or bigram to say as much.)"""
    return term.isascii() and term.isalpha() and len(term) >= 3 and background(term) == 0.0


def misbound_numbers(
    sentence_text: str, sentence_terms: Sequence[str], subject: QuestionSubject, passage: PassageSentences
) -> int:
    """How many of the sentence's numbers the passage states for something else: every passage
    sentence holding the number is about the question's subject clearly less than another sentence
    that holds a different figure of the same kind ("The drip tray holds 0.6 L" against "The water
    tank holds 1.8 L", for "How much does the tank hold?"; a page number is no rival to a height).
    The numbers of names ("error E7", "the KX-40") name the subject: they are not checked. How
    much a sentence is about the subject: its share of the question's terms, and (half and half)
    of the names the answer sentence gives."""
    if not subject.known:
        return 0
    text = normalize(sentence_text)
    claimed = frozenset(term for term in sentence_terms if is_number(term)) - naming_numbers(text)
    claimed_kinds = number_kinds(claimed, quantities(text))
    with_numbers = [i for i in range(len(passage.terms)) if passage.number_kinds(i)]
    # what a passage sentence is about, as the question names it and as the names of the answer
    # sentence do ("Josiah Penrose built the first mill in 1768": the sentence with Penrose, not the
    # one with "first", "mills" and another year)
    names = sorted(t for t in specifics(text) if not is_number(t))
    named = WeightedTerms.of(names, subject.weights, 1.0)

    def about(i: int) -> float:
        own = subject.in_context(passage, i)
        return (own + named.coverage(passage.context_terms(i))) / 2 if named.total > 0 else own

    context = {i: about(i) for i in with_numbers}
    kinds = {i: passage.number_kinds(i) for i in with_numbers}
    count = 0
    for number in claimed:
        holders = [i for i in with_numbers if number in passage.terms[i]]
        if not holders:
            continue  # not in this passage at all: the support score judges that
        mine = max(context[i] for i in holders)
        kind = claimed_kinds.get(number)
        rivals = [
            i
            for i in with_numbers
            if context[i] >= mine + BINDING_MARGIN
            and any(other not in claimed and other_kind == kind for other, other_kind in kinds[i].items())
        ]
        count += bool(rivals)
    return count


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]
