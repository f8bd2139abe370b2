"""Streamed text: UTF-8 never split, stop strings held back and cut, <think> blocks separated."""

from __future__ import annotations

from app.core.generate.textstream import ANSWER, THINKING, ChannelSplitter, Piece, Utf8Stream


def feed_all(splitter: ChannelSplitter, parts: list[str]) -> list[Piece]:
    out: list[Piece] = []
    for part in parts:
        out.extend(splitter.feed(part))
    out.extend(splitter.flush())
    return out


def joined(pieces: list[Piece], channel: str) -> str:
    return "".join(text for ch, text in pieces if ch == channel)


def test_utf8_characters_split_across_tokens_come_out_whole() -> None:
    data = "模型缓存 ok é".encode()
    stream = Utf8Stream()
    outputs = [stream.feed(data[i : i + 1]) for i in range(len(data))]
    assert "".join(outputs) + stream.flush() == "模型缓存 ok é"
    assert all("\ufffd" not in piece for piece in outputs)
    assert outputs[0] == "" and outputs[2] == "模"  # the 3-byte character waits for its last byte


def test_stop_string_split_over_pieces_is_cut_and_never_emitted() -> None:
    splitter = ChannelSplitter(stops=["<|im_end|>"])
    pieces = feed_all(splitter, ["The answer", " is 4 [1].<|im", "_end|> trailing"])
    assert joined(pieces, ANSWER) == "The answer is 4 [1]."
    assert splitter.stopped


def test_partial_stop_prefix_that_does_not_complete_is_released() -> None:
    splitter = ChannelSplitter(stops=["<|im_end|>"])
    first = splitter.feed("a <|im")
    assert joined(first, ANSWER) == "a "  # held back: it may become the stop string
    rest = splitter.feed("portant") + splitter.flush()
    assert joined(first + rest, ANSWER) == "a <|important"
    assert not splitter.stopped


def test_think_block_is_separated_from_the_answer_with_tags_split() -> None:
    splitter = ChannelSplitter()
    pieces = feed_all(splitter, ["<th", "ink>\nLet me ", "check.</thi", "nk>\n\nParis [1]."])
    assert joined(pieces, THINKING) == "Let me check."
    assert joined(pieces, ANSWER) == "Paris [1]."


def test_prompt_that_opened_think_starts_in_the_thinking_channel() -> None:
    splitter = ChannelSplitter(start_thinking=True)
    pieces = feed_all(splitter, ["reasoning", "</think>", "Answer."])
    assert joined(pieces, THINKING) == "reasoning"
    assert joined(pieces, ANSWER) == "Answer."


def test_think_tag_after_the_answer_started_is_plain_text() -> None:
    splitter = ChannelSplitter()
    pieces = feed_all(splitter, ["Use ", "<think> tags"])
    assert joined(pieces, ANSWER) == "Use <think> tags"
    assert joined(pieces, THINKING) == ""


def test_pending_text_stays_bounded_on_long_streams() -> None:
    splitter = ChannelSplitter(stops=["<|im_end|>", "\n\nQuestion:"])
    total = 0
    for _ in range(5000):
        total += sum(len(text) for _, text in splitter.feed("word "))
        assert len(splitter._pending) <= splitter._max_marker
    assert total == 5000 * 5


def test_a_continuation_keeps_its_leading_space() -> None:
    """Continue: "stores" was shown, the model goes on with " keys"; gluing gave "storeskeys"."""
    splitter = ChannelSplitter(["<|im_end|>"], continuing=True)
    out = splitter.feed(" keys") + splitter.feed(" and <think>values") + splitter.flush()
    assert "stores" + "".join(text for _, text in out) == "stores keys and <think>values"
    assert {channel for channel, _ in out} == {ANSWER}


def test_a_character_cut_by_the_end_of_generation_is_dropped_not_replaced() -> None:
    stream = Utf8Stream()
    text = stream.feed("答案是模".encode()) + stream.feed("型".encode()[:2])
    assert text + stream.flush() == "答案是模"
    assert "\ufffd" not in text + stream.flush()
    assert stream.feed(b"ok") == "ok"  # the stream can go on after a flush
