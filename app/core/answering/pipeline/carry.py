"""A chat's next question keeps the previous answer's passages while they still cover it, so that
its prompt starts with the previous prompt, which the model has already evaluated (KV cache reuse)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.core.passage import Hit, SearchResult
from app.core.prompt.budget import Budget
from app.core.store.conversations import Turn

# The named chunks as hits of a query, in the order given (LibraryReader.passages).
Lookup = Callable[[str, Sequence[int]], SearchResult]


def previous_passages(turns: Sequence[Turn]) -> list[int]:
    """The chunk ids the last answer's prompt showed, in its order ([] when it showed none: the gate
    stopped it, or an older trace has no budget)."""
    if not turns:
        return []
    budget = Budget.from_json(dict(turns[-1].trace.get("budget") or {}))
    return list(budget.passages_used) if budget is not None else []


def carried_hits(
    question: str, hits: Sequence[Hit], turns: Sequence[Turn], lookup: Lookup
) -> list[Hit] | None:
    """The previous answer's passages, in its prompt's order, when this question's best passage
    (`hits[0]`) is one of them: what the model needs is still in the prompt it has evaluated, and
    a prompt with the same passages in the same words reuses all of it. None when the best passage
    is new (the question moved on), when there is no previous prompt, or when one of its passages
    is no longer in the library (re-ingested or removed since)."""
    previous = previous_passages(turns)
    if not hits or not previous or hits[0].chunk_id not in previous:
        return None
    kept = lookup(question, previous).hits
    if [hit.chunk_id for hit in kept] != previous:
        return None
    return list(kept)
