"""One streamed chat completion from a server, as the TokenSteps and GenerationEnd of a local one."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.cancel import CancelToken
from app.core.errors import ServerError
from app.core.generate.model import ChatRequest, Sampling
from app.core.generate.server_http import EventStream, ServerConnection
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.generate.textstream import THINKING, ChannelSplitter, Piece
from app.core.messages import QT_TRANSLATE_NOOP

CHAT_PATH = "/v1/chat/completions"
# the finish reasons of the OpenAI protocol and of the servers that extend it, as Folio's
FINISH_REASONS = {"stop": "stop", "eos": "stop", "length": "length"}
CANCEL_POLL_S = 0.05


def request_body(
    model: str, chat: ChatRequest, sampling: Sampling, stops: Sequence[str], grammar: str | None
) -> dict[str, Any]:
    """The /v1/chat/completions request: the sampling of a local answer, under each server's names."""
    body: dict[str, Any] = {
        "model": model,
        "messages": list(chat.messages),
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": sampling.max_tokens,
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "top_k": sampling.top_k,
        "min_p": sampling.min_p,
        "repeat_penalty": sampling.repeat_penalty,  # llama-server, llama-cpp-python
        "repetition_penalty": sampling.repeat_penalty,  # vLLM
        "seed": sampling.seed,
        "chat_template_kwargs": {"enable_thinking": chat.enable_thinking},  # vLLM, llama-server
    }
    if stops:
        body["stop"] = list(stops)
    if grammar:
        body["grammar"] = grammar  # GBNF: llama-server, llama-cpp-python
    return body


@dataclass
class _Tally:
    """What the stream said so far."""

    started: float
    first_at: float | None = None
    last_at: float | None = None
    chunks: int = 0
    thinking: int = 0
    server_reason: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, Any] = field(default_factory=dict)


def stream_chat(
    conn: ServerConnection,
    body: dict[str, Any],
    prompt_tokens: int,
    cached_tokens: int,
    cancel: CancelToken | None,
    stops: Sequence[str] = (),
    start_thinking: bool = False,
) -> Iterator[TokenStep | GenerationEnd]:
    """Stream one answer: a TokenStep per non-empty delta (content and reasoning_content), then one
    GenerationEnd. Stop closes the connection (the server stops generating); a stream that breaks
    off ends as "error" with its text kept. Never raises for a failed answer."""
    tally = _Tally(time.perf_counter())
    splitter = ChannelSplitter(stops, start_thinking)
    try:
        stream = conn.open_stream(CHAT_PATH, body)
    except ServerError as exc:
        yield _end(tally, "error", [], prompt_tokens, cached_tokens, str(exc))
        return
    finished = threading.Event()
    watcher = threading.Thread(target=_watch, args=(stream, cancel, finished), daemon=True)
    watcher.start()
    error: str | None = None
    try:
        for event in stream.events():
            yield from _steps(event, tally, splitter)
            if splitter.stopped or (cancel is not None and cancel.cancelled):
                stream.abort()
                break
    except ServerError as exc:
        error = str(exc)
    finally:
        finished.set()
        watcher.join()
        stream.close()
    reason, error = _reason(tally, splitter, stream, cancel, error, prompt_tokens)
    pieces: list[Piece] = [] if splitter.stopped else splitter.flush()
    yield _end(tally, reason, pieces, prompt_tokens, cached_tokens, error)


def _watch(stream: EventStream, cancel: CancelToken | None, finished: threading.Event) -> None:
    """Close the stream as soon as Stop is pressed, even while the server has not sent a token."""
    if cancel is None:
        return
    while not finished.is_set():
        if cancel.wait(CANCEL_POLL_S):
            stream.abort()
            return


def _steps(event: dict[str, Any], tally: _Tally, splitter: ChannelSplitter) -> Iterator[TokenStep]:
    if isinstance(event.get("usage"), dict):
        tally.usage = event["usage"]
    if isinstance(event.get("timings"), dict):
        tally.timings = event["timings"]
    if "error" in event:  # an error sent inside the stream (llama-server, vLLM)
        error = event["error"]
        message = error.get("message", error) if isinstance(error, dict) else error
        raise ServerError("http", QT_TRANSLATE_NOOP("Core", "the server stopped the answer: {0}"), message)
    for choice in event.get("choices") or []:
        delta = choice.get("delta") or {}
        reasoning = str(delta.get("reasoning_content") or delta.get("reasoning") or "")
        content = str(delta.get("content") or "")
        if reasoning or content:
            now = time.perf_counter()
            tally.first_at = tally.first_at or now
            tally.last_at = now
            tally.chunks += 1
            pieces: list[Piece] = [(THINKING, reasoning)] if reasoning else []
            was_thinking = splitter.channel == THINKING
            if content:
                pieces += splitter.feed(content)
            in_thinking = bool(reasoning) or was_thinking or splitter.channel == THINKING
            tally.thinking += in_thinking
            yield TokenStep(-1, pieces, in_thinking, now)
        if choice.get("finish_reason"):
            tally.server_reason = str(choice["finish_reason"])


def _reason(
    tally: _Tally,
    splitter: ChannelSplitter,
    stream: EventStream,
    cancel: CancelToken | None,
    error: str | None,
    prompt_tokens: int,
) -> tuple[str, str | None]:
    """Folio's finish reason and error for how the stream ended: only the server's own stop (or a
    stop string) is a complete answer."""
    if splitter.stopped:
        return "stop", None
    if cancel is not None and cancel.cancelled and tally.server_reason is None:
        return "cancelled", None
    if error is not None:
        return "error", error
    if tally.server_reason is not None:
        mapped = FINISH_REASONS.get(tally.server_reason)
        if mapped is not None:
            return mapped, None
        return "error", f"the server ended the answer with finish reason {tally.server_reason!r}"
    if stream.done:
        return "error", "the server ended the stream without a finish reason (stopped for another request?)"
    if tally.chunks == 0:
        return "error", (
            f"the server closed the stream before the first token: the prompt of {prompt_tokens} tokens "
            "may not fit its context (set the context size to the server's)"
        )
    return "error", "the connection to the server broke off mid-answer: the answer is incomplete"


def _end(
    tally: _Tally, reason: str, pieces: list[Piece], prompt_tokens: int, cached: int, error: str | None
) -> GenerationEnd:
    """The end, with the server's own counts where it sent them (usage, llama-server's timings)."""
    usage, timings = tally.usage, tally.timings
    completion, figures = tally.chunks, "counted"
    if isinstance(usage.get("completion_tokens"), int):
        completion, figures = usage["completion_tokens"], "server usage"
    if isinstance(usage.get("prompt_tokens"), int):
        prompt_tokens = usage["prompt_tokens"]
    details = usage.get("completion_tokens_details") or {}
    thinking = details.get("reasoning_tokens") if isinstance(details, dict) else None
    rate = timings.get("predicted_per_second")
    if isinstance(timings.get("cache_n"), int):
        cached = timings["cache_n"]
    if isinstance(rate, (int, float)) and rate > 0:
        figures = "server timings"
    else:
        rate = None
    return GenerationEnd(
        finish_reason=reason,
        pieces=pieces,
        prompt_tokens=prompt_tokens,
        cached_tokens=min(cached, prompt_tokens),
        prefill_ms=None if tally.first_at is None else (tally.first_at - tally.started) * 1000.0,
        first_token_at=tally.first_at,
        last_token_at=tally.last_at,
        completion_tokens=completion,
        thinking_tokens=thinking if isinstance(thinking, int) else tally.thinking,
        error=error,
        counts_from=figures,
        decode_tokens_per_s=float(rate) if rate is not None else None,
    )
