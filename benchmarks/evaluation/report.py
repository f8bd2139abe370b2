"""What a person reads: one line per question, Markdown tables, before → after against a baseline."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.evaluation.dataset import SOURCES, Question, QuestionSet
from benchmarks.evaluation.scoring import AnswerRecord, RetrievalRecord, direction_of

RETRIEVAL_COLUMNS = (
    ("hit@1", "hit@1"),
    ("hit@5", "hit@5"),
    ("mrr", "MRR"),
    ("recall@5", "recall@5"),
    ("recall@10", "recall@10"),
    ("latency_p50_ms", "p50 ms"),
    ("latency_p95_ms", "p95 ms"),
)
ANSWER_COLUMNS = (
    ("accuracy", "accuracy"),
    ("citation_precision", "citation precision"),
    ("with_correct_citation", "≥1 right citation"),
    ("support_rate", "support rate"),
    ("refusal_unanswerable", "refusal on unanswerable"),
    ("false_refusals", "false refusals"),
    ("said_answered", 'said "answered"'),
    ("answered_right", 'right when "answered"'),
    ("answered_coverage", 'right answers called "answered"'),
    ("right_answers", "right answers"),
    ("unanswerable_held_back", "unanswerable held back"),
    ("denied_with_evidence", '"do not answer" with the answer found'),
    ("contents_found", "contents lines found"),
    ("not_in_documents_right", 'right when "not in documents"'),
    ("complete", "complete"),
    ("without_passages", "no passage in prompt"),
    ("ttft_p50_ms", "TTFT p50 ms"),
    ("tokens_per_s_p50", "tok/s p50"),
)
LANG_NAMES = {
    "zh": "Chinese",
    "en": "English",
    "all": "all",
    "en→zh": "English → Chinese document",
    "zh→en": "Chinese → English document",
}


def _pages(pages: Sequence[int]) -> str:
    return ",".join(str(p) for p in pages) or "-"


def _span(page: int, page_end: int) -> str:
    return f"p{page}" if page == page_end else f"p{page}-{page_end}"


def _short(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def retrieval_line(record: RetrievalRecord, question: Question) -> str:
    mark = "ok" if record.first_rank == 1 else ("~" if record.first_rank else "✗")
    rank = f"rank {record.first_rank}" if record.first_rank else "not in top 10"
    top = " ".join(
        ("*" if h["document"] == question.document else "") + _span(h["page"], h["page_end"])
        for h in record.hits[:5]
    )
    return (
        f"{record.id:6} {record.lang} {mark:2} {rank:13} want p{_pages(record.expected):8} top5 {top:34} "
        f"{record.latency_ms:6.1f} ms  {_short(question.question, 60)}"
    )


def answer_line(record: AnswerRecord) -> str:
    mark = "ok" if record.correct else "✗"
    cited = ",".join(("" if c["right"] else "!") + _span(c["page"], c["page_end"]) for c in record.cited)
    refusal = "refused" if record.refusal else "answered"
    expected = _pages(record.expected) if record.answerable else "none (unanswerable)"
    finish = "" if record.finish_reason == "stop" else f" [{record.finish_reason}]"
    if not record.extra.get("passages_used"):
        finish += " [no passage in the prompt]"
    if record.extra.get("verdict"):
        finish += f" <{record.extra['verdict']}>"
    return (
        f"{record.id:6} {record.lang} {mark:2} cited [{cited or '-'}] want [{expected}] {refusal}{finish}"
        f"  | {_short(record.answer)}"
    )


def _cell(value: Any, before: Any = None) -> str:
    def fmt(v: Any) -> str:
        if v is None:
            return "n/a"
        if isinstance(v, float):
            return f"{v:.2f}" if abs(v) < 10 else f"{v:.0f}"
        return str(v)

    if before is None or value is None:
        return fmt(value)
    return f"{fmt(before)} → {fmt(value)}"


def table(
    summaries: dict[str, dict[str, Any]],
    columns: Sequence[tuple[str, str]],
    baseline: dict[str, dict[str, Any]] | None = None,
) -> str:
    """A Markdown table, one row per language; cells read "before → after" when a baseline row exists."""
    header = "| | n | " + " | ".join(title for _, title in columns) + " |"
    rule = "|---|---|" + "---|" * len(columns)
    rows = [header, rule]
    for lang, summary in summaries.items():
        before = (baseline or {}).get(lang, {})
        cells = [_cell(summary.get(key), before.get(key)) for key, _ in columns]
        rows.append(f"| {LANG_NAMES.get(lang, lang)} | {summary.get('n', 0)} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def half_tables(
    records: Sequence[Any],
    questions: QuestionSet,
    summarize: Callable[[Sequence[Any]], dict[str, Any]],
    by_language: Callable[[Sequence[Any], Any], dict[str, dict[str, Any]]],
    columns: Sequence[tuple[str, str]],
    before: Sequence[Any] = (),
) -> tuple[str, dict[str, dict[str, dict[str, Any]]]]:
    """One table per half of the set (split.json: calibration, held out), per language and
    cross-language, and the summaries behind them; with `before` (the same questions' records of an
    earlier run), each cell reads "before → after"."""
    half = {q.id: q.half for q in questions.questions}
    texts, summaries = [], {}
    for name in ("calibration", "held_out"):
        mine = [r for r in records if half.get(r.id) == name]
        if not mine:
            continue
        summaries[name] = by_language(mine, summarize)
        ids = {r.id for r in mine}
        earlier = [r for r in before if r.id in ids]
        baseline = by_language(earlier, summarize) if earlier else None
        title = "held-out half" if name == "held_out" else "calibration half"
        compared = f", before → after ({len(earlier)} of them in the earlier run)" if earlier else ""
        texts.append(
            f"\n### The {title} ({len(mine)} questions{compared})\n\n"
            + table(summaries[name], columns, baseline)
        )
    return "\n".join(texts), summaries


def changed_answers(before: Sequence[AnswerRecord], after: Sequence[AnswerRecord]) -> list[str]:
    """One line per question whose rightness or verdict changed between two runs: its id, right or
    not before → after, the verdict before → after, and the new answer's start."""
    earlier = {r.id: r for r in before}
    lines = []
    for record in after:
        old = earlier.get(record.id)
        if old is None:
            continue
        verdicts = (old.extra.get("verdict"), record.extra.get("verdict"))
        if old.correct == record.correct and verdicts[0] == verdicts[1]:
            continue
        right = f"{'right' if old.correct else 'wrong'} → {'right' if record.correct else 'wrong'}"
        verdict = f"{verdicts[0]!s:16} → {verdicts[1]!s:16}"
        lines.append(f"{record.id:12} {right:15} {verdict} {_short(record.answer, 70)}")
    return lines


