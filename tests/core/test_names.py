"""The model and version names of a question, and passages about a sibling of one instead."""

from __future__ import annotations

from app.core.names import Name, names_another, names_in, place_names
from app.core.passage import Hit


def _place(text: str, document: str, heading: str = "") -> frozenset[Name]:
    hit = Hit(1, 1, document, f"/docs/{document}", 1, 1, 0, len(text), text, 0.5, 0.5, heading=heading)
    return place_names(hit)


def test_names_are_read_alike_in_text_file_names_and_chinese() -> None:
    assert names_in("What does E7 mean on the Aurelia KX-60?") == {Name("e", "7"), Name("kx", "60")}
    assert names_in("aurelia-kx60-quick-reference.pdf") == {Name("kx", "60")}
    assert names_in("清岚S5 的复合滤网能用多少小时？") == {Name("s", "5")}
    assert names_in("the starch solution of LP-07") == names_in("lp07-dissolved-oxygen.pdf")


def test_figures_units_decimals_and_long_words_are_no_names() -> None:
    assert names_in("It takes 12s at 5km, PM2.5 below 35, version v3.2, sha256sum, Section12") == frozenset()


def test_a_passage_about_a_sibling_names_another() -> None:
    asked = names_in("How many hours does the S5's filter last?")
    s3 = _place("复合滤网:正常使用寿命约 3000 小时。", "qinglan-s3-manual.pdf")
    s5 = _place("三、维护复合滤网寿命约 4000 小时。", "qinglan-s5-quick-start.pdf")
    assert names_another(asked, s3)
    assert not names_another(asked, s5)
    assert not names_another(asked, s3 | s5)  # one of them is the S5's


def test_a_passage_naming_no_sibling_is_not_held_against_the_answer() -> None:
    asked = names_in("What does E7 on the display mean on the KX-60?")
    general = _place("Descale every 2 months. E7: the drip tray is missing.", "care-guide.pdf", "Care")
    assert not names_another(asked, general)  # no other KX model named
    other = _place("E7: the grinder is blocked.", "aurelia-kx40-manual.pdf", "Error codes")
    assert names_another(asked, other)
