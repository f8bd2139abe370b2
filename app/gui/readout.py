"""Text of the live readout (TTFT, tokens/s, tokens) and of the after-answer breakdown."""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication

from app.gui.answer_state import FAILED, WAITING, AnswerState
from app.gui.i18n import QT_TRANSLATE_NOOP


def _tr(text: str) -> str:
    """A text marked with QT_TRANSLATE_NOOP where it is defined, translated; literals call
    QCoreApplication.translate themselves, so lupdate reads them."""
    return QCoreApplication.translate("Readout", text)


def duration(ms: float) -> str:
    """412 ms, 2.4 s, 1 min 05 s."""
    if ms < 1000:
        return QCoreApplication.translate("Readout", "{0} ms").format(round(ms))
    seconds = ms / 1000.0
    if seconds < 60:
        return QCoreApplication.translate("Readout", "{0:.1f} s").format(seconds)
    minutes, rest = divmod(round(seconds), 60)
    return QCoreApplication.translate("Readout", "{0} min {1:02d} s").format(minutes, rest)


def live_readout(state: AnswerState, now: float | None = None) -> str:
    """While generating: TTFT (counting while waiting), tokens/s, tokens so far."""
    now = now if now is not None else time.monotonic()
    if state.phase == WAITING:
        return QCoreApplication.translate("Readout", "Waiting for the first token… {0}").format(
            duration(state.ttft_ms(now))
        )
    parts = [QCoreApplication.translate("Readout", "TTFT {0}").format(duration(state.ttft_ms()))]
    rate = state.tokens_per_s()
    if rate is not None:
        parts.append(QCoreApplication.translate("Readout", "{0:.1f} tok/s").format(rate))
    tokens = state.answer_tokens + state.thinking_tokens
    parts.append(QCoreApplication.translate("Readout", "{0} tokens").format(tokens))
    return " · ".join(parts)


FINISH_TEXT = {
    "stop": QT_TRANSLATE_NOOP("Readout", "complete"),
    "length": QT_TRANSLATE_NOOP("Readout", "cut off (max tokens)"),
    "cancelled": QT_TRANSLATE_NOOP("Readout", "stopped"),
    "error": QT_TRANSLATE_NOOP("Readout", "failed"),
}

# whose figures a server's answer shows (AnswerMetrics.counts_from); none for this computer
FIGURES_TEXT = {
    "server usage": QT_TRANSLATE_NOOP("Readout", "counts from the server"),
    "server timings": QT_TRANSLATE_NOOP("Readout", "rate and counts from the server"),
    "counted": QT_TRANSLATE_NOOP("Readout", "tokens counted as streamed"),
}


def final_readout(state: AnswerState) -> str:
    """After the answer: the recorded metrics and the finish reason."""
    if state.phase == FAILED and state.final is None:
        return QCoreApplication.translate("Readout", "failed: {0}").format(state.error)
    metrics = state.metrics
    parts: list[str] = []
    ttft = metrics.get("ttft_ms")
    if isinstance(ttft, int | float):
        parts.append(QCoreApplication.translate("Readout", "TTFT {0}").format(duration(float(ttft))))
    rate = metrics.get("tokens_per_s")
    if isinstance(rate, int | float) and rate > 0:
        parts.append(QCoreApplication.translate("Readout", "{0:.1f} tok/s").format(float(rate)))
    tokens = metrics.get("completion_tokens")
    if isinstance(tokens, int):
        thinking = metrics.get("thinking_tokens")
        if isinstance(thinking, int) and thinking:
            parts.append(
                QCoreApplication.translate("Readout", "{0} tokens ({1} thinking)").format(tokens, thinking)
            )
        else:
            parts.append(QCoreApplication.translate("Readout", "{0} tokens").format(tokens))
    source = metrics.get("counts_from")
    if isinstance(source, str) and source in FIGURES_TEXT:  # a server's answer: whose counts these are
        parts.append(_tr(FIGURES_TEXT[source]))
    reason = state.finish_reason
    parts.append(_tr(FINISH_TEXT.get(reason, reason or QT_TRANSLATE_NOOP("Readout", "unknown"))))
    return " · ".join(parts)


# the spans of ARCHITECTURE.md §2, in order, with the names the breakdown shows
SPAN_LABELS = (
    ("queue", QT_TRANSLATE_NOOP("Readout", "queue")),
    ("retrieve", QT_TRANSLATE_NOOP("Readout", "retrieve")),
    ("assemble", QT_TRANSLATE_NOOP("Readout", "assemble")),
    ("prefill", QT_TRANSLATE_NOOP("Readout", "prefill")),
    ("decode", QT_TRANSLATE_NOOP("Readout", "decode")),
    ("reask", QT_TRANSLATE_NOOP("Readout", "asked again")),  # the re-ask's prefill and decode
    ("parse", QT_TRANSLATE_NOOP("Readout", "parse")),
)


def breakdown(state: AnswerState) -> str:
    """queue · retrieve · prefill · decode, with their durations (from spans, else metrics)."""
    spans = dict(state.spans)
    metrics = state.metrics
    fallback = {"queue": "queue_ms", "retrieve": "retrieval_ms", "assemble": "assemble_ms"}
    for span, key in fallback.items():
        value = metrics.get(key)
        if span not in spans and isinstance(value, int | float):
            spans[span] = float(value)
    shown: list[str] = []
    for key, label in SPAN_LABELS:
        if key in spans and (key not in ("assemble", "parse") or spans[key] >= 1.0):
            shown.append(f"{_tr(label)} {duration(spans[key])}")
    return " · ".join(shown)
