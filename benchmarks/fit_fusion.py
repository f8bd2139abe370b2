"""The fusion's weights fitted on the calibration half of the eval only (issue 34 item 4), quoted on
the held-out half: a grid over how the other script's pages enter (its weight, the cosine margin
and damp, fused apart or as one more leg) and the own dense leg's weight, every search of the grid
run by the real Retriever over the real eval library, its legs' rankings computed once per question.

    .venv/bin/python benchmarks/fit_fusion.py [--top 10]

Prints hit@1 / hit@5 / MRR per row (en, zh, en→zh, zh→en) of each half for today's weights, the
chosen point and the best-scoring points of the calibration half; writes
benchmarks/results/fit_fusion.json with record_env. The score of a point is the mean of hit@5 and
MRR over the four rows (each row counts once, whatever its size); a point is eligible only if no
same-language row of the calibration half falls below today's hit@5.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from app.core.config import Settings  # noqa: E402
from app.core.retrieve import MULTILINGUAL_WEIGHTS, LegWeights, Retriever  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation import scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

ROWS = ("en", "zh", "en→zh", "zh→en")
HALVES = ("calibration", "held_out")
GRID: dict[str, tuple[Any, ...]] = {
    "dense": (0.5, 0.75, 1.0),
    "other_script": (0.5, 0.8, 1.0, 1.25, 1.5),
    "apart": (True, False),
    "other_margin": (None, 0.02, 0.05, 0.1, 0.2),
    "other_damp": (0.25, 0.5),
}


class CachedLegs:
    """The retriever's expensive calls (query embedding, dense search, keyword search) remembered by
    their arguments, so that a grid re-fuses the same legs instead of running them again."""

    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever
        embed: Callable[..., Any] = retriever.embedder.embed_query
        search: Callable[..., Any] = retriever.index.search
        keyword: Callable[..., Any] = retriever.keyword_search
        queries: dict[str, Any] = {}
        dense: dict[tuple[bytes, int, int], Any] = {}
        keywords: dict[tuple[str, tuple[str, ...], int], Any] = {}

        def embed_query(texts: Sequence[str]) -> Any:
            if texts[0] not in queries:
                queries[texts[0]] = embed(texts)
            return queries[texts[0]]

        def index_search(vector: Any, k: int, among: Any = None) -> Any:
            key = (vector.tobytes(), k, id(among))
            if key not in dense:
                dense[key] = search(vector, k, among)
            return dense[key]

        def keyword_search(table: str, phrases: list[str], pool: int) -> Any:
            key = (table, tuple(phrases), pool)
            if key not in keywords:
                keywords[key] = keyword(table, phrases, pool)
            return keywords[key]

        retriever.embedder.embed_query = embed_query  # type: ignore[method-assign]
        retriever.index.search = index_search  # type: ignore[method-assign,assignment]
        retriever.keyword_search = keyword_search  # type: ignore[method-assign]


def figures(
    retriever: Retriever, questions: Sequence[Question], weights: dict[str, LegWeights]
) -> dict[str, Any]:
    """{half: {row: summary}} of these weights over the questions."""
    retriever.weights = weights
    records: dict[str, list[Any]] = {half: [] for half in HALVES}
    for question in questions:
        result = retriever.search(question.question, scoring.SEARCH_K)
        records[question.half].append(scoring.score_retrieval(question, result.hits, 0.0))
    out: dict[str, Any] = {}
    for half, found in records.items():
        summary = scoring.by_language(found, scoring.summarize_retrieval)
        out[half] = {row: summary[row] for row in ROWS if row in summary}
    return out


def score(half: dict[str, Any]) -> float:
    """The mean of hit@5 and MRR over the rows, each row counted once."""
    return float(np.mean([(half[row]["hit@5"] + half[row]["mrr"]) / 2 for row in ROWS if row in half]))


def cell(half: dict[str, Any]) -> str:
    parts = ("hit@1", "hit@5", "mrr")
    return " | ".join("/".join(f"{half[row][k]:.2f}" for k in parts) if row in half else "-" for row in ROWS)


def points() -> list[dict[str, Any]]:
    """Every point of the grid, with one point for the damp when there is no margin."""
    out = []
    for values in itertools.product(*GRID.values()):
        point = dict(zip(GRID, values, strict=True))
        if point["other_margin"] is None and point["other_damp"] != GRID["other_damp"][0]:
            continue
        if not point["apart"] and (point["other_margin"] is not None):
            continue  # the margin only damps a list fused apart
        out.append(point)
    return out


def weights_at(point: dict[str, Any]) -> dict[str, LegWeights]:
    return {script: dataclasses.replace(w, **point) for script, w in MULTILINGUAL_WEIGHTS.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=10, help="calibration points to print")
    args = parser.parse_args(argv)
    questions = load_questions()
    chosen = [q for q in questions.questions if q.answerable and q.pages]
    settings = Settings(temperature=0.0, seed=42)
    library = prepared_library(questions, settings)
    with tempfile.TemporaryDirectory(prefix="folio-fit-fusion-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            base = folio.library.reader.ready()
            retriever = Retriever(
                folio.library.store, base, folio.library.embedder, scripts=folio.library.reader.scripts
            )
            CachedLegs(retriever)
            today = figures(retriever, chosen, MULTILINGUAL_WEIGHTS)
            grid = []
            for n, point in enumerate(points(), start=1):
                grid.append((point, figures(retriever, chosen, weights_at(point))))
                if n % 20 == 0:
                    print(f"{n} points", flush=True)
        finally:
            folio.close()
    floor = {row: today["calibration"][row]["hit@5"] for row in ("en", "zh")}
    eligible = [
        (point, found)
        for point, found in grid
        if all(found["calibration"][row]["hit@5"] >= floor[row] for row in floor)
    ]
    eligible.sort(key=lambda item: -score(item[1]["calibration"]))
    header = "| weights | half | " + " | ".join(ROWS) + " | score |"
    print("\n" + header + "\n|---|---|" + "---|" * (len(ROWS) + 1))
    for half in HALVES:
        print(f"| today | {half} | {cell(today[half])} | {score(today[half]):.3f} |")
    for point, found in eligible[: args.top]:
        name = ", ".join(f"{k}={v}" for k, v in point.items())
        for half in HALVES:
            print(f"| {name} | {half} | {cell(found[half])} | {score(found[half]):.3f} |")
    out = write_result(
        "fit_fusion",
        {
            "grid": GRID,
            "today": today,
            "points": [{"point": point, "figures": found} for point, found in grid],
            "eligible_best_first": [point for point, _ in eligible],
        },
    )
    print(f"\nwrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
