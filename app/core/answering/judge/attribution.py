"""Attribution: how well each answer sentence is supported by each passage, and the citations that fit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from app.core.answering.evidence.boilerplate import repeated_spans, without_spans
from app.core.answering.evidence.lexical import is_connective, normalize, specifics, without_lead_in
from app.core.answering.evidence.quantities import clashes, quantities
from app.core.answering.evidence.scoring import (
    Embed,
    Matrix,
    WeightedTerms,
    Weights,
    cosine_matrix,
    scaled_cosine,
)
from app.core.answering.evidence.sentences import Sentence, split_sentences
from app.core.answering.judge.checks import Attribution, Kind, SentenceCheck, Source, Span
from app.core.answering.judge.negation import asserts_denied
from app.core.answering.judge.refusal import is_refusal
from app.core.answering.judge.subject import (
    PassageSentences,
    QuestionSubject,
    about_question,
    misbound_numbers,
)
from app.core.embed.engine import CosineScales
from app.core.keywords import CJK_FUNCTION, CJK_LETTER, content_terms, is_number
from app.core.names import Name, Place, named, names_in, title_of, without_names
from app.core.script import has_cjk


@dataclass(frozen=True)
class Calibration:
    """How the signals combine into `support` ∈ [0, 1] and where "supported" starts.

    The defaults were fitted on tests/core/data/attribution_pairs.json by
    benchmarks/calibrate_attribution.py (figures in benchmarks/results/attribution_calibration.json).
    """

    number_boost: float = 1.0  # a number weighs this much more than a word of the same rarity
    embedding_share: float = 0.1  # weight of the embedding evidence (noisy-or with the lexical), Latin
    embedding_share_cjk: float = 0.0  # the same for CJK sentences (the English embedder reads them poorly)
    # cosines that count as no / full evidence: the embedder's own scales (embed/engine.py) unless
    # set here (calibrate_attribution.py tries others)
    cosine_floor: float | None = None
    cosine_ceiling: float | None = None
    missing_here: float = 0.65  # factor lost per number/name absent from this passage
    missing_everywhere: float = 0.65  # factor lost per number/name absent from every passage
    threshold: float = 0.375  # supported from here, lexical evidence only
    threshold_embedded: float = 0.4  # supported from here, with embeddings


CALIBRATION = Calibration()
# A further passage sentence is evidence too when it adds this share of the answer sentence's term weight.
EXTRA_EVIDENCE = 0.2
# Several passages support a sentence together only when each holds this share of its term weight.
PART_SHARE = 0.15
# A supported sentence cites a second passage too when the pair's support is this much higher.
PAIR_GAIN = 0.2
# The weight of a term the answer sentence repeats from the question, as a share of its weight: the
# asker's wording of the subject need not be the passage's; what the answer adds must be there.
# (Whether the supporting span is about the question is judged apart: subject.about_question.)
QUESTION_TERM_SHARE = 0.5


class _Passage:
    """A passage's text, its sentences with their terms, and all its terms."""

    def __init__(self, text: str, place: Place | None = None) -> None:
        self.text = text
        title = title_of(place) if place is not None else ""
        # every sentence of the passage is about its title's names and words ("KX-40", "Aurelia")
        self.title_names = names_in(title)
        words = content_terms(without_names(normalize(title)))  # a name counts whole (_titled)
        self.title_words = frozenset(t for t in words if not is_number(t))
        self.document = place.document if place is not None else None
        split = split_sentences(text)
        self.pieces = [((s.start, s.end), frozenset(content_terms(normalize(s.body)))) for s in split]
        self.terms = frozenset().union(*(piece_terms for _, piece_terms in self.pieces))
        self.quantities = quantities(normalize(text))
        self.sentences = PassageSentences(
            [span for span, _ in self.pieces], [s.body for s in split], [terms for _, terms in self.pieces]
        )

    def set_boilerplate(self, repeated: Sequence[Span]) -> None:
        """Mark the runs that repeat in other passages (a running header): the sentences they are
        glued to are about their own words only (PassageSentences.context)."""
        if not repeated:
            return
        context = [
            frozenset(content_terms(normalize(without_spans(self.text, start, end, repeated))))
            if any(a < end and start < b for a, b in repeated)
            else terms
            for (start, end), terms in self.pieces
        ]
        header = " ".join(self.text[a:b] for a, b in repeated)
        self.sentences = replace(
            self.sentences, context=context, boilerplate=frozenset(content_terms(normalize(header)))
        )


