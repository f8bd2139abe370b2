"""Streamed text: UTF-8-safe incremental decoding, stop strings and <think> separation."""

from __future__ import annotations

import codecs
from collections.abc import Sequence

from app.core.generate.template import THINK_CLOSE, THINK_OPEN

ANSWER = "answer"
THINKING = "thinking"
Piece = tuple[str, str]  # (channel, text)


class Utf8Stream:
    """Bytes in, complete characters out: a split multi-byte character waits for its last byte;
    one the generation cut in the middle is dropped at the end (never a U+FFFD that a Continue
    would feed back to the model)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes) -> str:
        return self._decoder.decode(data)

    def flush(self) -> str:
        # The decoder holds back only a valid, incomplete prefix of a character: drop it.
        self._decoder.reset()
        return ""


class ChannelSplitter:
    """Routes text to the answer or thinking channel and ends at a stop string.

    Holds back only a tail that could still become a tag or a stop string, so the work per fed
    piece stays bounded by the longest marker, whatever the length of the answer.
    """

    def __init__(
        self, stops: Sequence[str] = (), start_thinking: bool = False, continuing: bool = False
    ) -> None:
        """`continuing`: the text goes on after an answer already shown (Continue), so its
        leading space is part of it ("stores" + " keys"), and no <think> can open any more."""
        self.stops = [stop for stop in stops if stop]
        self.channel = THINKING if start_thinking else ANSWER
        self.stopped = False
        self._pending = ""
        self._at_start = not continuing  # nothing but whitespace emitted in this channel yet
        self._answer_started = continuing
        self._max_marker = max([len(THINK_OPEN), len(THINK_CLOSE), *(len(s) for s in self.stops)])

    def _markers(self) -> list[str]:
        if self.channel == THINKING:
            return [THINK_CLOSE, *self.stops]
        if not self._answer_started:
            return [THINK_OPEN, *self.stops]
        return self.stops

    def _emit(self, text: str, out: list[Piece]) -> None:
        if not text:
            return
        if self._at_start:
            text = text.lstrip()
            if not text:
                return
            self._at_start = False
        if self.channel == ANSWER:
            self._answer_started = True
        out.append((self.channel, text))

    def feed(self, text: str) -> list[Piece]:
        out: list[Piece] = []
        if self.stopped:
            return out
        self._pending += text
        while True:
            markers = self._markers()
            found_at, found = -1, ""
            for marker in markers:
                at = self._pending.find(marker)
                if at >= 0 and (found_at < 0 or at < found_at):
                    found_at, found = at, marker
            if found_at < 0:
                break
            self._emit(self._pending[:found_at], out)
            self._pending = self._pending[found_at + len(found) :]
            if found == THINK_OPEN:
                self.channel, self._at_start = THINKING, True
            elif found == THINK_CLOSE:
                self.channel, self._at_start = ANSWER, True
            else:
                self.stopped, self._pending = True, ""
                return out
        keep = self._held_tail(self._markers())
        ready = self._pending[: len(self._pending) - keep]
        self._pending = self._pending[len(self._pending) - keep :]
        if ready:
            self._emit(ready, out)
        return out

    def _held_tail(self, markers: list[str]) -> int:
        """Length of the longest tail of the pending text that starts some marker."""
        tail = self._pending[-self._max_marker :]
        for size in range(min(len(tail), self._max_marker), 0, -1):
            piece = tail[-size:]
            if any(marker.startswith(piece) for marker in markers):
                return size
        return 0

    def flush(self) -> list[Piece]:
        out: list[Piece] = []
        if self._pending and not self.stopped:
            self._emit(self._pending, out)
        self._pending = ""
        return out
