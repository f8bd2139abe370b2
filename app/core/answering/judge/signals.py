"""What the judge measures of each answer sentence: its words' support, its meaning's, and its facts."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from app.core.answering.evidence.asked import asked_dimensions, asks_quantity
from app.core.answering.evidence.evidence import Evidence
from app.core.answering.evidence.facts import Facts, facts_of, missing_facts
from app.core.answering.evidence.lexical import normalize, without_lead_in
from app.core.answering.evidence.quantities import (
    UNIT_BOUND,
    measure_another_kind,
    new_quantities,
)
from app.core.answering.evidence.sentences import split_sentences
from app.core.answering.evidence.superseded import Replacement, asks_former_value, states_former
from app.core.answering.judge.checks import Attribution, SentenceCheck
from app.core.keywords import content_terms
from app.core.names import Name, PlaceNames, names_in, place_names
from app.core.passage import Hit
from app.core.script import text_script


@dataclass(frozen=True)
class SentenceSignals:
    """One factual answer sentence, measured (cosines are -1 without an embedder)."""

    index: int  # in the attribution's sentences
    lexical: bool  # its words and numbers are in a passage (attribution.py), with no problem found
    lexical_about: bool | None  # ...and that passage's supporting span covers the question's subject
    problem: str  # "wrong_binding" | "negation" | "" (attribution.py)
    meaning: float  # its best cosine with a usable sentence of a prompt passage
    best: int  # that evidence sentence (Evidence.sentences index), -1 for none
    best_n: int  # its passage's number in the prompt (1-based), 0 for none
    question_cosine: float  # its cosine with the question
    about_cosine: float  # the question's cosine with the sentences that support it (best of them)
    located: bool  # a sentence that supports it is one Folio found for the question before the model
    missing: int  # its facts (numbers, quantities, code tokens) that the best passage lacks
    novelty: float  # the share of its terms that are not the question's
    new_facts: bool  # it states a number or a code token the question does not
    new_figures: bool  # it states a number the question does not (a code token is no figure)
    cjk: bool  # it, or its best passage sentence, is Chinese text
    # how much the passage sentences that state its new figures are about the question: for each
    # number it gives that the question does not, the best cosine of the question with a usable
    # passage sentence holding that number; the weakest of these (2.0 when it gives no new number)
    fact_about: float = 2.0
    # the same, less the best cosine of the question with any usable sentence of the prompt's
    # passages (0 when the sentence most about the question states the figure; 0.0 without numbers)
    fact_gap: float = 0.0
    # every number it gives that the question does not is stated by a sentence Folio found for the
    # question before the model ran (True when it gives no new number)
    fact_located: bool = True
    # how much more about the question than every sentence stating a figure it gives is a passage
    # sentence stating another figure of that kind (the box contents' "milk jug (350 ml)" given for
    # the long coffee, where the sentences about the coffees state their ml): the question's best cosine
    # with such a rival less its best with the figure's own sentences, the largest over its new
    # figures (-2.0: no rival, or no new figure)
    fact_rival: float = -2.0
    # the figures with units it gives that the question does not all measure something other than
    # what the question asks for ("300 tonnes" for a question about sales; evidence/asked.py)
    kind_clash: bool = False
    # it and its best passage sentence are in different scripts (Chinese and English), where its
    # cosines with the passage and with the question do not compare
    across: bool = False
    # a figure it gives is stated by a passage sentence as a former value whose replacement it does
    # not give ("81%" from "rose from 81% to 93%"; superseded.py), no passage stating that figure as
    # current holds a number the question names, and the question does not ask for the former value
    former: bool = False
    # a passage that supports it is about a sibling of a model or version the question names, and
    # none is about that one (the S3's manual for a question about the S5; app/core/names.py), or none
    # names that model's family at all while another passage of the prompt is about it (a Debian
    # guide's "E3" for a question about the KX-40's E3, the KX-40's manual among the passages)
    other_name: bool = False

    @property
    def gain(self) -> float:
        """How much closer it is to its passage sentence than to the question."""
        return self.meaning - self.question_cosine


@dataclass(frozen=True)
class Signals:
    """Every factual sentence of one answer measured, whether the answer holds a refusal, and
    whether the question asks for a quantity (a number, a measure or a date: evidence/asked.py)."""

    sentences: tuple[SentenceSignals, ...]
    refused: bool
    asks_quantity: bool = False


@dataclass(frozen=True)
class CrossLanguage:
    """Where the embedder's cosines stand for two texts in different scripts (Chinese and English):
    for unrelated texts and for a text and its translation. A cosine across scripts is put on the
    scale of one within a script, where unrelated texts stand about as far apart and a text and
    itself at 1, so one threshold serves both. Measured on translation pairs that are not eval
    data (benchmarks/calibrate_judge.py); the defaults leave cosines as they are."""

    unrelated: float = 0.0
    translation: float = 1.0

    def aligned(self, cosines: np.ndarray, across: np.ndarray) -> np.ndarray:
        """The cosines, those `across` scripts put on the within-script scale."""
        if self.translation <= self.unrelated:
            return cosines
        stretched = self.unrelated + (cosines - self.unrelated) * (1.0 - self.unrelated) / (
            self.translation - self.unrelated
        )
        result: np.ndarray = np.where(across, np.minimum(stretched, 1.0), cosines)
        return result


# Over 60 lines, left whole: the question's values worked out once (vectors, terms, facts, asked
# kinds, the best cosine) are read by every sentence's measurement below; split, each part would take
# a dozen of them as parameters.
def measure(
    question: str,
    attribution: Attribution,
    passages: Sequence[Hit],
    evidence: Evidence,
    located: Sequence[tuple[int, str]] = (),
    cross: CrossLanguage = CrossLanguage(),
) -> Signals:
    """The signals of every factual sentence of a checked answer. `evidence` covers the question's
    passages (the prompt's are among them); `located` the (chunk id, sentence) pairs Folio found;
    `cross` how cosines across Chinese and English read."""
    factual = [i for i, s in enumerate(attribution.sentences) if s.kind == "factual"]
    refused = any(s.kind == "refusal" for s in attribution.sentences)
    quantity = asks_quantity(question)
    if not factual:
        return Signals((), refused, quantity)
    bodies = [_body(attribution.sentences[i]) for i in factual]
    usable = [
        i
        for n, hit in enumerate(passages)
        if (p := evidence.passage_of(hit.chunk_id)) is not None
        for i in evidence.of_passage[p]
        if evidence.sentences[i].usable
    ]
    number = {hit.chunk_id: n + 1 for n, hit in enumerate(passages)}
    found = {(chunk, " ".join(text.split())) for chunk, text in located}
    texts = {hit.chunk_id: hit.text for hit in passages}
    vectors = evidence.vectors()
    answer_vectors = evidence.embed_texts(bodies) if vectors is not None else None
    question_terms = set(content_terms(normalize(question)))
    question_facts = facts_of(question)
    asked = asked_dimensions(question)
    asks_former = asks_former_value(question)
    chinese = np.array([_chinese(sentence.body) for sentence in evidence.sentences], dtype=bool)
    asked_chinese = _chinese(question)
    # the question's cosine with every passage sentence, across scripts put on one scale
    about_question = (
        cross.aligned(vectors[1] @ vectors[0], chinese != asked_chinese) if vectors is not None else None
    )
    top = (
        max((float(about_question[i]) for i in usable), default=-1.0) if about_question is not None else -1.0
    )
    passage_facts = {chunk: facts_of(text) for chunk, text in texts.items()}
    located_numbers = frozenset(n for _, text in located for n in facts_of(text).numbers)
    asked_names = names_in(question)
    names_of = {h.chunk_id: place_names(h) for h in passages} if asked_names else {}
    measured = []
    for row, index in enumerate(factual):
        check = attribution.sentences[index]
        body = bodies[row]
        body_chinese = _chinese(body)
        cosines = _cosines(vectors, answer_vectors, row, usable)
        cosines = cross.aligned(cosines, chinese[list(usable)] != body_chinese) if cosines.size else cosines
        best = usable[int(np.argmax(cosines))] if cosines.size else -1
        meaning = float(cosines.max()) if cosines.size else -1.0
        q_cos = -1.0
        if vectors is not None and answer_vectors is not None:
            raw = np.array([answer_vectors[row] @ vectors[0]])
            q_cos = float(cross.aligned(raw, np.array([body_chinese != asked_chinese]))[0])
        supporting = _lexical_sentences(check, passages, evidence) + ([best] if best >= 0 else [])
        about = (
            max((float(about_question[i]) for i in supporting), default=-1.0)
            if about_question is not None
            else -1.0
        )
        is_located = any(
            (evidence.sentences[i].chunk_id, _text(evidence, texts, i)) in found for i in supporting
        )
        claimed = facts_of(body)
        chunk = evidence.sentences[best].chunk_id if best >= 0 else None
        missing = (
            missing_facts(claimed, passage_facts[chunk], texts[chunk])
            if chunk is not None
            else len(claimed.numbers)
        )
        given = claimed.numbers - question_facts.numbers
        fact_about = _fact_about(given, usable, evidence, about_question)
        terms = set(content_terms(normalize(body)))
        novelty = len(terms - question_terms) / len(terms) if terms else 0.0
        measured.append(
            SentenceSignals(
                index=index,
                lexical=bool(check.supported) and not check.problem,
                lexical_about=check.on_question,
                problem=check.problem,
                meaning=meaning,
                best=best,
                best_n=number.get(chunk, 0) if chunk is not None else 0,
                question_cosine=q_cos,
                about_cosine=about,
                located=is_located,
                missing=missing,
                novelty=novelty,
                new_facts=_adds_facts(claimed, question_facts),
                new_figures=bool(given),
                cjk=body_chinese or (best >= 0 and bool(chinese[best])),
                fact_about=fact_about,
                fact_gap=fact_about - top if fact_about <= 1.0 else 0.0,
                fact_located=(claimed.numbers - question_facts.numbers) <= located_numbers,
                fact_rival=_fact_rival(
                    given, claimed.numbers | question_facts.numbers, usable, evidence, about_question
                ),
                kind_clash=_kind_clash(claimed, question_facts, asked),
                across=best >= 0 and bool(chinese[best]) != body_chinese,
                other_name=bool(asked_names)
                and _about_another(
                    asked_names,
                    [names_of[evidence.sentences[i].chunk_id] for i in supporting],
                    names_of.values(),
                ),
                former=not asks_former
                and _gives_former(
                    claimed.numbers,
                    given,
                    usable,
                    evidence,
                    question_facts.numbers,
                    passage_facts,
                ),
            )
        )
    return Signals(tuple(measured), refused, quantity)


def _chinese(text: str) -> bool:
    """Whether `text` is written in Chinese (CJK) rather than English: by its share of CJK characters,
    so that an English sentence with one stray character ("the prompt词's length") stays English."""
    return text_script(text) == "cjk"


def _body(check: SentenceCheck) -> str:
    """The sentence's text to measure: markers and an opening "according to the documents" left out."""
    split = split_sentences(check.text)
    body = " ".join(s.body for s in split) if split else check.text
    return without_lead_in(body)


def _cosines(
    vectors: tuple[np.ndarray, np.ndarray] | None,
    answer_vectors: np.ndarray | None,
    row: int,
    usable: Sequence[int],
) -> np.ndarray:
    if vectors is None or answer_vectors is None or not usable:
        return np.zeros(0)
    result: np.ndarray = vectors[1][list(usable)] @ answer_vectors[row]
    return result


def _lexical_sentences(check: SentenceCheck, passages: Sequence[Hit], evidence: Evidence) -> list[int]:
    """The evidence sentences inside the spans that the word check bound the sentence to."""
    chosen = []
    for n, spans in check.evidence.items():
        if not 1 <= n <= len(passages) or not check.supported:
            continue
        p = evidence.passage_of(passages[n - 1].chunk_id)
        if p is None:
            continue
        for i in evidence.of_passage[p]:
            s = evidence.sentences[i]
            if s.usable and any(s.start < b and a < s.end for a, b in spans):
                chosen.append(i)
    return chosen


def _fact_about(
    numbers: frozenset[str], usable: Sequence[int], evidence: Evidence, about_question: np.ndarray | None
) -> float:
    """The weakest, over the new numbers, of the best question cosine of a sentence stating it (the
    share of the question's terms such a sentence holds was tried beside it: calibration precision
    0.85 at coverage 0.34, against 0.86 at 0.38 for the cosine alone)."""
    if not numbers or about_question is None:
        return 2.0
    weakest = 2.0
    for number in numbers:
        holders = [i for i in usable if number in evidence.numbers(i)]
        best = max((float(about_question[i]) for i in holders), default=-1.0)
        weakest = min(weakest, best)
    return weakest


def _fact_rival(
    given: frozenset[str],
    known: frozenset[str],
    usable: Sequence[int],
    evidence: Evidence,
    about_question: np.ndarray | None,
) -> float:
    """For each new number (`given`), the best question cosine of a usable sentence stating a figure
    of the same kind (quantities.number_kinds, as the passages state them) that is none of `known`
    (the sentence's and the question's numbers), less the best of the sentences stating the number;
    the largest of these, -2.0 when there is none."""
    if not given or about_question is None:
        return -2.0
    largest = -2.0
    for number in given:
        holders = [i for i in usable if number in evidence.numbers(i)]
        if not holders:
            continue
        mine = max(float(about_question[i]) for i in holders)
        kinds = {evidence.number_kinds(i)[number] for i in holders}
        rival = max(
            (
                float(about_question[j])
                for j in usable
                if any(
                    kind in kinds and other not in known for other, kind in evidence.number_kinds(j).items()
                )
            ),
            default=None,
        )
        if rival is not None:
            largest = max(largest, rival - mine)
    return largest


def _gives_former(
    claimed: frozenset[str],
    given: frozenset[str],
    usable: Sequence[int],
    evidence: Evidence,
    named: frozenset[str],
    passage_facts: dict[int, Facts],
) -> bool:
    """Whether a figure of `given` (the sentence's new numbers; `claimed` all of them) is one a
    passage sentence states as a former value, replaced by one the sentence does not give, while no
    passage that states it as current names what the question names (its own numbers, "Tessel
    3.2"): the old value given as the current one."""
    for number in given:
        stating = [i for i in usable if number in evidence.numbers(i)]
        former = [i for i in stating if states_former(claimed, _replaced(evidence, i, number))]
        current = [i for i in stating if i not in former]
        if former and not any(named & passage_facts[evidence.sentences[i].chunk_id].numbers for i in current):
            return True
    return False


def _replaced(evidence: Evidence, index: int, number: str) -> frozenset[Replacement]:
    """The replacements sentence `index` states for `number` (superseded.py)."""
    return frozenset(pair for pair in evidence.replaced(index) if pair[0] == number)


def _kind_clash(claimed: Facts, question: Facts, asked: frozenset[str]) -> bool:
    """Whether the new figures of `claimed` all measure something the question (which asks for
    `asked`) does not: its new figures with units, none of an asked dimension, and at least one;
    or, for a kind always written with a unit (UNIT_BOUND), new figures none of which has a unit
    ("两块网卡" for how big a disk must be)."""
    if not asked:
        return False
    new = new_quantities(claimed.quantities, question.numbers)
    if new:  # every quantity has a unit, so a dimension
        return measure_another_kind(new, asked)
    bare = claimed.numbers - question.numbers
    return bool(bare) and asked <= UNIT_BOUND


def _about_another(
    asked: frozenset[Name], supporting: Sequence[PlaceNames], passages: Collection[PlaceNames]
) -> bool:
    """Whether the passages supporting the sentence are about something other than a model the
    question names: one is about a sibling of it and none about it, or none names its family at all
    while another of the prompt's passages is about it (a general guide is no other model's page
    when the library holds none about the one asked)."""
    sibling = any(names.about_another(asked) for names in supporting) and not any(
        names.about_asked(asked) for names in supporting
    )
    unnamed = bool(supporting) and any(
        all(names.silent_on(name) for names in supporting)
        and any(names.about_asked((name,)) for names in passages)
        for name in asked
    )
    return sibling or unnamed


def _text(evidence: Evidence, texts: dict[int, str], index: int) -> str:
    s = evidence.sentences[index]
    return " ".join(texts[s.chunk_id][s.start : s.end].split())


def _adds_facts(claimed: Facts, question: Facts) -> bool:
    return bool(claimed.numbers - question.numbers) or bool(claimed.codes - question.codes)
