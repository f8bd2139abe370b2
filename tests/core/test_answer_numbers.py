"""Number words as digits, so that a sentence and a passage that write a number differently agree."""

from __future__ import annotations

import pytest

from app.core.answering.judge.attribution import attribute
from app.core.numbers import spell_numbers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The tower is thirty-one metres tall", "The tower is 31 metres tall"),
        ("a wheel with forty-eight paddles", "a wheel with 48 paddles"),
        ("Twelve seconds", "12 seconds"),
        ("two hundred years", "200 years"),
        ("one of them works", "one of them works"),
        ("a horn sounds twice a minute", "a horn sounds 2 times a minute"),  # "one" is as often a pronoun
        ("灯塔高三十一米", "灯塔高31米"),
        ("一万两千次", "12000次"),
        ("每天两次", "每天2次"),
        ("大家一起统一行动", "大家一起统一行动"),  # 一 inside words stays
        ("第一章", "第一章"),  # ordinals stay
        ("一般取最相关的五到八段", "一般取最相关的5到8段"),  # a range: both ends are numbers
        ("三至五年", "3至5年"),
        ("五到八", "五到八"),  # no measure word: not a count
    ],
)
def test_number_words_become_digits(text: str, expected: str) -> None:
    assert spell_numbers(text) == expected


def test_a_number_the_passage_never_states_is_unsupported_even_as_a_word() -> None:
    passage = ["The tower is thirty-one metres tall. Its lamp flashes green every twelve seconds."]
    wrong, right = attribute(
        "The lamp flashes three times a day. The lamp flashes every 12 seconds.", passage
    ).sentences
    assert wrong.supported is False and wrong.citations == ()
    assert right.supported is True and right.citations == (1,)
