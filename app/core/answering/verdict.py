"""One verdict per answer, from its checked sentences: answered from the documents, partly, not
answered, or not in the documents (the gate's or the model's refusal)."""

from __future__ import annotations

from typing import Literal

from app.core.answering.checks import Attribution

Verdict = Literal["answered", "partly", "not_answered", "not_in_documents"]


def answer_verdict(attribution: Attribution | None, not_covered: bool, finish_reason: str) -> Verdict | None:
    """ "answered" when every factual sentence is supported by a passage and about the question,
    "partly" when some are (or the answer was cut off), "not_answered" when none is, and
    "not_in_documents" when Folio's gate or the model said the documents do not cover the question.
    None when there is nothing to judge (no text: an error before the model wrote anything)."""
    if not_covered:
        return "not_in_documents"
    if attribution is None:
        return None
    factual = [s for s in attribution.sentences if s.kind == "factual"]
    refused = any(s.kind == "refusal" for s in attribution.sentences)
    answering = [s for s in factual if s.supported and s.on_question is not False]
    if not answering:
        return "not_in_documents" if refused else "not_answered"
    if len(answering) < len(factual) or finish_reason != "stop":
        return "partly"
    return "answered"
