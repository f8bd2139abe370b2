"""A made-up figure (answering/judge/invented.py): an answer to a quantity question whose figures are
in none of the prompt's passages."""

from __future__ import annotations

from app.core.answering.judge.invented import invented_figures
from app.core.answering.judge.refusal import is_refusal
from app.core.prompt.system import figure_not_found_answer
from tests.core.answer_helpers import make_hit

MANUAL = [
    make_hit(1, "The S3 cleans 180 cubic metres of air per hour (CADR). Its filter lasts 6 months."),
    make_hit(2, "按住风速键 5 秒进入配网模式。虚拟控制台 Alt-F6 可以切换。", page=2),
]


def test_a_figure_in_no_passage_is_made_up() -> None:
    assert invented_figures("How much does the S3 cost?", "The S3 costs $1,000 [1].", MANUAL) == ("1000",)
    assert invented_figures("清岚 S3 的滤网多少钱？", "滤网要 35 元 [2]。", MANUAL) == ("35",)
    # every figure the answer gives is missing: all are named
    assert invented_figures("How heavy is it?", "It weighs 7.5 kg, about 16 lb.", MANUAL) == ("16", "7.5")


def test_a_figure_a_passage_states_in_any_form_is_not_made_up() -> None:
    assert invented_figures("How long does the filter last?", "Six months [1].", MANUAL) == ()
    assert invented_figures("要按几秒？", "按住五秒 [2]。", MANUAL) == ()
    # a number a passage writes inside a name still counts as written ("Alt-F6")
    assert invented_figures("有几个控制台？", "有 6 个控制台。", MANUAL[1:]) == ()
    # one figure stated is enough: the judge rules on the rest
    both = "180 cubic metres an hour, for $99."
    assert invented_figures("How much air and how much does it cost?", both, MANUAL) == ()


def test_a_figure_whose_unit_the_passage_contradicts_is_made_up() -> None:
    # "180 元" for a price, where the passage's 180 measures air per hour
    assert invented_figures("清岚 S3 卖多少元？", "售价是 180 元。", MANUAL) == ("180",)
    assert invented_figures("How much air per hour?", "180 cubic metres [1].", MANUAL) == ()


def test_only_a_quantity_question_with_a_new_figure_is_checked() -> None:
    assert invented_figures("Who makes the S3?", "Qinglan, since 2019.", MANUAL) == ()  # no quantity asked
    assert invented_figures("What does E7 mean on the S3?", "The grinder is blocked.", MANUAL) == ()
    assert invented_figures("How many months is 12 weeks?", "12 weeks.", MANUAL) == ()  # the question's own
    assert invented_figures("How much does it cost?", "$1,000.", []) == ()  # no passages: nothing to hold


def test_what_folio_says_instead_is_a_refusal_in_the_questions_language() -> None:
    english, chinese = figure_not_found_answer("How much?"), figure_not_found_answer("多少钱？")
    assert english.startswith("The passages Folio found do not state this figure") and is_refusal(english)
    assert chinese.startswith("Folio 找到的段落中没有给出这个数值") and is_refusal(chinese)


def test_a_figure_of_another_kind_where_no_passage_states_the_kind_asked_is_made_up() -> None:
    # a price asked; the answer's figure measures air per hour, and no passage gives a price
    assert invented_figures("清岚 S3 卖多少钱？", "卖 180 立方米每小时 [1]。", MANUAL) == ("180",)
    assert invented_figures("How much does the S3 cost?", "It costs 6 months [1].", MANUAL) == ("6",)
    priced = [*MANUAL, make_hit(3, "A spare filter costs 35 yuan.", page=3)]
    # a passage states a price: the judge rules on the answer, nothing is withdrawn here
    assert invented_figures("How much does the S3 cost?", "It costs 6 months [1].", priced) == ()
    # a figure of the kind asked, or one without a unit, is never of another kind
    assert (
        invented_figures("How long is the cable, in metres?", "6 months [1].", MANUAL) == ()
    )  # "how long": time too
    assert invented_figures("How much does it cost?", "180 [1].", MANUAL) == ()


def test_a_question_that_names_the_kind_of_figure_it_wants_is_checked() -> None:
    # no "how much": "the retail price" names what it asks for
    weight = "It is about 6.8 kg [1]."
    assert invented_figures("What is the retail price of the S3?", weight, MANUAL) == ("6.8",)
    assert invented_figures("清岚 S3 的售价是？", "售价是 1999 元。", MANUAL) == ("1999",)
    filter_life = "A composite filter, 6 months [1]."
    assert invented_figures("What is the filter of the S3?", filter_life, MANUAL) == ()
