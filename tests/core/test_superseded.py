"""Former values in a passage: a change "from X to Y", "Y instead of X", "Y, down from X", in English
and Chinese, and whether an answer gives the old value as the current one."""

from __future__ import annotations

from app.core.answering.evidence.superseded import asks_former_value, replaced_figures, states_former


def test_a_change_from_one_figure_to_another_names_the_old_and_the_new() -> None:
    text = "Tile latency fell from 38 ms in 3.1 to 21 ms in 3.2, and the cache hit rate rose from 81% to 93%."
    assert replaced_figures(text) == {("38", "21"), ("81", "93")}
    assert replaced_figures("Revenue grew from $1,500 to $2,000.") == {("1500", "2000")}
    assert replaced_figures("保修期从 2 年延长到五年。") == {("2", "5")}
    assert replaced_figures("票价由10元涨至15元。") == {("10", "15")}


def test_a_replaced_figure_is_paired_with_the_figure_before_it() -> None:
    assert replaced_figures("The server now listens on port 8420 by default, instead of 8080.") == {
        ("8080", "8420")
    }
    assert replaced_figures("Latency is 38 ms, down from 55 ms in 3.0.") == {("55", "38")}
    assert replaced_figures("默认端口原为 8080。") == {("8080", None)}


def test_a_range_or_a_plain_figure_is_no_change() -> None:
    assert replaced_figures("Trams ran from 1902 to 1949 on a single line.") == frozenset()
    assert replaced_figures("The tank holds 1.8 litres; the tray 0.6 litres.") == frozenset()
    assert replaced_figures("营业时间从 9 点到 17 点。") == frozenset()


def test_the_old_value_alone_is_a_former_value_given_as_current() -> None:
    replaced = frozenset({("81", "93")})
    assert states_former(frozenset({"81"}), replaced)
    assert not states_former(frozenset({"81", "93"}), replaced)  # the change itself
    assert not states_former(frozenset({"93"}), replaced)
    assert states_former(frozenset({"8080"}), frozenset({("8080", None)}))


def test_a_question_about_the_earlier_value_asks_for_it() -> None:
    assert asks_former_value("What was the old default port?")
    assert asks_former_value("升级前的默认端口是多少？")
    assert not asks_former_value("What port does Tessel 3.2 listen on by default?")
    assert not asks_former_value("Tessel 3.2 默认监听哪个端口？")
