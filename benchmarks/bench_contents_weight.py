"""How much a table-of-contents or index chunk's fused score keeps (retrieve.CONTENTS_WEIGHT), or a
chunk about a sibling of the model the question names (`--of other_name`: retrieve.OTHER_NAME_WEIGHT),
fitted on the calibration half of the eval (benchmarks/eval/split.json) over the eval library as built.

    .venv/bin/python benchmarks/bench_contents_weight.py [--of contents|other_name]
        [--weights 0,0.1,0.25,0.5,1] [--half calibration]

Prints hit@1 / hit@5 / MRR per row (en, zh, en→zh, zh→en) for each weight, and how many questions
have a contents chunk among their top 5; writes benchmarks/results/<of>_weight_<half>.json with
record_env. Choose on the calibration half; quote the held-out half (`--half held_out`) only for the
weight chosen. With `--of other_name` only the questions that name a model or a version
(app/core/names.py) are searched: the others' rankings do not depend on that weight.
"""

from __future__ import annotations

import argparse
import os
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
from app.core.names import names_in  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.retrieve import CONTENTS_WEIGHT, OTHER_NAME_WEIGHT, Retriever  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation import scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

ROWS = ("en", "zh", "en→zh", "zh→en", "all")


def search_all(folio: Folio, questions: Sequence[Question], weight: float, of: str) -> dict[str, Any]:
    """The retrieval summary per row with contents chunks (or, `of` "other_name", chunks about a
    sibling of the model asked about) weighted by `weight`, and how many questions had a contents
    chunk in their top 5."""
    retriever = Retriever(
        folio.library.store,
        folio.library.reader.ready(),
        folio.library.embedder,
        scripts=folio.library.reader.scripts,
        contents_weight=weight if of == "contents" else CONTENTS_WEIGHT,
        other_name_weight=weight if of == "other_name" else OTHER_NAME_WEIGHT,
    )
    records = []
    with_contents = 0
    for question in questions:
        started = time.perf_counter()
        result = retriever.search(question.question, scoring.SEARCH_K)
        records.append(scoring.score_retrieval(question, result.hits, (time.perf_counter() - started) * 1000))
        with_contents += any(hit.contents for hit in result.hits[:5])
    summary = scoring.by_language(records, scoring.summarize_retrieval)
    return {"rows": {row: summary[row] for row in ROWS if row in summary}, "contents_in_top5": with_contents}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--of", choices=("contents", "other_name"), default="contents")
    parser.add_argument("--weights", default="0,0.1,0.25,0.5,1", help="weights to try")
    parser.add_argument("--half", choices=("calibration", "held_out"), default="calibration")
    args = parser.parse_args(argv)
    questions = load_questions()
    chosen = [q for q in questions.questions if q.answerable and q.pages and q.half == args.half]
    if args.of == "other_name":
        chosen = [q for q in chosen if names_in(q.question)]
    settings = Settings(temperature=0.0, seed=42)
    library = prepared_library(questions, settings)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="folio-contents-weight-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            folio.library.search("warm-up 预热", 5)
            for weight in (float(w) for w in args.weights.split(",") if w):
                results[f"{weight:g}"] = search_all(folio, chosen, weight, args.of)
        finally:
            folio.close()
    print(f"\n{args.half} half, {len(chosen)} questions; cells: hit@1/hit@5/MRR\n")
    print(f"| {args.of} weight | " + " | ".join(ROWS) + " | questions with contents in top 5 |")
    print("|---|" + "---|" * (len(ROWS) + 1))
    for name, result in results.items():
        rows = result["rows"]
        cells = [
            "/".join(f"{rows[row][k]:.2f}" for k in ("hit@1", "hit@5", "mrr")) if row in rows else "-"
            for row in ROWS
        ]
        print(f"| {name} | " + " | ".join(cells) + f" | {result['contents_in_top5']} |")
    out = write_result(f"{args.of}_weight_{args.half}", {"half": args.half, "summary": results})
    print(f"\nwrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
