"""The model and version names of a question, and passages about a sibling of one instead."""

from __future__ import annotations

from app.core.names import Name, about_another, is_name_term, name_terms, names_in, place_names, without_names
from app.core.passage import Hit


def _hit(text: str, document: str, heading: str = "") -> Hit:
    return Hit(1, 1, document, f"/docs/{document}", 1, 1, 0, len(text), text, 0.5, 0.5, heading=heading)


def test_names_are_read_alike_in_text_file_names_and_chinese() -> None:
    assert names_in("What does E7 mean on the Aurelia KX-60?") == {Name("e", "7"), Name("kx", "60")}
    assert names_in("aurelia-kx60-quick-reference.pdf") == {Name("kx", "60")}
    assert names_in("清岚S5 的复合滤网能用多少小时？") == {Name("s", "5")}
    assert names_in("the starch solution of LP-07") == names_in("lp07-dissolved-oxygen.pdf")


def test_figures_units_decimals_and_long_words_are_no_names() -> None:
    assert names_in("It takes 12s at 5km, PM2.5 below 35, version v3.2, sha256sum, Section12") == frozenset()


def test_a_passage_about_a_sibling_is_about_another() -> None:
    asked = names_in("How many hours does the S5's filter last?")
    s3 = _hit("复合滤网:正常使用寿命约 3000 小时。", "qinglan-s3-manual.pdf")
    s5 = _hit("三、维护复合滤网寿命约 4000 小时。", "qinglan-s5-quick-start.pdf")
    assert about_another(asked, s3) and not place_names(s3).about_asked(asked)
    assert not about_another(asked, s5) and place_names(s5).about_asked(asked)
    assert not about_another(frozenset(), s3)  # a question that names no model


def test_the_title_says_what_a_passage_is_about_before_a_mention_in_passing() -> None:
    text = "The KX-60 shares its grinder with the smaller KX-40. Water tank: 2.5 litres."
    kx60 = _hit(text, "aurelia-kx60-quick-reference.pdf")
    assert about_another(names_in("How much water does the KX-40's tank hold?"), kx60)
    assert not about_another(names_in("How much water does the KX-60's tank hold?"), kx60)
    untitled = _hit(text, "coffee-notes.pdf")  # no model in the title: the text names both
    assert not about_another(names_in("How much water does the KX-40's tank hold?"), untitled)


def test_a_passage_naming_no_sibling_is_not_held_against_the_answer() -> None:
    asked = names_in("What does E7 on the display mean on the KX-60?")
    general = _hit("Descale every 2 months. E7: the drip tray is missing.", "care-guide.pdf", "Care")
    assert not about_another(asked, general)  # no other KX model named, and E7 is there
    other = _hit("E7: the grinder is blocked.", "aurelia-kx40-manual.pdf", "Error codes")
    assert about_another(asked, other)


def test_a_name_is_one_term_however_it_is_written() -> None:
    assert name_terms("My KX-60 shows E5; see LP-07 and kx60.") == ["kx-60", "e-5", "lp-7"]
    assert name_terms("清岚 S5 的滤网") == ["s-5"]
    assert name_terms("PM2.5 below 50, 12s, Tessel 3.1") == ["tessel-3.1"]
    assert all(is_name_term(term) for term in name_terms("E7 KX-40"))
    assert not is_name_term("60") and not is_name_term("kx")


def test_without_names_keeps_the_figures_and_drops_the_codes() -> None:
    assert without_names("E7: cool for 30 minutes (KX-60).") == " : cool for 30 minutes ( )."


def test_a_version_is_a_name_and_a_year_a_share_or_a_section_is_not() -> None:
    assert name_terms("Does Tessel 3.2 run on macOS 14 and Debian 12?") == [
        "tessel-3.2",
        "macos-14",
        "debian-12",
    ]
    assert names_in("tessel-3.1-release-notes.pdf") == names_in("Tessel 3.1")
    assert names_in("(从 Linux2.6.30 开始的默认行为)") == names_in("从 Linux 2.6.30 开始")
    assert next(iter(names_in("Tessel 3.1"))).sibling_of(next(iter(names_in("Tessel 3.2"))))
    for text in (
        "Harbourton 1862",
        "SQLite 100% covered",
        "Section 4.1",
        "About 30 people",
        "in 1985",
        "June 30",
    ):
        assert names_in(text) == frozenset(), text
    assert without_names("Tessel 3.2 serves 21 ms tiles.") == "  serves 21 ms tiles."


def test_a_version_question_holds_the_sibling_release_against_it() -> None:
    asked = names_in("How much RAM does Tessel 3.2 need at minimum?")
    older = _hit("The server needs 512 MB of RAM.", "tessel-3.1-release-notes.pdf", "Requirements")
    assert about_another(asked, older)
    same = _hit("The server needs 1 GB of RAM.", "tessel-3.2-release-notes.pdf", "Requirements")
    assert not about_another(asked, same)


def test_a_release_s_notes_that_speak_of_the_asked_release_are_not_held_against_it() -> None:
    asked = names_in("Until when does the Tessel 3.1 series receive security fixes?")
    speaks = _hit(
        "The 3.1 series receives security fixes until 31 December 2025.", "tessel-3.2-release-notes.pdf", ""
    )
    assert not about_another(asked, speaks)
    silent = _hit("The cache now uses 40% less memory.", "tessel-3.2-release-notes.pdf", "")
    assert about_another(asked, silent)
    series = names_in("When did the Tessel 2.x series reach its end of life?")
    assert not about_another(
        series, _hit("Tessel 2.x reached end of life in 2023.", "tessel-3.1-release-notes.pdf", "")
    )


def test_a_passage_silent_on_a_family_names_none_of_it() -> None:
    kx40 = names_in("我家的 KX-40 显示屏上跳出 E3")
    installer = place_names(_hit("某些 E3 显示卡可能没有被检测到。", "debian-installation-guide.zh-cn.pdf"))
    manual = place_names(_hit("E3: the water tank is empty.", "aurelia-kx40-manual.pdf"))
    kx = Name("kx", "40")
    assert kx in kx40 and installer.silent_on(kx) and not manual.silent_on(kx)
    assert not installer.silent_on(Name("e", "3"))  # the installer's text names an E3
