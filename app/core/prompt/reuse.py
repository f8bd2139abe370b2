"""Passage order for a follow-up: the previous prompt's passages first, as shown before (KV cache reuse)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.core.passage import Hit
from app.core.prompt.budget import Budget


def follow_up_order(shown: Sequence[Hit], previous: Budget | None, stored: Sequence[Hit]) -> list[Hit]:
    """The passages for a follow-up's prompt. Those the previous answer's prompt also showed come
    first, in its order and with the text it showed (`previous.excerpts`, else the stored text in
    `stored`); the new ones follow in rank order. When the follow-up finds the same passages, its
    prompt then starts with the previous prompt and answer, which the model has already evaluated."""
    if previous is None or not previous.passages_used:
        return list(shown)
    found = {hit.chunk_id: hit for hit in shown}
    stored_text = {hit.chunk_id: hit.text for hit in stored}
    carried: list[Hit] = []
    for chunk in previous.passages_used:
        hit = found.get(chunk)
        if hit is not None:
            carried.append(replace(hit, text=previous.excerpts.get(chunk, stored_text.get(chunk, hit.text))))
    again = {hit.chunk_id for hit in carried}
    return carried + [hit for hit in shown if hit.chunk_id not in again]
