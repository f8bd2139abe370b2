"""How the other language's pages enter retrieval (issue 22), over the eval's answerable questions,
side by side in one run: the default fusion (per script, the other script's list fused apart);
`--margins`: that list damped when its best cosine is far below the own script's best
(LegWeights.other_margin / other_damp); `--translate`: a second search with the question
translated by the chat model, its legs fused in at several weights, and what the translation
costs (ms per question, greedy, at most 64 tokens).

    .venv/bin/python benchmarks/bench_other_language.py [--margins 0.05,0.1,0.2] [--damps 0.25,0.5]
        [--translate] [--weights 0.5,0.8,1.2] [--threads N] [--half calibration|held_out]

Prints hit@1 / hit@5 / MRR per row (en, zh, en→zh, zh→en) and the translations; writes
benchmarks/results/other_language.json with record_env.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from app.core.config import Settings  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.retrieve import MULTILINGUAL_WEIGHTS, WEIGHTS, LegWeights, Retriever  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation import scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.evaluation.translate import translate_question  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

ROWS = ("en", "zh", "en→zh", "zh→en")


def translations(folio: Folio, questions: Sequence[Question]) -> dict[str, tuple[str | None, float]]:
    """Each question's translation and the milliseconds it took (the model loaded beforehand)."""
    engine = folio.answering.answerer.slot.target()
    engine.load()
    out: dict[str, tuple[str | None, float]] = {}
    for question in questions:
        with engine.lock:
            started = time.perf_counter()
            text = translate_question(engine, question.question)
            out[question.id] = (text, (time.perf_counter() - started) * 1000.0)
        print(
            f"{question.id:7} {out[question.id][1]:7.0f} ms  {question.question[:50]!r} -> {text!r}",
            flush=True,
        )
    return out


def search_all(
    folio: Folio,
    questions: Sequence[Question],
    weights: dict[str, LegWeights],
    translated: dict[str, tuple[str | None, float]] | None,
) -> dict[str, dict[str, Any]]:
    retriever = Retriever(
        folio.library.store,
        folio.library.reader.ready(),
        folio.library.embedder,
        weights=weights,
        scripts=folio.library.reader.scripts,
    )
    records = []
    for question in questions:
        text = (translated or {}).get(question.id, (None, 0.0))[0] or ""
        started = time.perf_counter()
        result = retriever.search(question.question, scoring.SEARCH_K, text)
        records.append(scoring.score_retrieval(question, result.hits, (time.perf_counter() - started) * 1000))
    summary = scoring.by_language(records, scoring.summarize_retrieval)
    return {row: summary[row] for row in ROWS if row in summary}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=0, help="llama.cpp threads (0: automatic)")
    parser.add_argument("--margins", default="", help="other-script cosine margins to try")
    parser.add_argument("--damps", default="0.25,0.5", help="weights of a damped other-script list")
    parser.add_argument("--translate", action="store_true", help="also search with translations")
    parser.add_argument("--weights", default="0.5,0.8,1.2", help="translated-leg weights to try")
    parser.add_argument(
        "--half", choices=("calibration", "held_out"), help="only this half (choose on calibration)"
    )
    args = parser.parse_args(argv)
    questions = load_questions()
    chosen = [q for q in questions.questions if q.answerable and q.pages and args.half in (None, q.half)]
    settings = Settings(n_threads=args.threads, temperature=0.0, seed=42)
    library = prepared_library(questions, settings)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="folio-other-language-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            folio.library.search("warm-up 预热", 5)
            base = MULTILINGUAL_WEIGHTS if folio.library.embedder.multilingual else WEIGHTS
            results["default"] = search_all(folio, chosen, base, None)
            for margin in (float(m) for m in args.margins.split(",") if m):
                for damp in (float(d) for d in args.damps.split(",")):
                    weights = {
                        s: dataclasses.replace(w, other_margin=margin, other_damp=damp)
                        for s, w in base.items()
                    }
                    results[f"margin {margin:g} damp {damp:g}"] = search_all(folio, chosen, weights, None)
            translated = translations(folio, chosen) if args.translate else {}
            for weight in (float(w) for w in args.weights.split(",")) if translated else ():
                weights = {s: dataclasses.replace(w, translated=weight) for s, w in base.items()}
                results[f"translated {weight:g}"] = search_all(folio, chosen, weights, translated)
        finally:
            folio.close()
    spent = [ms for _, ms in translated.values()]
    failed = sorted(qid for qid, (text, _) in translated.items() if text is None)
    if spent:
        p95 = sorted(spent)[int(0.95 * (len(spent) - 1))]
        print(
            f"\ntranslation: median {statistics.median(spent):.0f} ms, p95 {p95:.0f} ms"
            f" over {len(spent)} questions; no usable translation: {', '.join(failed) or 'none'}"
        )
    print("\n| configuration | " + " | ".join(ROWS) + " |")
    print("|---|" + "---|" * len(ROWS))
    for name, summary in results.items():
        cells = [
            "/".join(f"{summary[row][k]:.2f}" for k in ("hit@1", "hit@5", "mrr")) if row in summary else "-"
            for row in ROWS
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    out = write_result(
        "other_language",
        {
            "summary": results,
            "translation_ms": {"median": statistics.median(spent) if spent else None, "all": spent},
            "translations": {qid: text for qid, (text, _) in translated.items()},
            "failed": failed,
        },
    )
    print(f"\nwrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