def _kind_of(sentence: Sentence) -> Kind:
    if is_refusal(sentence.body):
        return "refusal"
    return "connective" if is_connective(normalize(sentence.body)) else "factual"


def _cosines(
    bodies: list[str], passage_vectors: npt.ArrayLike | None, embed: Embed | None, passages: int
) -> Matrix | None:
    """Sentence × passage cosines, or None without vectors; all sentences embedded in one call."""
    if passage_vectors is None or embed is None or not bodies or not passages:
        return None
    stored = np.asarray(passage_vectors, dtype=np.float64)
    if stored.ndim != 2 or stored.shape[0] != passages:
        raise ValueError(
            f"passage_vectors must have one row per passage ({passages}), got shape {stored.shape}"
        )
    vectors = np.asarray(embed(bodies), dtype=np.float64)
    if vectors.ndim != 2 or vectors.shape != (len(bodies), stored.shape[1]):
        raise ValueError(
            f"embed() must return {len(bodies)} vectors of dimension {stored.shape[1]}, "
            f"got shape {vectors.shape}"
        )
    return cosine_matrix(vectors, stored)


class _Scores:
    """What one sentence finds in each passage; its support by one passage or by several together."""

    def __init__(
        self,
        body: str,
        passages: Sequence[_Passage],
        weights: Weights,
        cosines: Matrix | None,
        calibration: Calibration,
        scales: CosineScales | None,
        asked: frozenset[str] = frozenset(),
    ) -> None:
        text = normalize(without_lead_in(body))
        self.terms = [term for term in dict.fromkeys(content_terms(text)) if not _straddles(term)]
        weighted = WeightedTerms.of(self.terms, weights, calibration.number_boost)
        weight = {
            term: w * (QUESTION_TERM_SHARE if term in asked and not is_number(term) else 1.0)
            for term, w in weighted.weight.items()
        }
        self.weighted = WeightedTerms(weight, sum(weight.values()))
        self._required = specifics(text)
        self._quantities = quantities(text)
        self._passage_quantities = [p.quantities for p in passages]
        # the sentence's terms and required terms each passage holds
        wanted = self._required.union(self.terms)
        names = [(name, frozenset(content_terms(spelled))) for name, spelled in named(text)]  # read once
        self._held = [
            frozenset(t for t in wanted if t in p.terms or (t in self._required and t in p.title_words))
            | _titled(names, p)
            for p in passages
        ]
        anywhere = frozenset().union(*self._held)
        self._nowhere = sum(1 for term in self._required if term not in anywhere)
        self._share = calibration.embedding_share_cjk if has_cjk(text) else calibration.embedding_share
        self._calibration = calibration
        self._semantic: list[float] | None = None
        if cosines is not None and scales is not None:
            floor, ceiling = calibration.cosine_floor, calibration.cosine_ceiling
            floor = scales.attribution_floor if floor is None else floor
            ceiling = scales.attribution_ceiling if ceiling is None else ceiling
            self._semantic = [scaled_cosine(float(c), floor, ceiling) for c in cosines]

    def support(self, indices: Sequence[int]) -> float:
        """Support in [0, 1] by the passages at `indices` (0-based) taken together."""
        held = frozenset().union(*(self._held[i] for i in indices))
        score = self.weighted.share(self.weighted.weight_of(held))
        if self._semantic is not None:  # either signal may carry the evidence (a noisy-or)
            semantic = self._share * max(self._semantic[i] for i in indices)
            score = 1.0 - (1.0 - score) * (1.0 - semantic)
        absent_here = sum(1 for term in self._required if term not in held) - self._nowhere
        if self._quantities:  # "12 minutes" where the passages say "12 seconds"
            absent_here += clashes(
                self._quantities, frozenset().union(*(self._passage_quantities[i] for i in indices))
            )
        score *= (1.0 - self._calibration.missing_here) ** absent_here
        return score * (1.0 - self._calibration.missing_everywhere) ** self._nowhere

    def adds(self, index: int, others: Sequence[int]) -> bool:
        """Whether passage `index` holds its own part of the sentence, which `others` lack: a fair share
        of the term weight, in two terms or more, not only numbers (a year alone is no part)."""
        added = self._held[index].difference(*(self._held[i] for i in others))
        gain = self.weighted.weight_of(added)
        return (
            gain >= PART_SHARE * self.weighted.total > 0 and len(added) > 1 and not all(map(is_number, added))
        )