def changed_retrieval(before: Sequence[RetrievalRecord], after: Sequence[RetrievalRecord]) -> list[str]:
    """One line per question whose first answer-page rank changed between two runs."""
    earlier = {r.id: r for r in before}
    lines = []
    for record in after:
        old = earlier.get(record.id)
        if old is None or old.first_rank == record.first_rank:
            continue
        rank = f"{old.first_rank or '-'} → {record.first_rank or '-'}"
        lines.append(f"{record.id:12} rank of the first answer page {rank}")
    return lines


TRAP_ROWS = (("copy-trap", "copy traps"), ("wrong-binding", "wrong-binding traps"))


def split_summaries(
    records: Sequence[Any], questions: QuestionSet, summarize: Callable[[Sequence[Any]], dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Per language: a row for the questions over generated documents, one for those over real
    ones, and one for each kind of trap (whatever its document); empty rows are left out."""
    by_id = {q.id: q for q in questions.questions}
    rows: dict[str, dict[str, Any]] = {}
    for lang in ("zh", "en"):
        mine = [r for r in records if r.lang == lang and r.id in by_id]
        groups = [
            (source, [r for r in mine if questions.source_of(by_id[r.id]) == source]) for source in SOURCES
        ]
        groups += [(title, [r for r in mine if by_id[r.id].kind == kind]) for kind, title in TRAP_ROWS]
        for title, group in groups:
            if group:
                rows[f"{LANG_NAMES[lang]}, {title}"] = summarize(group)
    return rows


def reask_lines(records: Sequence[AnswerRecord]) -> str:
    """The answers Folio asked again (their first text stated nothing), then those it withdrew (their
    figures were in no passage): per language how many, how many first answers would have been right,
    how many are right after; then one line each."""
    asked = [r for r in records if r.extra.get("reasked_from") and not r.extra.get("withdrawn")]
    withdrawn = [r for r in records if r.extra.get("withdrawn")]
    return "\n".join(
        [
            *_replaced_lines(asked, f"Asked again: {len(asked)} of {len(records)} answers stated nothing"),
            *_replaced_lines(
                withdrawn,
                f"Withdrawn: {len(withdrawn)} of {len(records)} answers gave figures no passage states",
            ),
        ]
    )


def _replaced_lines(replaced: Sequence[AnswerRecord], title: str) -> list[str]:
    lines = [f"\n### {title}\n"]
    if not replaced:
        return lines
    lines += ["| language | answers | first right | right after |", "|---|---|---|---|"]
    for lang in ("en", "zh", "en→zh", "zh→en"):
        group = [r for r in replaced if direction_of(r) == lang]
        if group:
            first = sum(1 for r in group if r.extra.get("first_correct"))
            after = sum(1 for r in group if r.correct)
            lines.append(f"| {lang} | {len(group)} | {first} | {after} |")
    lines.append("")
    for r in replaced:
        mark = "✓" if r.correct else "✗"
        first = _short(str(r.extra["reasked_from"]), 70)
        lines.append(f"{r.id} {mark} first: {first} → {_short(r.answer, 90)}")
    return lines
