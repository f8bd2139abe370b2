"""Re-check the answers of a saved `make eval` run with today's answer check, without the model.

The model's text is taken from the results file (Folio's "none of these statements" notice removed),
the passages it was shown are found again (retrieval, locate and the prompt's passage choice are
deterministic for one library and settings), and the check, the notice and the verdict are applied
as the pipeline applies them. Prints the run's answer table as saved and as re-checked, and which
questions changed. Valid only while retrieval and the prompt's passages are what the run had (the
library is the same cached one); the model is never called, so a change to the prompt needs a real
run.

    .venv/bin/python benchmarks/recheck_eval.py benchmarks/results/eval-<model>.json [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from app.core.answering.checking import verified_citations  # noqa: E402
from app.core.answering.focus import found_passages  # noqa: E402
from app.core.answering.locate import locate  # noqa: E402
from app.core.answering.verdict import answer_verdict  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from app.core.prompt.system import unsupported_notice  # noqa: E402
from app.core.qa import Folio, build_services  # noqa: E402
from benchmarks.evaluation import report, scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import CACHE_ROOT, prepared_library, working_copy  # noqa: E402


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", type=Path, help="a results file of benchmarks/eval_answers.py")
    parser.add_argument("--cache", type=Path, default=CACHE_ROOT, help="the eval library cache")
    parser.add_argument("--out", type=Path, help="write the re-checked records here (JSON)")
    return parser.parse_args(argv)


def shown_passages(folio: Folio, settings: Settings, question: str) -> list[Hit]:
    """The passages the prompt numbered for this question (all retrieved ones fit the eval's
    context; "found" shows only those that hold a located sentence)."""
    hits = list(folio.search(question, settings.passages_k).hits)
    if settings.answer_from != "found":
        return hits
    located = locate(question, hits, folio.answerer.embed, folio.answerer.scales)
    originals = {hit.chunk_id: hit for hit in hits}
    return [originals[hit.chunk_id] for hit in found_passages(hits, located)]


def recheck(
    folio: Folio, settings: Settings, question: Question, saved: dict[str, Any]
) -> scoring.AnswerRecord:
    """The saved record with today's check applied to the same text and passages."""
    record = scoring.AnswerRecord(**saved)
    if not record.extra.get("passages_used") or record.finish_reason not in ("stop", "length"):
        return record  # the gate stopped it, or it failed: no model text to check
    notice = f"\n\n{unsupported_notice(question.question)}"
    text = record.answer[: -len(notice)] if record.answer.endswith(notice) else record.answer
    passages = shown_passages(folio, settings, question.question)
    checked = folio.answerer.verifier(question.question, text, passages)
    if record.finish_reason == "stop" and checked.support_rate == 0.0:
        text = f"{text}{notice}"
    citations = [c.to_json() for c in verified_citations(checked, passages)]
    data = {
        "answer": text,
        "finish_reason": record.finish_reason,
        "citations": citations,
        "support_rate": checked.support_rate,
        "verdict": answer_verdict(checked, False, record.finish_reason),
        "grounded": record.extra.get("grounded"),
        "budget": {"passages_used": [0] * int(record.extra.get("passages_used") or 0)},
        "metrics": {"completion_tokens": record.extra.get("completion_tokens")},
    }
    fresh = scoring.score_answer(question, data)
    extra = {**record.extra, "verdict": fresh.extra["verdict"], "wrong_figure": fresh.extra["wrong_figure"]}
    return replace(fresh, ttft_ms=record.ttft_ms, tokens_per_s=record.tokens_per_s, extra=extra)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    run = json.loads(args.results.read_text(encoding="utf-8"))
    # the embedder the run searched with (its default then need not be today's)
    settings = Settings.from_dict(run["settings"]).replace(embed_model_dir=run["embedder"])
    questions = load_questions()
    by_id = {q.id: q for q in questions.questions}
    saved = [r for r in run["answers"] if r["id"] in by_id]
    library = prepared_library(questions, settings, args.cache)
    with tempfile.TemporaryDirectory(prefix="folio-recheck-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            after = [recheck(folio, settings, by_id[r["id"]], r) for r in saved]
        finally:
            folio.close()
    before = [scoring.AnswerRecord(**r) for r in saved]
    print(f"## {args.results.name}: {len(saved)} answers as saved ({run['date']}), then re-checked\n")
    print(report.table(scoring.by_language(before, scoring.summarize_answers), report.ANSWER_COLUMNS))
    print()
    print(report.table(scoring.by_language(after, scoring.summarize_answers), report.ANSWER_COLUMNS))
    print("\n### Changed\n")
    for old, new in zip(before, after, strict=True):
        if (old.correct, old.refusal, old.extra.get("verdict")) != (
            new.correct,
            new.refusal,
            new.extra.get("verdict"),
        ):
            print(
                f"{old.id}: correct {old.correct}→{new.correct}, refusal {old.refusal}→{new.refusal}, "
                f"verdict {old.extra.get('verdict')}→{new.extra.get('verdict')} | {new.answer[:100]}"
            )
    if args.out:
        args.out.write_text(
            json.dumps([r.to_json() for r in after], ensure_ascii=False, indent=1), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
