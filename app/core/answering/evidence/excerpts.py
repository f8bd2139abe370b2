"""Evidence selection: each passage cut to an excerpt of the sentences that matter for the question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from app.core.answering.evidence.asked import asks_quantity, named_numbers, new_numbers
from app.core.answering.evidence.evidence import SHAPE_WIDTH, Evidence, contents_marks, shape
from app.core.answering.evidence.gate import question_terms
from app.core.answering.evidence.lexical import normalize
from app.core.answering.evidence.scoring import Embed, WeightedTerms, Weights, cosine_matrix, scaled_cosine
from app.core.answering.evidence.sentences import Sentence, split_sentences
from app.core.embed.engine import CosineScales
from app.core.keywords import content_terms
from app.core.names import Place, name_terms, name_texts, title_of, without_names
from app.core.passage import Hit
from app.core.script import has_cjk

GAP = " … "  # stands where sentences were left out, so the model knows the text is not whole
KEEP_WHOLE_SENTENCES = 3  # a passage this short is kept as it is
KEEP_SHARE = 0.5  # the share of a passage's text kept, best sentences first
NEIGHBOURS = 1  # sentences kept on each side of the best one (a pronoun's subject, a table's header)
NUMBER_BOOST = 2.0  # a number in the question ("E7", "LP-07", "3.2") names what is asked
KEEP_WHOLE_SHARE = 0.8  # when the selection keeps this much of a passage's text, keep all of it
# A sentence's cosine counts half: a short heading that names the subject ("Page 4 of 5 Aurelia KX-40
# Espresso Machine - Owner's Manual 8.") sits close to any question about it (measured on the eval's
# located sentences, answer held by the first three: cosine weight 1.0 / 0.5 / 0.25: en 35 / 36 / 35
# of 56 answerable questions, zh 34 of 60 each).
COSINE_WEIGHT = 0.5
# A sentence in the other script (a Chinese sentence for an English question) shares no words with
# the question but its numbers and names, so its cosine must carry it: the more of the passages
# stand in the other script, the likelier the answer is there, and its cosine weighs from
# COSINE_WEIGHT (no passage) up to this (every passage in the other script). Fitted on the
# calibration half (benchmarks/bench_locate.py --across-weights 0.5,1,1.5,2,3; the first found line
# holds the answer, en→zh 0.21 / 0.30 / 0.30 / 0.32 / 0.34, zh→en 0.15 / 0.29 / 0.33 / 0.33 / 0.35,
# en 0.54 / 0.54 / 0.54 / 0.51 / 0.51; the three found lines, zh 0.74 / 0.71 / 0.71 / 0.69 / 0.69).
# A flat 1.0 for every other-script sentence gave en→zh 0.34 and zh→en 0.33 but pushed the answer out
# of same-language questions with a passage in the other language (en 0.51; the three, en and zh 0.69).
ACROSS_COSINE_WEIGHT = 1.5
QUANTITY_BONUS = 0.2  # a question that asks "how many" is answered by a sentence that holds a number


@dataclass(frozen=True)
class SentenceScore:
    """One passage sentence, how much of the question's term weight it holds and its scaled cosine."""

    sentence: Sentence
    coverage: float
    cosine: float
    cosine_weight: float = COSINE_WEIGHT  # more for a sentence in the other script than the question's

    @property
    def score(self) -> float:
        return self.coverage + self.cosine_weight * self.cosine


def score_sentences(
    question: str,
    texts: Sequence[str],
    embed: Embed | None,
    scales: CosineScales | None,
    evidence: Evidence | None = None,
    titles: Sequence[frozenset[str]] = (),
) -> list[list[SentenceScore]]:
    """Every sentence of every passage scored against the question: the share of the question's
    weighted terms it holds, plus, with an embedder, its cosine to the question on the embedder's
    gate scale (for a Chinese question only when its `scales` say such cosines count), weighed
    COSINE_WEIGHT, or for a sentence in the other script more, as more of the passages are
    (ACROSS_COSINE_WEIGHT).
    Terms are weighed by how many passages hold them, so the subject that every retrieved passage
    names ("the KX-40") counts less than what is asked about it; a sentence repeated on several
    passages (a running page header) scores nothing, and so does a table of contents, index or
    dotted-leader line; a question that asks for a quantity prefers sentences that hold a number it
    does not name itself. A model or error code ("KX-60", "E5") is one term, weighed as a number,
    not its letters and its number ("E5" is no "five", nor "E3"), which a sentence holds when it
    names it or its passage's title does (`titles`: each passage's title_terms), so the line "E5:
    the boiler has overheated" of the KX-60's guide outscores its "E7" and "five levels" lines; the
    digits of a name are no figure ("E7" does not answer "how long"). `evidence` (the same texts
    worked out once) gives the cosines."""
    asked = normalize(question)
    chinese = has_cjk(asked)
    across_share = sum(1 for text in texts if has_cjk(text) != chinese) / len(texts) if texts else 0.0
    across_weight = COSINE_WEIGHT + (ACROSS_COSINE_WEIGHT - COSINE_WEIGHT) * across_share
    wanted = [*question_terms(without_names(asked)), *name_terms(asked)]
    split = [split_sentences(text) for text in texts]
    titled = list(titles) or [frozenset() for _ in texts]
    sentence_terms = [
        [set(content_terms(body := normalize(s.body))).union(name_terms(body), title) for s in sentences]
        for sentences, title in zip(split, titled, strict=True)
    ]
    weights = Weights.of([set().union(*found) if found else set() for found in sentence_terms])
    weighted = WeightedTerms.of(wanted, weights, NUMBER_BOOST)
    repeated = _repeated_sentences(split)
    quantity = asks_quantity(question)
    named = named_numbers(question)  # once, not per sentence
    bodies = [s.body for sentences in split for s in sentences]
    cosines = _scaled_cosines(question, bodies, embed, scales, evidence) if bodies else []
    scored: list[list[SentenceScore]] = []
    position = 0
    for sentences, found_terms in zip(split, sentence_terms, strict=True):
        row: list[SentenceScore] = []
        contents = contents_marks([s.body for s in sentences])
        for sentence, found, listed in zip(sentences, found_terms, contents, strict=True):
            coverage = weighted.coverage(found)
            if coverage > 0 and quantity and new_numbers(_figures(sentence.body), named):
                coverage += QUANTITY_BONUS
            cosine = cosines[position] if cosines else 0.0
            if shape(sentence.body) in repeated or listed:
                coverage, cosine = 0.0, 0.0
            weight = across_weight if has_cjk(sentence.body) != chinese else COSINE_WEIGHT
            row.append(SentenceScore(sentence, coverage, cosine, weight))
            position += 1
        scored.append(row)
    return scored


