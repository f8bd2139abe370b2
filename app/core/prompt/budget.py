"""Token-budgeted prompt assembly: passages best-first, history dropped first, never past n_ctx."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from app.core.errors import UsageError
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.passage import Hit
from app.core.prompt.system import INSTRUCTIONS, format_passage, passages_block, system_prompt

ChatMessage = dict[str, str]
SEPARATOR_SLACK = 2  # tokens a blank-line separator and a label boundary can add


class PromptModel(Protocol):
    """What assembly needs from the loaded model: its tokenizer and its chat template."""

    def count_tokens(self, text: str) -> int: ...

    def render_chat(self, messages: Sequence[ChatMessage], enable_thinking: bool) -> str: ...

    def tokenize_prompt(self, prompt: str) -> list[int]: ...


@dataclass(frozen=True)
class HistoryTurn:
    """A previous question and its complete answer in the same chat (thinking never included)."""

    question: str
    answer: str


@dataclass(frozen=True)
class DroppedPassage:
    """A retrieved passage left out of the prompt, and why ("context" or "ttft_target")."""

    chunk_id: int
    document: str
    page: int
    tokens: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk_id,
            "document": self.document,
            "page": self.page,
            "tokens": self.tokens,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DroppedPassage:
        return cls(
            int(data.get("chunk_id", 0)),
            str(data.get("document", "")),
            int(data.get("page", 0)),
            int(data.get("tokens", 0)),
            str(data.get("reason", "")),
        )


@dataclass(frozen=True)
class Budget:
    """Where the context went: tokens per part, what was used, what was dropped and why."""

    n_ctx: int
    answer_reserve: int
    limit_tokens: int  # the most prompt tokens allowed (context and TTFT target)
    ttft_limit_tokens: int | None
    prompt_tokens: int = 0
    system_tokens: int = 0
    passages_tokens: int = 0
    history_tokens: int = 0
    question_tokens: int = 0
    template_tokens: int = 0
    passages_used: list[int] = field(default_factory=list)  # chunk ids, in [n] order
    passages_dropped: list[DroppedPassage] = field(default_factory=list)
    history_turns_used: int = 0
    history_turns_dropped: int = 0
    evidence_saved_tokens: int = 0  # passage tokens evidence selection left out of the prompt
    # the text the prompt showed of each passage evidence selection cut (chunk id -> text), so that
    # a follow-up can show it again word for word and reuse the KV cache
    excerpts: dict[int, str] = field(default_factory=dict)
    ttft_target_ms: float | None = None
    prefill_tokens_per_s: float | None = None  # the rate the prediction used
    cached_prompt_tokens: int = 0  # prefix already in the KV cache when assembled
    predicted_ttft_ms: float | None = None
    measured_ttft_ms: float | None = None

    def with_prediction(
        self, cached: int, rate: float | None, target_ms: float | None, elapsed_ms: float = 0.0
    ) -> Budget:
        """Predicted TTFT = time already spent (queue, retrieval, assembly) + uncached tokens / rate."""
        predicted = None
        if rate and rate > 0:
            predicted = elapsed_ms + max(0, self.prompt_tokens - cached) / rate * 1000.0
        return replace(
            self,
            cached_prompt_tokens=cached,
            prefill_tokens_per_s=rate,
            predicted_ttft_ms=predicted,
            ttft_target_ms=target_ms,
        )

    def to_json(self) -> dict[str, Any]:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 1)

        return {
            "n_ctx": self.n_ctx,
            "answer_reserve": self.answer_reserve,
            "limit_tokens": self.limit_tokens,
            "ttft_limit_tokens": self.ttft_limit_tokens,
            "prompt_tokens": self.prompt_tokens,
            "system_tokens": self.system_tokens,
            "passages_tokens": self.passages_tokens,
            "history_tokens": self.history_tokens,
            "question_tokens": self.question_tokens,
            "template_tokens": self.template_tokens,
            "passages_used": list(self.passages_used),
            "passages_dropped": [dropped.to_json() for dropped in self.passages_dropped],
            "history_turns_used": self.history_turns_used,
            "history_turns_dropped": self.history_turns_dropped,
            "evidence_saved_tokens": self.evidence_saved_tokens,
            "excerpts": {str(chunk): text for chunk, text in self.excerpts.items()},
            "ttft_target_ms": rounded(self.ttft_target_ms),
            "prefill_tokens_per_s": rounded(self.prefill_tokens_per_s),
            "cached_prompt_tokens": self.cached_prompt_tokens,
            "predicted_ttft_ms": rounded(self.predicted_ttft_ms),
            "measured_ttft_ms": rounded(self.measured_ttft_ms),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Budget | None:
        """The budget of a saved trace; None when the trace holds none."""
        if not data or "n_ctx" not in data:
            return None
        known = {f for f in cls.__dataclass_fields__}
        values = {key: value for key, value in data.items() if key in known}
        values["passages_used"] = [int(chunk) for chunk in data.get("passages_used") or []]
        values["excerpts"] = {int(chunk): str(text) for chunk, text in (data.get("excerpts") or {}).items()}
        values["passages_dropped"] = [
            DroppedPassage.from_json(dict(item)) for item in data.get("passages_dropped") or []
        ]
        return cls(**values)


@dataclass(frozen=True)
class PromptPlan:
    """The rendered prompt, its exact tokens, the passages it numbers [1..n] and its budget."""

    prompt: str
    tokens: list[int]
    messages: list[ChatMessage]
    passages: list[Hit]
    budget: Budget


def build_messages(
    question: str,
    passages: Sequence[Hit],
    history: Sequence[HistoryTurn],
    instructions: str = INSTRUCTIONS,
) -> list[ChatMessage]:
    """System (instructions + passages, a stable prefix), older turns, then the question."""
    messages: list[ChatMessage] = [{"role": "system", "content": system_prompt(passages, instructions)}]
    for turn in history:
        messages.append({"role": "user", "content": turn.question})
        messages.append({"role": "assistant", "content": turn.answer})
    messages.append({"role": "user", "content": question})
    return messages


def assemble(
    model: PromptModel,
    question: str,
    hits: Sequence[Hit],
    history: Sequence[HistoryTurn],
    *,
    n_ctx: int,
    max_tokens: int,
    enable_thinking: bool,
    ttft_limit_tokens: int | None = None,
    instructions: str = INSTRUCTIONS,
) -> PromptPlan:
    """Fit the prompt: passages best-first (skip one that does not fit, try the next), then the
    newest history turns; the rendered prompt is tokenized exactly and trimmed until it fits."""
    if max_tokens >= n_ctx:
        raise UsageError(
            QT_TRANSLATE_NOOP("Core", "max answer tokens ({0}) must be below the context size ({1})"),
            max_tokens,
            n_ctx,
        )
    ctx_limit = n_ctx - max_tokens
    limit = ctx_limit if ttft_limit_tokens is None else min(ctx_limit, ttft_limit_tokens)
    render = _Renderer(model, question, instructions, enable_thinking)
    _, base_tokens = render([], [])
    if len(base_tokens) > ctx_limit:
        raise UsageError(
            QT_TRANSLATE_NOOP(
                "Core",
                "the question is too long: {0} prompt tokens plus {1} answer tokens "
                "exceed the context of {2} tokens",
            ),
            len(base_tokens),
            max_tokens,
            n_ctx,
        )
    estimate = len(base_tokens) + model.count_tokens("\n\n") + SEPARATOR_SLACK
    used, dropped, estimate = _fit_passages(model, hits, estimate, limit, ctx_limit)
    turns = _fit_history(model, history, estimate, limit)
    prompt, tokens = _trim(render, used, turns, dropped, limit, ctx_limit)
    limits = Budget(n_ctx, answer_reserve=max_tokens, limit_tokens=limit, ttft_limit_tokens=ttft_limit_tokens)
    budget = _spent(limits, model, question, used, turns, len(history), dropped, tokens, instructions)
    messages = build_messages(question, used, turns, instructions)
    return PromptPlan(prompt=prompt, tokens=tokens, messages=messages, passages=used, budget=budget)


@dataclass(frozen=True)
class _Renderer:
    """The prompt of one question rendered by the model's template, and its exact tokens."""

    model: PromptModel
    question: str
    instructions: str
    enable_thinking: bool

    def __call__(self, passages: Sequence[Hit], turns: Sequence[HistoryTurn]) -> tuple[str, list[int]]:
        messages = build_messages(self.question, passages, turns, self.instructions)
        text = self.model.render_chat(messages, self.enable_thinking)
        return text, self.model.tokenize_prompt(text)


