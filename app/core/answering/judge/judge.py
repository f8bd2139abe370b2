"""The one judge: each sentence supported or not, about the question or not, and one verdict per answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.core.answering.evidence.evidence import Evidence
from app.core.answering.evidence.scoring import Embed
from app.core.answering.judge.checking import Verifier
from app.core.answering.judge.checks import Attribution, SentenceCheck
from app.core.answering.judge.policy import Policy
from app.core.answering.judge.signals import CrossLanguage, SentenceSignals, Signals, measure
from app.core.answering.judge.verdict import Verdict
from app.core.passage import Hit


@dataclass(frozen=True)
class SentenceRuling:
    """What the policy makes of one measured sentence."""

    supported: bool
    by_meaning: bool  # supported by its meaning only (its words are not the passage's)
    about: bool
    restated: bool  # it only says the question again


@dataclass(frozen=True)
class Judgement:
    """The checked sentences (citations and support as the policy rules) and the answer's verdict."""

    attribution: Attribution | None
    verdict: Verdict | None
    # it states nothing: every statement only says the question again, or there is none (a bare
    # citation marker), and it does not refuse
    says_nothing: bool = False


def rule(signal: SentenceSignals, policy: Policy) -> SentenceRuling:
    """One sentence under the policy."""
    restated = (
        signal.question_cosine >= policy.restate_cosine
        and signal.novelty <= policy.restate_novelty
        and not signal.new_facts
    )
    meaning_counts = policy.meaning_cjk or not signal.cjk
    by_meaning = (
        meaning_counts
        and signal.best >= 0
        and signal.meaning >= policy.support_cosine
        and signal.gain >= policy.support_gain
        and signal.missing == 0
    )
    supported = (
        not signal.problem
        and not (policy.former_is_unsupported and signal.former)
        and signal.fact_rival < policy.fact_rival_margin
        and (signal.lexical or by_meaning)
        and (signal.across or signal.best < 0 or signal.gain >= policy.words_gain)
        and (
            signal.fact_about >= policy.fact_about_cosine
            or signal.fact_gap >= policy.fact_about_gap
            or (policy.fact_located_enough and signal.fact_located)
        )
    )
    about = (
        supported
        and not (policy.figure_kind_must_match and signal.kind_clash)
        and not (policy.name_must_match and signal.other_name)
        and (signal.lexical_about is True or signal.located or signal.about_cosine >= policy.about_cosine)
    )
    return SentenceRuling(supported, by_meaning and not signal.lexical, about, restated)


def decide(
    signals: Signals, policy: Policy, not_in_documents: bool = False, finish_reason: str = "stop"
) -> tuple[list[SentenceRuling], Verdict | None]:
    """Each factual sentence's ruling and the verdict: "not_in_documents" when the gate or the model
    said the documents do not cover the question, "not_answered" when no sentence is both supported
    and about the question (a restatement of the question never is), "partly" when too few are, the
    answer was cut off, or (as the policy says) the question asks for a quantity and none of them
    gives a figure, else "answered"."""
    if not_in_documents:
        return [], "not_in_documents"
    rulings = [rule(signal, policy) for signal in signals.sentences]
    stated = [r for r in rulings if not r.restated]
    answering = [r for r in stated if r.supported and r.about]
    if not answering:
        return rulings, "not_in_documents" if signals.refused else "not_answered"
    if finish_reason != "stop" or len(answering) < policy.answered_share * len(stated):
        return rulings, "partly"
    figures = any(
        s.new_figures
        for s, r in zip(signals.sentences, rulings, strict=True)
        if r.supported and r.about and not r.restated
    )
    if policy.quantity_needs_figure and signals.asks_quantity and not figures:
        return rulings, "partly"  # asked for a figure; what answers it gives none
    return rulings, "answered"


def judge(
    question: str,
    attribution: Attribution | None,
    passages: Sequence[Hit],
    evidence: Evidence,
    policy: Policy,
    located: Sequence[tuple[int, str]] = (),
    not_in_documents: bool = False,
    finish_reason: str = "stop",
) -> Judgement:
    """The answer judged: `attribution` is the word check of its sentences against the prompt's
    `passages`; `evidence` the question's passages worked out once; `located` the (chunk id,
    sentence) pairs Folio found before the model ran."""
    if not_in_documents:
        return Judgement(attribution, "not_in_documents")
    if attribution is None:
        return Judgement(None, None)
    cross = CrossLanguage(policy.cross_unrelated, policy.cross_translation)
    signals = measure(question, attribution, passages, evidence, located, cross)
    rulings, verdict = decide(signals, policy, not_in_documents, finish_reason)
    says_nothing = not signals.refused and all(r.restated for r in rulings)
    sentences = list(attribution.sentences)
    for signal, ruling in zip(signals.sentences, rulings, strict=True):
        sentences[signal.index] = _ruled(sentences[signal.index], signal, ruling, evidence)
    judged = [s for s in sentences if s.supported is not None]
    rate = sum(1 for s in judged if s.supported) / len(judged) if judged else None
    wrong = tuple(dict.fromkeys(n for s in sentences for n in s.wrong_citations))
    return Judgement(Attribution(tuple(sentences), rate, wrong), verdict, says_nothing)


def judge_answer(
    question: str,
    text: str,
    passages: Sequence[Hit],
    verifier: Verifier,
    policy: Policy,
    embed: Embed | None = None,
    evidence: Evidence | None = None,
    located: Sequence[tuple[int, str]] = (),
    finish_reason: str = "stop",
) -> Judgement:
    """The answer's text checked word by word (`verifier`) and judged; `evidence` is used when it
    covers the passages for this question, else they are worked out here (with `embed`)."""
    if not text:
        return Judgement(None, None)
    attribution = verifier(question, text, passages)
    held = set(evidence.chunk_ids) if evidence is not None else set()
    if evidence is None or evidence.question != question or any(h.chunk_id not in held for h in passages):
        evidence = Evidence(question, passages, embed)
    return judge(question, attribution, passages, evidence, policy, located, False, finish_reason)


def _ruled(
    check: SentenceCheck, signal: SentenceSignals, ruling: SentenceRuling, evidence: Evidence
) -> SentenceCheck:
    """The sentence's check as the policy rules it: a restatement is not judged as a statement; a
    sentence supported by its meaning cites the passage of its best sentence, that sentence as its
    evidence; whether it is about the question is the policy's."""
    if ruling.restated:
        return replace(check, supported=None, kind="restatement", citations=(), evidence={}, on_question=None)
    if ruling.by_meaning and ruling.supported:
        best = evidence.sentences[signal.best]
        return replace(
            check,
            citations=(signal.best_n,),
            source="model" if signal.best_n in check.wrong_citations else "matched",
            supported=True,
            support=max(check.support, signal.meaning),
            wrong_citations=tuple(n for n in check.wrong_citations if n != signal.best_n),
            evidence={signal.best_n: ((best.start, best.end),)},
            on_question=ruling.about,
            basis="meaning",
        )
    if ruling.supported:
        return replace(check, on_question=ruling.about, basis="words")
    return check
