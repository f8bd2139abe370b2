"""The answers of saved `make eval` runs as the judge measures them again, without the model, and the
figures of a set of verdicts ("answered" right how often, right answers called answered how often)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core import paths
from app.core.answering.evidence.evidence import Evidence
from app.core.answering.evidence.locate import locate
from app.core.answering.judge.checking import embedding_verifier
from app.core.answering.judge.judge import decide
from app.core.answering.judge.policy import Policy
from app.core.answering.judge.signals import CrossLanguage, Signals, measure
from app.core.answering.presentation.verdict_text import strip_note
from app.core.embed.embedder import Embedder
from app.core.embed.engine import CosineScales
from app.core.embed.recent import RecentVectors
from app.core.passage import Hit
from benchmarks.evaluation import scoring
from benchmarks.evaluation.dataset import Question
from benchmarks.evaluation.failures import classify

ROWS = ("en", "zh", "en→zh", "zh→en", "all")


@dataclass(frozen=True)
class Case:
    """One recorded answer: what the judge measures of it, and whether it is right."""

    id: str
    half: str
    row: str  # its language, or its cross-language direction
    answerable: bool
    correct: bool  # the model's text (without Folio's note) matches the question's patterns
    refusal: bool
    finish_reason: str
    gated: bool  # the gate stopped it: no model text
    before: str | None  # the verdict the run recorded
    signals: Signals | None
    answer: str
    failure: str  # why a wrong answer to an answerable question is wrong (failures.py); "" otherwise


def cases_of(
    run: dict[str, Any], by_id: dict[str, Question], cross: CrossLanguage, relocate: bool = False
) -> Iterator[Case]:
    """The run's answers measured again, without the model and without a library: the word check
    takes the passages' vectors from their recorded texts, as the library stored them for the run.
    The sentences Folio found before the model are the run's, or with `relocate` found again on the
    recorded passages by this checkout's locate (a run made before a change to it)."""
    embedder = run_embedder(run)
    embed = RecentVectors(embedder.embed)  # as the composition root builds it (app/core/services.py)
    for saved in run["answers"]:
        question = by_id.get(saved["id"])
        if question is None:
            continue
        yield _case(question, saved, embed, embedder.scales, cross, relocate)


def run_embedder(run: dict[str, Any]) -> Embedder:
    """The run's embedder, from this checkout's models folder."""
    return Embedder(paths.models_dir() / Path(run["embedder"]).name)


def _case(
    question: Question,
    saved: dict[str, Any],
    embed: RecentVectors,
    scales: CosineScales,
    cross: CrossLanguage,
    relocate: bool = False,
) -> Case:
    record = scoring.AnswerRecord(**saved)
    judged = record.extra.get("judged") or {}
    passages = [Hit(**p) for p in judged.get("passages") or []]
    texts = {hit.chunk_id: hit.text for hit in passages}
    verifier = embedding_verifier(lambda ids: embed([texts[i] for i in ids]), embed, scales)
    text = strip_note(record.answer)
    fresh = scoring.score_answer(question, {"answer": text, "finish_reason": record.finish_reason})
    gated = not passages or record.finish_reason not in ("stop", "length")
    signals = None
    if not gated and text:
        attribution = verifier(question.question, text, passages)
        evidence = Evidence(question.question, passages, embed)
        if relocate:
            found = locate(question.question, passages, embed, scales, evidence)
            located = [(f.citation.chunk_id, f.sentence) for f in found]
        else:
            located = [(int(f["chunk_id"]), str(f["sentence"])) for f in judged.get("located") or []]
        signals = measure(question.question, attribution, passages, evidence, located, cross)
    return Case(
        id=question.id,
        half=question.half,
        row=question.direction,
        answerable=question.answerable,
        correct=fresh.correct,
        refusal=fresh.refusal,
        finish_reason=record.finish_reason,
        gated=gated,
        before=record.extra.get("verdict"),
        signals=signals,
        answer=text,
        failure=(
            classify(question, text, judged.get("passages") or [])
            if question.answerable and not fresh.correct
            else ""
        ),
    )


def verdict(case: Case, policy: Policy) -> str | None:
    if case.gated:
        return case.before if case.finish_reason in ("stop", "length") else None
    if case.signals is None:
        return None
    return decide(case.signals, policy, False, case.finish_reason)[1]


def figures(cases: Sequence[Case], verdicts: Sequence[str | None]) -> dict[str, Any]:
    """Precision and coverage of "answered", unanswerable held back, counts."""
    said = [c for c, v in zip(cases, verdicts, strict=True) if v == "answered"]
    right = [(c, v) for c, v in zip(cases, verdicts, strict=True) if c.answerable and c.correct]
    unanswerable = [(c, v) for c, v in zip(cases, verdicts, strict=True) if not c.answerable]
    return {
        "n": len(cases),
        "answered": len(said),
        "precision": sum(1 for c in said if c.answerable and c.correct) / len(said) if said else None,
        "right_answers": len(right),
        "coverage": sum(1 for _, v in right if v == "answered") / len(right) if right else None,
        "unanswerable": len(unanswerable),
        "held_back": (
            sum(1 for c, v in unanswerable if v != "answered" or c.refusal) / len(unanswerable)
            if unanswerable
            else None
        ),
    }


def by_row(cases: Sequence[Case], verdicts: Sequence[str | None]) -> dict[str, dict[str, Any]]:
    out = {}
    for row in ROWS:
        pairs = [(c, v) for c, v in zip(cases, verdicts, strict=True) if row == "all" or c.row == row]
        if pairs:
            out[row] = figures([c for c, _ in pairs], [v for _, v in pairs])
    return out


def cell(value: Any) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def table(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> str:
    columns = ("precision", "coverage", "held_back", "answered", "right_answers", "unanswerable")
    lines = ["| | n | " + " | ".join(columns) + " |", "|---|---|" + "---|" * len(columns)]
    for row, figs in after.items():
        old = before.get(row, {})
        cells = [
            f"{cell(old.get(k))} → {cell(figs.get(k))}"
            if k in ("precision", "coverage", "held_back", "answered")
            else cell(figs.get(k))
            for k in columns
        ]
        lines.append(f"| {row} | {figs['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
