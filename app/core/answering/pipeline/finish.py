"""The last stages of a question: check the text against its passages, build the Answer, persist it."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace

from app.core.answering.evidence.scoring import Embed
from app.core.answering.judge.checking import Verifier, verified_citations
from app.core.answering.judge.checks import Attribution
from app.core.answering.judge.judge import Judgement, judge_answer
from app.core.answering.judge.policy import Policy
from app.core.answering.judge.verdict import Verdict
from app.core.answering.presentation.verdict_text import found_instead, unverified_notice
from app.core.answering.run import AnswerRun
from app.core.answering.types import Answer
from app.core.passage import Citation
from app.core.prompt.budget import Budget, DroppedPassage
from app.core.prompt.citations import parse_citations
from app.core.store.conversations import ConversationStore

log = logging.getLogger("folio.answer")


@dataclass(frozen=True)
class Outcome:
    """How a question's stages ended, handed to the one place that finishes every answer (check,
    build, persist: Answerer._finish)."""

    reason: str  # stop | length | cancelled | error
    error: str | None = None
    budget_n_ctx: int | None = None  # the gate stopped it: the budget of the model it would have used
    judgement: Judgement | None = None  # the judge's ruling on the run's text, when already made
    # what the sentences are checked as being about: the question (None), or a whole-document
    # answer's subject ("" for a summary: every supported point is about its document)
    about: str | None = None


@dataclass(frozen=True)
class CheckedText:
    """The answer's text as shown (with Folio's note when nothing could be verified), its citations,
    every sentence checked and the verdict."""

    text: str
    citations: list[Citation]
    invalid: list[int]  # markers that name no passage of the prompt
    checked: Attribution | None  # every sentence against the passages; None when not checked
    verdict: Verdict | None = None


def check(
    run: AnswerRun,
    reason: str,
    verifier: Verifier,
    policy: Policy,
    embed: Embed | None = None,
    judgement: Judgement | None = None,
    about: str | None = None,
) -> CheckedText:
    """Parse the [n] markers, check every sentence against the passages and judge the answer
    (spans parse, verify); `judgement`: the judge's ruling on this very text, when already made;
    `about`: what the sentences must be about (Outcome.about; None: the question)."""
    parse_started = time.perf_counter()
    text = "".join(run.answer).rstrip()
    marked, invalid = parse_citations(text, run.passages) if run.passages else ([], [])
    verify_started = run.mark("parse", parse_started)
    if judgement is None:
        judgement = judge_run(run, reason, verifier, policy, embed, about)
    checked = judgement.attribution
    citations = verified_citations(checked, run.passages) if checked is not None else marked
    if reason == "stop" and judgement.verdict == "not_answered" and not run.withdrawn:
        # Nothing the model wrote could be verified: say so after it (the sentences' offsets stay
        # valid), never that the documents do not answer: the sentences Folio found may hold it.
        # An answer that states nothing (the question again, a bare marker) gets what Folio found.
        found = [(f.citation, f.sentence) for f in run.located] if judgement.says_nothing else []
        text = f"{text}\n\n{found_instead(run.question, found) or unverified_notice(run.question)}"
    run.mark("verify", verify_started)
    return CheckedText(text, citations, invalid, checked, judgement.verdict)


def judge_run(
    run: AnswerRun,
    reason: str,
    verifier: Verifier,
    policy: Policy,
    embed: Embed | None,
    about: str | None = None,
) -> Judgement:
    """The judge's ruling on the run's text as it stands, its sentences measured as being about
    `about` (None: the question); a failure in checking keeps the answer (logged, unjudged)."""
    if run.not_in_documents:
        return Judgement(None, "not_in_documents")
    if run.withdrawn:  # Folio's own words, after an answer whose figures no passage states: not
        # verified (the figure may still be in a document the passages did not come from)
        return Judgement(None, "not_answered")
    text = "".join(run.answer).rstrip()
    about = run.question if about is None else about
    try:
        located = [(f.citation.chunk_id, f.sentence) for f in run.located]
        return judge_answer(about, text, run.passages, verifier, policy, embed, run.evidence, located, reason)
    except Exception:  # a bug in checking must not lose the answer
        log.exception("checking the answer's sentences failed")
        return Judgement(None, None)


def gated_budget(run: AnswerRun, n_ctx: int) -> Budget:
    """The budget of an answer the gate stopped: every passage dropped, for the engine it would use."""
    return Budget(
        n_ctx=n_ctx,
        answer_reserve=run.sampling.max_tokens,
        limit_tokens=n_ctx - run.sampling.max_tokens,
        ttft_limit_tokens=None,
        passages_dropped=[
            DroppedPassage(hit.chunk_id, hit.document, hit.page, 0, "below_grounding_threshold")
            for hit in run.hits
        ],
    )


def build_answer(
    run: AnswerRun,
    reason: str,
    checked: CheckedText,
    chat_id: int | None,
    error: str | None = None,
    budget: Budget | None = None,
) -> Answer:
    """The finished Answer of a run: text, citations, figures and spans."""
    end = run.end
    error = error or (end.error if end else None)
    budget = budget or run.budget
    metrics = run.metrics()
    if budget is not None and metrics.ttft_ms is not None:
        budget = replace(budget, measured_ttft_ms=metrics.ttft_ms)
    attribution = checked.checked
    return Answer(
        question=run.question,
        answer=checked.text,
        thinking="".join(run.thinking).strip(),
        citations=checked.citations,
        invalid_citations=checked.invalid,
        finish_reason=reason,
        model=run.model,
        budget=budget,
        metrics=metrics,
        spans=dict(run.spans),
        grounded=run.grounded,
        sampling=run.sampling,
        passages=list(run.passages),
        chat_id=chat_id,
        error=error,
        model_path=run.model_path,
        sentences=attribution.sentences if attribution is not None else (),
        support_rate=attribution.support_rate if attribution is not None else None,
        gate_score=round(run.gate.score, 4) if run.gate is not None else None,
        verdict=checked.verdict,
        kv_cache=run.kv_cache(),
        located=list(run.located),
        asked_at=run.asked_at,
        reasked_from=run.reasked_from,
        withdrawn=run.withdrawn,
        wrong_citations=(
            [n for n in attribution.wrong_citations if n not in checked.invalid] if attribution else []
        ),
    )


def persist(conversations: ConversationStore, answer: Answer, chat_id: int | None) -> Answer:
    """Save the answer in its chat (a new chat when None); a failed save keeps the answer shown."""
    try:
        chat, message = conversations.save(answer.record(), chat_id)
    except Exception as exc:  # the answer is still shown; the trace is lost
        log.error("could not save the answer: %s", exc)
        return answer
    return replace(answer, chat_id=chat, message_id=message)
