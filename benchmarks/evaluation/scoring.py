"""Scores for one question (retrieval ranks, answer checks) and their summaries per language."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from app.core.answering.judge.refusal import is_refusal
from app.core.answering.presentation.verdict_text import strip_note
from app.core.contents import is_contents_line
from benchmarks.evaluation.dataset import CROSS_DIRECTIONS, LANGS, Question, answer_matches, wrong_matches

RECALL_KS = (5, 10)
SEARCH_K = max(RECALL_KS)


def overlaps(question: Question, document: str, page: int, page_end: int) -> bool:
    """True when a passage of `document` spanning page..page_end holds one of the answer pages."""
    return document == question.document and any(page <= p <= page_end for p in question.pages)


@dataclass
class RetrievalRecord:
    """Where the answer pages came in one search, best first."""

    id: str
    lang: str
    kind: str
    paraphrased: bool
    expected: list[int]
    hits: list[dict[str, Any]]  # document, page, page_end of each hit, best first
    first_rank: int | None  # 1-based rank of the first hit on an answer page
    recall: dict[int, float]  # k -> fraction of answer pages covered by the top k
    latency_ms: float
    direction: str = ""  # "en→zh" / "zh→en" for a cross-language question; else its language


def retrieval_record_from_json(data: dict[str, Any]) -> RetrievalRecord:
    """A record read back from a results file (JSON turned the recall keys into strings)."""
    fields = dict(data)
    fields["recall"] = {int(k): float(v) for k, v in data["recall"].items()}
    return RetrievalRecord(**fields)


def score_retrieval(question: Question, hits: Sequence[Any], latency_ms: float) -> RetrievalRecord:
    """`hits` are app.core.passage.Hit (anything with document, page and page_end)."""
    first: int | None = None
    for rank, hit in enumerate(hits, start=1):
        if overlaps(question, hit.document, hit.page, hit.page_end):
            first = rank
            break
    recall: dict[int, float] = {}
    for k in RECALL_KS:
        covered = {
            p
            for hit in hits[:k]
            if hit.document == question.document
            for p in question.pages
            if hit.page <= p <= hit.page_end
        }
        recall[k] = len(covered) / len(question.pages)
    return RetrievalRecord(
        id=question.id,
        lang=question.lang,
        kind=question.kind,
        paraphrased=question.paraphrased,
        expected=list(question.pages),
        hits=[{"document": h.document, "page": h.page, "page_end": h.page_end} for h in hits],
        first_rank=first,
        recall=recall,
        latency_ms=latency_ms,
        direction=question.direction,
    )


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100) by linear interpolation; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize_retrieval(records: Sequence[RetrievalRecord]) -> dict[str, Any]:
    n = len(records)
    if not n:
        return {"n": 0}
    ranks = [r.first_rank for r in records]
    latencies = [r.latency_ms for r in records]
    summary: dict[str, Any] = {
        "n": n,
        "hit@1": sum(1 for rank in ranks if rank == 1) / n,
        "hit@5": sum(1 for rank in ranks if rank is not None and rank <= 5) / n,
        "mrr": sum(1.0 / rank for rank in ranks if rank is not None) / n,
    }
    for k in RECALL_KS:
        summary[f"recall@{k}"] = sum(r.recall[k] for r in records) / n
    summary["latency_p50_ms"] = percentile(latencies, 50)
    summary["latency_p95_ms"] = percentile(latencies, 95)
    return summary


@dataclass
class AnswerRecord:
    """One asked question: what came back and how it scores."""

    id: str
    lang: str
    kind: str
    answerable: bool
    answer: str
    finish_reason: str
    correct: bool
    refusal: bool
    cited: list[dict[str, Any]]  # document, page, page_end, right (holds an answer page)
    expected: list[int]
    support_rate: float | None
    ttft_ms: float | None
    tokens_per_s: float | None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    direction: str = ""  # as RetrievalRecord.direction

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def score_answer(question: Question, data: dict[str, Any]) -> AnswerRecord:
    """Score `answer.to_json()` (the `folio ask --json` document) against the question: the model's
    own text is scored, without the note Folio appends to an answer it could not verify (the found
    sentences it quotes would otherwise count as the model's answer)."""
    shown = str(data.get("answer") or "")
    text = strip_note(shown)
    refusal = is_refusal(text)
    # An answerable question is answered right when every pattern group matches, the answer is
    # not a refusal and gives none of a trap's wrong figures; an unanswerable one when refused.
    wrong = wrong_matches(question.wrong, text)
    correct = (
        (answer_matches(question.answers, text) and not refusal and not wrong)
        if question.answerable
        else refusal
    )
    cited = [
        {
            "document": c["document"],
            "page": c["page"],
            "page_end": c.get("page_end", c["page"]),
            "right": question.answerable
            and overlaps(question, c["document"], c["page"], c.get("page_end", c["page"])),
        }
        for c in data.get("citations") or []
    ]
    metrics = data.get("metrics") or {}
    budget = data.get("budget") or {}
    support = data.get("support_rate")
    return AnswerRecord(
        id=question.id,
        lang=question.lang,
        kind=question.kind,
        answerable=question.answerable,
        answer=shown,
        finish_reason=str(data.get("finish_reason")),
        correct=correct,
        refusal=refusal,
        cited=cited,
        expected=list(question.pages),
        support_rate=float(support) if isinstance(support, (int, float)) else None,
        ttft_ms=metrics.get("ttft_ms"),
        tokens_per_s=metrics.get("tokens_per_s"),
        error=data.get("error"),
        direction=question.direction,
        extra={
            "grounded": data.get("grounded"),
            "completion_tokens": metrics.get("completion_tokens"),
            "prompt_tokens": metrics.get("prompt_tokens"),
            "passages_used": len(budget.get("passages_used") or []),
            "passages_dropped": len(budget.get("passages_dropped") or []),
            "verdict": data.get("verdict"),
            "wrong_figure": wrong,
            "denied_with_evidence": denied_with_evidence(question, shown, data.get("located") or []),
            "contents_found": sum(1 for f in data.get("located") or [] if is_contents_line(f["sentence"])),
            "reasked_from": str(data.get("reasked_from") or ""),  # the first answer, when asked again
            "withdrawn": str(data.get("withdrawn") or ""),  # its made-up figures, when Folio withdrew it
        },
    )


def rescored(record: AnswerRecord, question: Question) -> AnswerRecord:
    """A saved record scored again from its text with today's scoring (e.g. a run saved when the
    note Folio appends was still scored as the model's words); the rest as saved."""
    fresh = score_answer(question, {"answer": record.answer, "finish_reason": record.finish_reason})
    extra = {**record.extra, "wrong_figure": fresh.extra["wrong_figure"]}
    return replace(record, correct=fresh.correct, refusal=fresh.refusal, extra=extra)


def denied_with_evidence(question: Question, text: str, located: Sequence[dict[str, Any]]) -> bool:
    """Whether the answer says the documents do not answer the question (a refusal, or Folio's note
    appended to it) while the sentences Folio found for it hold the answer (they match its patterns)."""
    if not question.answerable or not is_refusal(text) or not located:
        return False
    found = " ".join(str(f.get("sentence", "")) for f in located)
    return answer_matches(question.answers, found)


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.fmean(values) if values else None


def summarize_answers(records: Sequence[AnswerRecord]) -> dict[str, Any]:
    """Accuracy, citation precision, answers with a right citation, support rate, refusals, speed."""
    answerable = [r for r in records if r.answerable]
    unanswerable = [r for r in records if not r.answerable]
    citations = [c for r in answerable for c in r.cited]
    supports = [r.support_rate for r in records if r.support_rate is not None]
    return {
        "n": len(records),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "accuracy": _mean(1.0 if r.correct else 0.0 for r in records),
        "accuracy_answerable": _mean(1.0 if r.correct else 0.0 for r in answerable),
        "citation_precision": _mean(1.0 if c["right"] else 0.0 for c in citations),
        "citations": len(citations),
        "with_correct_citation": _mean(1.0 if any(c["right"] for c in r.cited) else 0.0 for r in answerable),
        "support_rate": _mean(supports),
        "refusal_unanswerable": _mean(1.0 if r.refusal else 0.0 for r in unanswerable),
        "false_refusals": _mean(1.0 if r.refusal else 0.0 for r in answerable),
        "complete": _mean(1.0 if r.finish_reason == "stop" else 0.0 for r in records),
        "without_passages": _mean(1.0 if not r.extra.get("passages_used") else 0.0 for r in records),
        **verdict_figures(records),
        "ttft_p50_ms": percentile([r.ttft_ms for r in records if r.ttft_ms is not None], 50),
        "tokens_per_s_p50": percentile([r.tokens_per_s for r in records if r.tokens_per_s is not None], 50),
    }


def verdict_figures(records: Sequence[AnswerRecord]) -> dict[str, Any]:
    """The verdict's two numbers: how often "answered from your documents" is right (precision; a
    question no document answers that it called answered counts as wrong) and how often a right
    answer is called answered (coverage); how often an unanswerable question is held back (refused,
    or not called answered); and how often Folio told the user that the documents do not answer
    while the sentences it had found held the answer."""
    said = [r for r in records if r.extra.get("verdict") == "answered"]
    judged = [r for r in records if r.extra.get("verdict") is not None]
    right = [r for r in records if r.correct and r.answerable]
    unanswerable = [r for r in records if not r.answerable]
    return {
        "said_answered": len(said) / len(judged) if judged else None,
        "answered_right": _mean(1.0 if r.correct and r.answerable else 0.0 for r in said),
        "answered_coverage": _mean(1.0 if r.extra.get("verdict") == "answered" else 0.0 for r in right),
        "right_answers": len(right),
        "unanswerable_held_back": _mean(
            0.0 if r.extra.get("verdict") == "answered" and not r.refusal else 1.0 for r in unanswerable
        ),
        "denied_with_evidence": sum(1 for r in records if r.extra.get("denied_with_evidence")),
        "contents_found": sum(int(r.extra.get("contents_found") or 0) for r in records),
        "not_in_documents_right": _mean(
            0.0 if r.answerable else 1.0 for r in records if r.extra.get("verdict") == "not_in_documents"
        ),
    }


def judge_inputs(answer: Any) -> dict[str, Any]:
    """What the answer check saw, kept with the record so the judge can be run again without the
    model (benchmarks/calibrate_judge.py): the passages in prompt order and the located sentences."""
    return {
        "passages": [asdict(hit) for hit in answer.passages],
        "located": [found.to_json() for found in answer.located],
        "grounded": answer.grounded,
        "gate_score": answer.gate_score,
    }


def direction_of(record: Any) -> str:
    """A record's row: its `direction`, or its language for a record written before directions."""
    return str(getattr(record, "direction", "") or record.lang)


def by_language(records: Sequence[Any], summarize: Any) -> dict[str, dict[str, Any]]:
    """{"zh": ..., "en": ..., "all": ..., "en→zh": ..., "zh→en": ...} of a summary function over
    records with a `lang` (and a `direction`). "all" covers the same-language questions, as before
    cross-language questions existed; each direction of those gets its own row after it."""
    same = [r for r in records if direction_of(r) in LANGS]
    out = {lang: summarize([r for r in same if r.lang == lang]) for lang in ("zh", "en")}
    out = {lang: s for lang, s in out.items() if s.get("n")}
    out["all"] = summarize(same)
    for name in CROSS_DIRECTIONS:
        cross = [r for r in records if direction_of(r) == name]
        if cross:
            out[name] = summarize(cross)
    return out
