"""The map plan of a whole-document summary: the document's chunks in page order, cut into a bounded
number of page ranges, each read as one map step whose passages fit the prompt budget."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from app.core.passage import Hit
from app.core.prompt.budget import PromptModel, PromptPlan, assemble
from app.core.prompt.system import SUMMARY_INSTRUCTIONS, format_passage

# At most this many map steps, each with at most WINDOW_TOKENS prompt tokens: a ~50-page PDF
# (~100 chunks) then costs a handful of model calls on 2 cores (benchmarks/bench_whole_document.py);
# a longer document has more pages per step and its most central passages read.
MAP_STEPS = 6
WINDOW_TOKENS = 1200
MAP_ANSWER_TOKENS = 160  # the answer reserve of one map step (two or three points)


@dataclass(frozen=True)
class MapWindow:
    """One map step: a page range of the document, the passages read of it (page order) and their
    prompt, fitted by the token budget (prompt/budget.py)."""

    first_page: int
    last_page: int
    chunks: int  # the range's chunks (read or not)
    plan: PromptPlan

    @property
    def passages(self) -> list[Hit]:
        return self.plan.passages


def page_ranges(count: int, steps: int) -> list[range]:
    """`count` chunks cut into `steps` consecutive ranges of nearly equal size (none empty)."""
    steps = max(1, min(steps, count))
    bounds = [round(i * count / steps) for i in range(steps + 1)]
    return [range(bounds[i], bounds[i + 1]) for i in range(steps) if bounds[i + 1] > bounds[i]]


def central_order(vectors: npt.NDArray[np.float32]) -> list[int]:
    """Row indices, most representative first: by cosine to the rows' mean direction (ties in order)."""
    if len(vectors) == 0:
        return []
    centre = vectors.mean(axis=0)
    norm = float(np.linalg.norm(centre))
    if norm == 0.0:
        return list(range(len(vectors)))
    scores = vectors @ (centre / norm)
    return sorted(range(len(vectors)), key=lambda i: (-float(scores[i]), i))


def plan_windows(
    model: PromptModel,
    question: str,
    hits: Sequence[Hit],
    vectors: npt.NDArray[np.float32],
    *,
    n_ctx: int,
    max_steps: int = MAP_STEPS,
    window_tokens: int = WINDOW_TOKENS,
    answer_tokens: int = MAP_ANSWER_TOKENS,
) -> list[MapWindow]:
    """The map steps over a document's chunks `hits` (page order; `vectors` their stored
    embeddings): as many steps as the document needs at `window_tokens` each, at most `max_steps`.
    Each step's passages are its range's most central chunks that fit the budget (`assemble`, with
    the window as its limit), shown in page order."""
    if not hits:
        return []
    limit = min(window_tokens, n_ctx - answer_tokens)
    total = sum(model.count_tokens(format_passage(1, hit)) for hit in hits)
    steps = min(max_steps, max(1, math.ceil(total / max(1, limit))))
    windows: list[MapWindow] = []
    for part in page_ranges(len(hits), steps):
        ranged = [hits[i] for i in part]
        order = central_order(vectors[part.start : part.stop])

        def fitted(passages: Sequence[Hit]) -> PromptPlan:
            return assemble(
                model,
                question,
                passages,
                [],
                n_ctx=n_ctx,
                max_tokens=answer_tokens,
                enable_thinking=False,
                ttft_limit_tokens=limit,
                instructions=SUMMARY_INSTRUCTIONS,
            )

        best_first = fitted([ranged[i] for i in order])
        chosen = {hit.chunk_id for hit in best_first.passages}
        plan = fitted([hit for hit in ranged if hit.chunk_id in chosen])
        # the budget says which of the range's chunks were left out, as for any prompt
        dropped = best_first.budget.passages_dropped + plan.budget.passages_dropped
        plan = replace(plan, budget=replace(plan.budget, passages_dropped=dropped))
        pages = [hit.page for hit in ranged] + [hit.page_end for hit in ranged]
        windows.append(MapWindow(min(pages), max(pages), len(ranged), plan))
    return windows