def _titled(names: Sequence[tuple[Name, frozenset[str]]], passage: _Passage) -> frozenset[str]:
    """The terms of the sentence's names (each with its terms) that the passage's title gives ("KX-40"
    in the KX-40 manual; its 40 is no figure of the passage otherwise, nor any other number of a title)."""
    return frozenset().union(*(terms for name, terms in names if name in passage.title_names))


def _straddles(term: str) -> bool:
    """A CJK bigram with a function character ("米到", "概在"): most often it straddles two words, a
    seam of the sentence's own phrasing that no passage need share (its characters are terms too)."""
    return len(term) == 2 and CJK_LETTER.match(term) is not None and any(c in CJK_FUNCTION for c in term)


def _evidence_spans(wanted: WeightedTerms, passage: _Passage) -> tuple[Span, ...]:
    """[start, end) of the passage's sentences that hold most of the answer sentence's terms (at most
    three, greedily by the weight of the terms they add); the whole passage when none holds any."""
    chosen: list[Span] = []
    covered: set[str] = set()
    while len(chosen) < 3:
        best_gain, best_span, best_terms = 0.0, None, frozenset[str]()
        for span, piece_terms in passage.pieces:
            if span in chosen:
                continue
            gain = wanted.found_in(piece_terms, covered)
            if gain > best_gain:
                best_gain, best_span, best_terms = gain, span, piece_terms
        if best_span is None or (chosen and best_gain < EXTRA_EVIDENCE * wanted.total):
            break
        chosen.append(best_span)
        covered |= best_terms
    if not chosen:
        stripped = passage.text.strip()
        start = passage.text.find(stripped[:1]) if stripped else 0
        return ((start, start + len(stripped)),)
    return tuple(sorted(chosen))


def attribute(
    answer: str,
    passages: Sequence[str],
    *,
    passage_vectors: npt.ArrayLike | None = None,
    embed: Embed | None = None,
    scales: CosineScales | None = None,
    calibration: Calibration = CALIBRATION,
    question: str | None = None,
    places: Sequence[Place] = (),
) -> Attribution:
    """Check every sentence of `answer` against `passages` ([1] is passages[0]).

    passage_vectors: the passages' stored embeddings (one row each), embed: the embedder's function for
    the sentences (called once, with all of them), scales: how its cosines read. Without all three,
    only lexical evidence counts.
    A marker naming no passage (e.g. [9] of 8) is a wrong citation too. Raises ValueError for vectors
    whose shape does not fit the passages. With the `question`, a supported sentence is also checked
    for being about it (`on_question`), and one whose number the passage states for another subject
    is not supported (`problem` "wrong_binding"). `places`: where each passage stands (its hit): a
    passage holds its title's names and words (names.title_of: the heading path and file name), and
    two passages support a sentence together only when they are of one document.
    """
    sentences = split_sentences(answer)
    prepared = [_Passage(text, places[n] if n < len(places) else None) for n, text in enumerate(passages)]
    for passage, repeated in zip(prepared, repeated_spans(passages), strict=True):
        passage.set_boilerplate(repeated)
    weights = Weights.of([p.terms for p in prepared])
    kinds = [_kind_of(sentence) for sentence in sentences]
    factual = [i for i, kind in enumerate(kinds) if kind == "factual"]
    usable = embed if scales is not None else None
    cosines = _cosines([sentences[i].body for i in factual], passage_vectors, usable, len(prepared))
    threshold = calibration.threshold if cosines is None else calibration.threshold_embedded
    subject = QuestionSubject(question, weights) if question is not None else None
    asked = frozenset(content_terms(normalize(question))) if question is not None else frozenset()
    checks: list[SentenceCheck] = []
    for index, (sentence, kind) in enumerate(zip(sentences, kinds, strict=True)):
        if kind != "factual":
            checks.append(
                SentenceCheck(
                    sentence.text, sentence.start, sentence.end, (), "none", 0.0, None, kind, (), {}
                )
            )
            continue
        row = None if cosines is None else cosines[factual.index(index)]
        scores = _Scores(sentence.body, prepared, weights, row, calibration, scales, asked)
        check = _without_denied(_checked_sentence(sentence, scores, threshold, prepared), prepared)
        checks.append(check if subject is None else _on_subject(check, scores, subject, prepared))
    judged = [check for check in checks if check.supported is not None]
    rate = sum(1 for check in judged if check.supported) / len(judged) if judged else None
    wrong = tuple(dict.fromkeys(n for check in checks for n in check.wrong_citations))
    return Attribution(tuple(checks), rate, wrong)