def title_terms(place: Place) -> frozenset[str]:
    """The terms of the model and version names a passage's title gives ("aurelia-kx60-….pdf": "kx",
    "60", "kx-60"): every sentence of the passage is about them, whether or not it names them."""
    names = " ".join(name_texts(normalize(title_of(place))))
    return frozenset((*content_terms(normalize(names)), *name_terms(names)))


def _figures(body: str) -> set[str]:
    """The terms of a sentence outside its names (found as name_terms finds them, in the normalised
    text): its figures are numbers among them."""
    return set(content_terms(without_names(normalize(body))))


def _repeated_sentences(split: Sequence[Sequence[Sentence]]) -> set[str]:
    """The shapes of sentences that stand in more than one passage (page headers and footers)."""
    seen: dict[str, int] = {}
    for sentences in split:
        for key in {shape(s.body) for s in sentences}:
            seen[key] = seen.get(key, 0) + 1
    return {key for key, count in seen.items() if count > 1 and len(key) >= SHAPE_WIDTH}


def _scaled_cosines(
    question: str,
    bodies: list[str],
    embed: Embed | None,
    scales: CosineScales | None,
    evidence: Evidence | None = None,
) -> list[float]:
    if embed is None or scales is None or (has_cjk(question) and not scales.cjk_questions):
        return []
    known = evidence.question_cosines() if evidence is not None and evidence.question == question else None
    if known is not None and len(known) == len(bodies):
        cosines = known
    else:
        vectors = np.asarray(embed([question, *bodies]), dtype=np.float64)
        cosines = [float(c) for c in cosine_matrix(vectors[1:], vectors[0])]
    return [scaled_cosine(c, scales.gate_floor, scales.gate_ceiling) for c in cosines]


def kept_sentences(scores: Sequence[SentenceScore]) -> list[int]:
    """Indices of the sentences to keep, in order. Sentences go in best first until KEEP_SHARE of
    the passage's text is kept; the best one brings its neighbours (the sentence before often names
    what "it" is, the one after finishes a list). A short passage is kept whole; a sentence with no
    evidence at all is never chosen for itself."""
    if len(scores) <= KEEP_WHOLE_SENTENCES:
        return list(range(len(scores)))
    sizes = [score.sentence.end - score.sentence.start for score in scores]
    budget = KEEP_SHARE * sum(sizes)
    ranked = sorted(range(len(scores)), key=lambda i: (-scores[i].score, i))
    best = ranked[0]
    kept = set(range(max(0, best - NEIGHBOURS), min(len(scores), best + NEIGHBOURS + 1)))
    for index in ranked[1:]:
        if sum(sizes[i] for i in kept) >= budget or scores[index].score <= 0.0:
            break
        kept.add(index)
    return sorted(kept)


def excerpt(text: str, sentences: Sequence[Sentence], kept: Sequence[int]) -> str:
    """The kept sentences as the passage's own text: runs of neighbours verbatim, GAP between runs
    and where the passage's start or end was left out."""
    if not kept:
        return text
    runs: list[tuple[int, int]] = []
    for index in kept:
        if runs and runs[-1][1] == index - 1:
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    pieces = [text[sentences[a].start : sentences[b].end] for a, b in runs]
    body = GAP.join(pieces)
    if runs[0][0] > 0:
        body = GAP.lstrip() + body
    if runs[-1][1] < len(sentences) - 1:
        body = body + GAP.rstrip()
    return body


def select_excerpts(
    question: str, hits: Sequence[Hit], embed: Embed | None = None, scales: CosineScales | None = None
) -> list[Hit]:
    """The hits with their text cut to the sentences that matter for the question (labels, pages and
    ids unchanged: a citation still points to the whole stored passage); words alone without an
    embedder and its `scales`."""
    titles = [title_terms(hit) for hit in hits]
    scored = score_sentences(question, [hit.text for hit in hits], embed, scales, titles=titles)
    selected: list[Hit] = []
    for hit, scores in zip(hits, scored, strict=True):
        kept = kept_sentences(scores)
        sentences = [score.sentence for score in scores]
        kept_chars = sum(sentences[i].end - sentences[i].start for i in kept)
        whole_chars = sum(s.end - s.start for s in sentences)
        if len(kept) == len(sentences) or kept_chars >= KEEP_WHOLE_SHARE * whole_chars:
            selected.append(hit)
        else:
            selected.append(replace(hit, text=excerpt(hit.text, sentences, kept)))
    return selected
