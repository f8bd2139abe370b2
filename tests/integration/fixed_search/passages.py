"""The fixed search's passages: two on prefill and decode, one naming the default chat model."""

from __future__ import annotations

from tests.core.answer_helpers import make_hit

HITS = [
    make_hit(1, "Prefill evaluates the whole prompt at once; it decides the time to first token.", page=5),
    make_hit(2, "Decode produces one token per step and decides the tokens per second.", page=6),
    make_hit(3, "The default chat model is SmolLM2 with 135 million parameters.", document="models.md"),
]