def _fit_passages(
    model: PromptModel, hits: Sequence[Hit], estimate: int, limit: int, ctx_limit: int
) -> tuple[list[Hit], list[DroppedPassage], int]:
    """The passages that fit by estimate, best-first, those left out and why, and the new estimate."""
    used: list[Hit] = []
    dropped: list[DroppedPassage] = []
    for hit in hits:
        cost = model.count_tokens(format_passage(len(used) + 1, hit)) + SEPARATOR_SLACK
        # The TTFT target never leaves the model without a passage: the best one that fits the
        # context goes in even when the target would drop it.
        if estimate + cost <= limit or (not used and estimate + cost <= ctx_limit):
            used.append(hit)
            estimate += cost
        else:
            reason = "context" if estimate + cost > ctx_limit else "ttft_target"
            dropped.append(DroppedPassage(hit.chunk_id, hit.document, hit.page, cost, reason))
    return used, dropped, estimate


def _fit_history(
    model: PromptModel, history: Sequence[HistoryTurn], estimate: int, limit: int
) -> list[HistoryTurn]:
    """The newest history turns that fit by estimate after the passages, oldest first."""
    turns: list[HistoryTurn] = []
    for turn in reversed(history):  # newest first; older turns go first when short
        cost = model.count_tokens(turn.question) + model.count_tokens(turn.answer) + 12
        if estimate + cost > limit:
            break
        turns.insert(0, turn)
        estimate += cost
    return turns


