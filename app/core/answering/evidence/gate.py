"""The grounding gate: how well the best retrieved passage covers the question, before any model runs."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.answering.evidence.lexical import normalize
from app.core.answering.evidence.scoring import WeightedTerms, Weights, scaled_cosine
from app.core.embed.engine import CosineScales
from app.core.keywords import content_terms
from app.core.passage import Hit
from app.core.script import has_cjk

# Question words carry no evidence: a passage need not contain "how" or "多少" to answer.
_QUESTION_WORDS = frozenset(
    content_terms(
        "what which who whom whose when where why how many much long often does do did is are was "
        "were can could should would tell explain describe list name give kind sort"
    )
)
_CJK_QUESTION = re.compile(
    "什么|哪些|哪个|哪里|哪儿|哪一|多少|多长|多久|多大|多高|几个|几种|几次|几年|为什么|怎么样|怎么|怎样|如何|"
    "是否|是不是|有没有|能否|可否|可以|请问|吗|呢|哪|谁|几"
)


@dataclass(frozen=True)
class GateScore:
    """The best passage's evidence for the question, in [0, 1], and where it came from."""

    score: float
    coverage: float  # share of the question's term weight found in the best-covering passage
    cosine: float  # best dense cosine (0 when it does not count)
    best: int  # index of the passage that gave `score`, -1 without passages


def question_terms(question: str) -> list[str]:
    """The question's content terms: its words, numbers and CJK characters/bigrams, no question words."""
    text = normalize(question)
    if has_cjk(text):
        text = _CJK_QUESTION.sub(" ", text)
    return [term for term in dict.fromkeys(content_terms(text)) if term not in _QUESTION_WORDS]


def gate_score(question: str, hits: Sequence[Hit], scales: CosineScales | None) -> GateScore:
    """max over passages of max(keyword coverage, cosine on the embedder's `scales`): a passage
    found only by keyword search can pass, and so can a paraphrase the embedder recognises
    (keyword coverage alone without `scales`)."""
    if not hits:
        return GateScore(0.0, 0.0, 0.0, -1)
    wanted = question_terms(question)
    passage_terms = [set(content_terms(normalize(hit.text))) for hit in hits]
    weighted = WeightedTerms.of(wanted, Weights.of(passage_terms), 1.0)
    # An English-only embedder's cosine for Chinese text says little (benchmarks/calibrate_gate.py):
    # then the dense cosine counts only for Latin questions.
    counts = scales is not None and (scales.cjk_questions or not has_cjk(question))
    best = GateScore(0.0, 0.0, 0.0, -1)
    for index, (hit, found) in enumerate(zip(hits, passage_terms, strict=True)):
        coverage = weighted.coverage(found)
        cosine = hit.similarity if counts else 0.0
        dense = scaled_cosine(cosine, scales.gate_floor, scales.gate_ceiling) if scales and counts else 0.0
        score = max(coverage, dense)
        if score > best.score or best.best < 0:
            best = GateScore(score, coverage, cosine, index)
    return best
