"""The worker-side batcher: first delta at once, then one batch per interval, channels kept apart."""

from __future__ import annotations

from app.gui.delta_batch import DeltaBatch, DeltaBatcher


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_first_delta_goes_at_once_then_deltas_are_coalesced() -> None:
    clock = Clock()
    out: list[DeltaBatch] = []
    batcher = DeltaBatcher(out.append, interval_s=0.016, clock=clock)
    batcher.add("Hel", "answer")
    assert out == [DeltaBatch("Hel", "answer", 1)]
    for piece in ("lo", " wor", "ld"):
        clock.now += 0.001
        batcher.add(piece, "answer")
    assert len(out) == 1
    clock.now += 0.02
    batcher.add("!", "answer")
    assert out[-1] == DeltaBatch("lo world!", "answer", 4)


def test_a_channel_change_flushes_and_nothing_is_lost() -> None:
    clock = Clock()
    out: list[DeltaBatch] = []
    batcher = DeltaBatcher(out.append, clock=clock)
    batcher.add("think", "thinking")
    batcher.add("ing", "thinking")
    batcher.add("Answer", "answer", 2)
    batcher.add(" text", "answer")
    batcher.flush()
    assert out == [
        DeltaBatch("think", "thinking", 1),
        DeltaBatch("ing", "thinking", 1),
        DeltaBatch("Answer text", "answer", 3),
    ]
    batcher.flush()
    assert len(out) == 3
