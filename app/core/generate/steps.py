"""What a generation yields: a TokenStep per sampled token, one GenerationEnd last."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.generate.textstream import Piece


@dataclass(frozen=True)
class TokenStep:
    """One sampled token and the text it completed (possibly none: a split character, a tag)."""

    token: int
    pieces: list[Piece]
    thinking: bool
    at: float  # time.perf_counter() when sampled


@dataclass(frozen=True)
class GenerationEnd:
    """Why and how a generation ended; pieces is the text still held back at the end."""

    finish_reason: str  # stop | length | cancelled | error
    pieces: list[Piece]
    prompt_tokens: int
    cached_tokens: int  # prompt prefix reused from the KV cache, not evaluated again
    prefill_ms: float | None  # stream start to first token
    first_token_at: float | None
    last_token_at: float | None
    completion_tokens: int
    thinking_tokens: int
    error: str | None = None
    # where the figures come from: "engine" (this process), "server usage", "server timings" (a
    # server's own counts and decode rate) or "counted" (the streamed chunks, one token each)
    counts_from: str = "engine"
    decode_tokens_per_s: float | None = None  # the server's own decode rate, when it reports one
    # prompt-lookup decoding (generate/lookup.py): draft tokens the model checked, and those it kept
    drafted_tokens: int = 0
    accepted_tokens: int = 0

    @property
    def prefill_tokens_per_s(self) -> float | None:
        evaluated = self.prompt_tokens - self.cached_tokens
        if not self.prefill_ms or evaluated <= 0:
            return None
        return evaluated / (self.prefill_ms / 1000.0)