def _trim(
    render: _Renderer,
    used: list[Hit],
    turns: list[HistoryTurn],
    dropped: list[DroppedPassage],
    limit: int,
    ctx_limit: int,
) -> tuple[str, list[int]]:
    """Render exactly and drop the oldest turn, else the last passage, until the prompt fits
    (`used`, `turns` and `dropped` are updated in place)."""
    prompt, tokens = render(used, turns)
    while (len(tokens) > limit and (turns or len(used) > 1)) or (len(tokens) > ctx_limit and used):
        if turns:
            turns.pop(0)
        else:
            hit = used.pop()
            cost = render.model.count_tokens(format_passage(len(used) + 1, hit))
            reason = "context" if len(tokens) > ctx_limit else "ttft_target"
            dropped.insert(0, DroppedPassage(hit.chunk_id, hit.document, hit.page, cost, reason))
        prompt, tokens = render(used, turns)
    return prompt, tokens


def _spent(
    limits: Budget,
    model: PromptModel,
    question: str,
    used: Sequence[Hit],
    turns: Sequence[HistoryTurn],
    history_count: int,
    dropped: list[DroppedPassage],
    tokens: Sequence[int],
    instructions: str,
) -> Budget:
    """`limits` with where the prompt's tokens went, what was used and what was dropped."""
    system_text = system_prompt(used, instructions)
    passages_tokens = model.count_tokens(passages_block(used)) if used else 0
    system_tokens = model.count_tokens(system_text) - passages_tokens
    history_tokens = sum(model.count_tokens(t.question) + model.count_tokens(t.answer) for t in turns)
    question_tokens = model.count_tokens(question)
    return replace(
        limits,
        prompt_tokens=len(tokens),
        system_tokens=system_tokens,
        passages_tokens=passages_tokens,
        history_tokens=history_tokens,
        question_tokens=question_tokens,
        template_tokens=len(tokens) - system_tokens - passages_tokens - history_tokens - question_tokens,
        passages_used=[hit.chunk_id for hit in used],
        passages_dropped=dropped,
        history_turns_used=len(turns),
        history_turns_dropped=history_count - len(turns),
    )
