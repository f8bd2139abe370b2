"""The model's own view, before it answers, of whether the passages answer the question (issue 21)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.cancel import CancelToken
from app.core.errors import ModelError
from app.core.generate.engine import Engine
from app.core.passage import Hit
from app.core.prompt.budget import build_messages
from app.core.script import cjk_language

# How the prompt's refusal begins (system.INSTRUCTIONS asks for it; not_in_documents_answer says it).
REFUSAL_OPENING = {"zh": "文档中没有", "en": "The documents do not cover"}
ASK_YES_NO = "\n\nDo the passages above answer this question? Reply yes or no."
YES = ("yes", "Yes", "YES", "是")
NO = ("no", "No", "NO", "否")


def next_token_logprobs(engine: Engine, tokens: Sequence[int], cancel: CancelToken | None = None) -> Any:
    """log P of every vocabulary token right after `tokens` (a numpy array), from one forward pass
    after the cached prefix; nothing sampled. None when cancelled. The caller holds `engine.lock`."""
    import numpy as np

    llm = engine._require_llm()
    prompt = list(tokens)
    if not prompt or len(prompt) >= llm.n_ctx():
        raise ModelError(f"the prompt has {len(prompt)} tokens; the context holds {llm.n_ctx()}")
    cached = engine.cached_prefix(prompt)
    llm.n_tokens = cached
    for start in range(cached, len(prompt), engine.n_batch):
        if cancel is not None and cancel.cancelled:
            return None
        llm.eval(prompt[start : start + engine.n_batch])
    logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).astype(np.float64)
    top = float(logits.max())
    return logits - (top + float(np.log(np.exp(logits - top).sum())))


@dataclass(frozen=True)
class Probe:
    """The model's two judgements of one prompt, as log-probabilities (natural log)."""

    refusal_logprob: float  # of the refusal's opening words as the answer's first tokens
    yes_share: float  # P(yes) / (P(yes) + P(no)) after the yes-or-no question

    def to_json(self) -> dict[str, float]:
        return {"refusal_logprob": round(self.refusal_logprob, 3), "yes_share": round(self.yes_share, 4)}


def refusal_logprob(
    engine: Engine, tokens: Sequence[int], question: str, cancel: CancelToken | None = None
) -> float | None:
    """log P(the refusal's opening words | the answer prompt `tokens`), token by token (each step one
    forward pass after the cached prefix). None when cancelled."""
    opening = REFUSAL_OPENING["zh" if cjk_language(question) else "en"]
    prompt, total = list(tokens), 0.0
    for token in engine.text_tokens(opening):
        logprobs = next_token_logprobs(engine, prompt, cancel)
        if logprobs is None:
            return None
        total += float(logprobs[token])
        prompt.append(token)
    return total


def yes_share(
    engine: Engine, passages: Sequence[Hit], question: str, cancel: CancelToken | None = None
) -> float | None:
    """P(yes) / (P(yes) + P(no)) for "do the passages above answer this question?" asked with the
    answer prompt's system message (its KV cache prefix is reused). None when cancelled."""
    escaped = [_escaped(engine, hit) for hit in passages]
    messages = build_messages(engine.escape_special(question) + ASK_YES_NO, escaped, [])
    tokens = engine.tokenize_prompt(engine.render_chat(messages, enable_thinking=False))
    logprobs = next_token_logprobs(engine, tokens, cancel)
    if logprobs is None:
        return None
    yes, no = _mass(engine, logprobs, YES), _mass(engine, logprobs, NO)
    return yes / (yes + no) if yes + no > 0 else 0.5


def probe(
    engine: Engine,
    tokens: Sequence[int],
    passages: Sequence[Hit],
    question: str,
    cancel: CancelToken | None = None,
) -> Probe | None:
    """Both judgements; the yes-or-no one first, so that the answer prompt's own tokens are the ones
    left in the KV cache. None when cancelled."""
    share = yes_share(engine, passages, question, cancel)
    refusal = None if share is None else refusal_logprob(engine, tokens, question, cancel)
    if share is None or refusal is None:
        return None
    return Probe(refusal, share)


def _mass(engine: Engine, logprobs: Any, spellings: Sequence[str]) -> float:
    """The probability of the first tokens of these spellings (each token counted once)."""
    firsts = {tokens[0] for tokens in (engine.text_tokens(s) for s in spellings) if tokens}
    return sum(math.exp(float(logprobs[token])) for token in firsts)


def _escaped(engine: Engine, hit: Hit) -> Hit:
    from dataclasses import replace

    return replace(hit, text=engine.escape_special(hit.text))