def _checked_sentence(
    sentence: Sentence,
    scores: _Scores,
    threshold: float,
    passages: Sequence[_Passage],
) -> SentenceCheck:
    """Keep the markers whose passage supports the sentence (alone, or all of them together when each
    adds its part), else cite the best supporting passage, else the best pair of passages."""
    single = [scores.support((i,)) for i in range(len(passages))]
    valid = [n for n in sentence.markers if 1 <= n <= len(passages)]
    right = [n for n in valid if single[n - 1] >= threshold]
    support = max((single[n - 1] for n in right), default=0.0)
    together = [n - 1 for n in valid]
    if (
        not right
        and len(together) > 1
        and scores.support(together) >= threshold
        and all(scores.adds(i, [j for j in together if j != i]) for i in together)
    ):
        right, support = valid, scores.support(together)
    best = max(range(len(single)), key=lambda i: single[i]) if single else -1
    source: Source = "model"
    citations: tuple[int, ...] = tuple(right)
    if not right:
        source, citations = "matched", ()
        pair = _best_pair(scores, best, passages, threshold)
        pair_support = scores.support([n - 1 for n in pair]) if pair else 0.0
        if best >= 0 and single[best] >= threshold and pair_support < single[best] + PAIR_GAIN:
            citations, support = (best + 1,), single[best]
        elif pair:
            citations, support = pair, pair_support
        else:
            source, support = "none", single[best] if best >= 0 else 0.0
    evidence = {n: _evidence_spans(scores.weighted, passages[n - 1]) for n in citations}
    wrong = tuple(n for n in sentence.markers if n not in right)
    return SentenceCheck(
        sentence.text,
        sentence.start,
        sentence.end,
        citations,
        source,
        support,
        bool(citations),
        "factual",
        wrong,
        evidence,
    )


def _unsupported(check: SentenceCheck, problem: str) -> SentenceCheck:
    """A supported sentence judged unsupported for `problem`: its citations dropped (the model's own
    markers counted as wrong), its support discounted as for a passage that lacks a term."""
    return replace(
        check,
        citations=(),
        source="none",
        supported=False,
        support=check.support * (1.0 - CALIBRATION.missing_here),
        wrong_citations=(*check.wrong_citations, *(check.citations if check.source == "model" else ())),
        evidence={},
        problem=problem,
    )


def _without_denied(check: SentenceCheck, passages: Sequence[_Passage]) -> SentenceCheck:
    """A supported sentence that states what every supporting span denies ("可以水洗" over "不可水洗")
    is not supported (problem "negation")."""
    if not check.supported or not all(
        asserts_denied(check.text, [passages[n - 1].text[a:b] for a, b in check.evidence.get(n, ())])
        for n in check.citations
    ):
        return check
    return _unsupported(check, "negation")


def _on_subject(
    check: SentenceCheck, scores: _Scores, subject: QuestionSubject, passages: Sequence[_Passage]
) -> SentenceCheck:
    """The check with the question in view: a number every cited passage binds to another subject
    makes the sentence unsupported; a supported sentence is on the question when a cited passage's
    supporting span covers enough of the question's subject."""
    if not check.supported:
        return check
    if all(
        misbound_numbers(check.text, scores.terms, subject, passages[n - 1].sentences)
        for n in check.citations
    ):
        return _unsupported(check, "wrong_binding")
    if not subject.known:
        return replace(check, on_question=True)
    supporting = [(passages[n - 1].sentences, check.evidence.get(n, ())) for n in check.citations]
    return replace(check, on_question=about_question(subject, scores.terms, supporting))


def _best_pair(scores: _Scores, best: int, passages: Sequence[_Passage], threshold: float) -> tuple[int, ...]:
    """The best passage with the one other passage of its document that together support the
    sentence ("finished in 1893 [1] and flashing green [2]"), each adding its own part. Never two
    documents: a figure of one and a subject of another make no fact (README.md, "One word check")."""
    if best < 0:
        return ()
    pairs = [
        (scores.support((best, other)), other)
        for other, passage in enumerate(passages)
        if other != best and passage.document == passages[best].document
        if scores.adds(other, (best,)) and scores.adds(best, (other,))
    ]
    support, other = max(pairs, default=(0.0, -1))
    return tuple(sorted((best + 1, other + 1))) if support >= threshold else ()
