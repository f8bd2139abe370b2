"""One answer while it streams: its spans, passages, text, and the figures computed from them."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from app.core.answering.evidence.evidence import Evidence
from app.core.answering.evidence.gate import GateScore
from app.core.answering.evidence.locate import LocatedSentence
from app.core.answering.types import AnswerMetrics, Metrics
from app.core.generate.kv_cache import KvCacheUse
from app.core.generate.model import ModelInfo, Sampling
from app.core.generate.steps import GenerationEnd
from app.core.passage import Hit
from app.core.prompt.budget import Budget


class AnswerRun:
    """The mutable state of one request while it streams, and the figures it yields."""

    def __init__(self, question: str, sampling: Sampling, model_path: str, model: str = "") -> None:
        self.submitted = time.perf_counter()
        self.asked_at = datetime.now(UTC)
        self.question = question
        self.sampling = sampling
        self.model_path = model_path
        self.model = model or Path(model_path).name
        self.spans: dict[str, float] = {}
        self.hits: list[Hit] = []
        self.retrieval_ms = 0.0
        self.budget: Budget | None = None
        self.passages: list[Hit] = []
        self.answer: list[str] = []
        self.thinking: list[str] = []
        self.end: GenerationEnd | None = None
        self.info: ModelInfo | None = None  # the model that answered (None: the model was not called)
        self.grounded = True
        self.follow_up = False  # the question depends on the chat (stages.Retrieval.follow_up)
        self.carried = False  # the previous answer's passages were kept (stages.Retrieval.carried)
        self.not_in_documents = False  # the gate found the documents do not cover the question
        self.located: list[LocatedSentence] = []  # the sentences Folio found before the model ran
        self.evidence: Evidence | None = None  # the retrieved passages worked out once (locate, judge)
        self.evidence_ms: float | None = None
        self.gate: GateScore | None = None  # the best passage's evidence for the question
        # the first answer's text when it stated nothing and the model was asked again (reask.py)
        self.reasked_from = ""
        self.withdrawn = ""  # its made-up figures when Folio withdrew the answer (judge/invented.py)

    def mark(self, span: str, started: float) -> float:
        now = time.perf_counter()
        self.spans[span] = (now - started) * 1000.0
        return now

    def live(self, first_at: float | None, now: float, count: int, thinking: int) -> Metrics:
        ttft = None if first_at is None else (first_at - self.submitted) * 1000.0
        rate = None
        if first_at is not None and count > 1 and now > first_at:
            rate = (count - 1) / (now - first_at)
        return Metrics(count, thinking, ttft, rate, (now - self.submitted) * 1000.0)

    def kv_cache(self) -> KvCacheUse | None:
        """The KV cache behind the answer: what the engine knows (a server: only what it reported)."""
        info, end = self.info, self.end
        if info is None:
            return None
        local = not info.server
        reused = evaluated = None
        told = local or (end is not None and end.counts_from == "server timings")  # llama-server's cache_n
        if end is not None and end.first_token_at is not None and told:
            reused, evaluated = end.cached_tokens, end.prompt_tokens - end.cached_tokens
        return KvCacheUse(
            type_k=info.kv_cache_type,
            type_v=info.kv_cache_type,
            bytes=info.kv_cache_bytes,
            n_ctx=info.n_ctx if local else None,
            reused_tokens=reused,
            evaluated_tokens=evaluated,
        )

    def metrics(self) -> AnswerMetrics:
        end = self.end
        total = (time.perf_counter() - self.submitted) * 1000.0
        base = AnswerMetrics(
            queue_ms=self.spans.get("queue", 0.0),
            retrieval_ms=self.retrieval_ms,
            assemble_ms=self.spans.get("assemble", 0.0),
            prompt_tokens=self.budget.prompt_tokens if self.budget else 0,
            total_ms=total,
            evidence_ms=self.evidence_ms,
        )
        if end is None:
            return base
        ttft = None if end.first_token_at is None else (end.first_token_at - self.submitted) * 1000.0
        tpot = None
        if end.decode_tokens_per_s:  # the server's own decode rate (llama-server's timings)
            tpot = 1000.0 / end.decode_tokens_per_s
        elif end.completion_tokens >= 2 and end.first_token_at is not None and end.last_token_at is not None:
            tpot = (end.last_token_at - end.first_token_at) * 1000.0 / (end.completion_tokens - 1)
        return replace(
            base,
            prompt_tokens=end.prompt_tokens,
            ttft_ms=ttft,
            prefill_tokens_per_s=end.prefill_tokens_per_s,
            completion_tokens=end.completion_tokens,
            thinking_tokens=end.thinking_tokens,
            tpot_ms=tpot,
            tokens_per_s=1000.0 / tpot if tpot else None,
            counts_from=end.counts_from,
        )
