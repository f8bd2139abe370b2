"""The decode stage: prefill and decode on the engine, streamed as Delta and live Metrics events."""

from __future__ import annotations

import time
from collections.abc import Iterator

from app.core.answering.pipeline.stages import PreparedPrompt
from app.core.answering.run import AnswerRun
from app.core.answering.types import AnswerEvent, Delta
from app.core.cancel import CancelToken
from app.core.generate.chat_engine import ChatEngine
from app.core.generate.steps import TokenStep

METRICS_EVERY = 16  # tokens between live Metrics events


def decode(
    run: AnswerRun, engine: ChatEngine, prompt: PreparedPrompt, cancel: CancelToken
) -> Iterator[AnswerEvent]:
    """Stream the model's text into `run` (answer and thinking channels), with the prefill and
    decode spans; `run.end` holds how generation ended."""
    stream_started = time.perf_counter()
    held = count = thinking = 0
    first_at: float | None = None
    channel = "answer"
    stream = engine.stream(
        prompt.tokens,
        run.sampling,
        cancel,
        start_thinking=prompt.start_thinking,
        grammar=prompt.grammar,
        continuing=bool(prompt.continued),
        chat=prompt.chat,
    )
    for event in stream:
        if isinstance(event, TokenStep):
            held += 1
            count += 1
            thinking += event.thinking
            first_at = first_at or event.at
        else:
            run.end = event
        for channel, text in event.pieces:
            (run.thinking if channel == "thinking" else run.answer).append(text)
            yield Delta(text, channel, held)
            held = 0
        if isinstance(event, TokenStep) and held:
            channel = "thinking" if event.thinking else "answer"
        if isinstance(event, TokenStep) and count % METRICS_EVERY == 1:
            yield run.live(first_at, event.at, count, thinking)
    if held:  # tokens that completed no text (e.g. a cut stop string): still counted
        yield Delta("", channel, held)
    end = run.end
    if end is not None and end.first_token_at is not None:
        run.spans["prefill"] = (end.first_token_at - stream_started) * 1000.0
        run.spans["decode"] = (time.perf_counter() - end.first_token_at) * 1000.0
    else:
        run.spans["prefill"] = (time.perf_counter() - stream_started) * 1000.0
        run.spans["decode"] = 0.0
