"""Prompt-lookup decoding: draft the next tokens by copying what followed the same n-gram earlier
in the prompt or the answer, and let one batched decode check the whole draft.

A RAG answer copies words and figures from its passages; when the last n tokens of the answer
occurred before, the tokens that followed them then are a likely continuation. The model
evaluates the sampled token and the draft in one batch (about the cost of one token on a CPU,
where decode is bound by reading the weights), and the loop samples every position in order with
the same sampler chain as plain decoding (penalties, grammar, greedy or seeded sampling): a draft
token counts only when it is the token sampled there, so the text is the one plain decoding
writes, only more tokens come out of one decode. The first rejected position's token is the
sampled one, and the cache beyond it is dropped.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

NGRAM_SIZES = (3, 2)  # longest first: a 1-gram match is mostly a common word, a poor draft
FIRST_DRAFT = 2  # verifying costs about one token's decode per draft token on a busy 2-core CPU


@dataclass
class NgramIndex:
    """Where each n-gram of the tokens so far last occurred, by the position of its next token."""

    sizes: tuple[int, ...] = NGRAM_SIZES
    tokens: list[int] = field(default_factory=list)
    _seen: dict[tuple[int, ...], int] = field(default_factory=dict)

    def extend(self, new: Sequence[int]) -> None:
        """Append tokens; each n-gram that now has a following token is indexed (latest wins)."""
        tokens, seen = self.tokens, self._seen
        for token in new:
            end = len(tokens)  # the position `token` takes, following the n-grams that end before it
            for n in self.sizes:
                if end >= n:
                    seen[tuple(tokens[end - n : end])] = end
            tokens.append(token)

    def draft(self, limit: int) -> list[int]:
        """Up to `limit` tokens that followed the latest earlier occurrence of the current tail."""
        tokens = self.tokens
        if limit <= 0:
            return []
        for n in self.sizes:
            if len(tokens) < n:
                continue
            at = self._seen.get(tuple(tokens[-n:]))
            if at is not None:
                return tokens[at : at + limit]
        return []


@dataclass
class LookupStats:
    """How the drafts fared in one generation (for metrics and benchmarks)."""

    decodes: int = 0  # batched model evaluations
    drafted: int = 0  # draft tokens evaluated
    accepted: int = 0  # draft tokens that were the sampled token


def lookup_generate(
    llm: Any,
    prompt: Sequence[int],
    sampler: Any,
    draft_tokens: int,
    stats: LookupStats | None = None,
) -> Generator[int, None, None]:
    """Sampled tokens after `prompt`, of which the KV cache already holds all but the last
    (`llm.n_tokens == len(prompt) - 1`, as the engine's prefill leaves it); `sampler` is the chain of
    `llm._init_sampler` (it accepts each sampled token). Runs until the caller stops it; before each
    token is yielded, `llm.n_tokens` counts exactly the tokens whose KV the cache holds for the text."""
    stats = stats if stats is not None else LookupStats()
    index = NgramIndex()
    index.extend(prompt)
    pending = [prompt[-1]]
    ctx, n_ctx = llm._ctx, llm.n_ctx()
    limit = max(0, min(draft_tokens, llm.n_batch - 1))
    size = min(limit, FIRST_DRAFT)
    while True:
        n_past = llm.n_tokens
        room = n_ctx - n_past - len(pending) - 1
        draft = index.draft(min(size, room))
        batch = pending + draft
        ctx.kv_cache_seq_rm(-1, n_past, -1)
        llm._batch.set_batch(batch=batch, n_past=n_past, logits_all=True)
        ctx.decode(llm._batch)
        llm.input_ids[n_past : n_past + len(batch)] = batch
        stats.decodes += 1
        stats.drafted += len(draft)
        kept = 0
        for i in range(len(batch)):
            token: int = sampler.sample(ctx, i)
            llm.n_tokens = n_past + i + 1  # batch[: i + 1] is the text so far; `token` follows it
            index.extend([token])
            accepted = i + 1 < len(batch) and batch[i + 1] == token
            if not accepted:
                pending = [token]
            else:
                kept += 1
                stats.accepted += 1
            yield token
            if not accepted:
                break
        if draft:  # a draft kept whole doubles the next one; one cut short sizes the next to it
            size = min(limit, size * 2) if kept == len(draft) else max(1, kept + 1)
