"""Numbers with units in canonical form, and when an answer's unit contradicts the passages."""

from __future__ import annotations

from app.core.answering.evidence.quantities import clashes, dimensions, naming_numbers, quantities


def test_spellings_symbols_and_cjk_units_meet_in_one_form() -> None:
    assert quantities("31 m tall") == quantities("thirty-one metres") == {("31", "m")}
    assert quantities("每12秒一次") == quantities("a 12-second flash") == {("12", "s")}
    assert quantities("1.2 L or 1.2 litres") == {("1.2", "l")}
    assert quantities("a line of 4,095 bytes") == {("4095", "byte")}
    assert quantities("90 °C and 2 GB, 100%") == {("90", "deg"), ("2", "gb"), ("100", "%")}
    assert quantities("高31米，重2公斤") == {("31", "m"), ("2", "kg")}


def test_symbols_are_case_sensitive_and_words_whole() -> None:
    assert quantities("5 M users") == frozenset()  # five million, not five metres
    assert quantities("3 mice and 4 minions") == frozenset()
    assert quantities("built in 1893") == frozenset()
    assert quantities("version 1.2.3 s") == {("1.2.3", "s")}


def test_a_clash_needs_the_number_with_another_unit_only() -> None:
    held = quantities("The flash comes every 12 seconds; the horn sounds 2 times a minute.")
    assert clashes(quantities("every 12 minutes"), held) == 1
    assert clashes(quantities("every 12 s"), held) == 0  # the same quantity
    assert clashes(quantities("every 15 minutes"), held) == 0  # a number the passages lack: not a clash
    assert clashes(quantities("12 seconds, then 2 minutes"), held) == 1


def test_numbers_of_names_and_page_references_are_not_figures() -> None:
    assert naming_numbers("Error code E7 on the KX-40") == {"7", "40"}
    assert naming_numbers("Page 4 of 5 Aurelia Owner's Manual") == {"4", "5"}
    assert naming_numbers("第 2 页,共 3 页清岚 S3") == {"2", "3"}
    assert naming_numbers("Wait 12s, walk 5km, listen on port 8420 of Tessel 3.2") == set()


def test_numbers_of_section_table_and_chapter_references_are_not_figures() -> None:
    assert naming_numbers("are listed in the control file (see Section 7.4)") == {"7.4"}
    assert naming_numbers("Table 9.10 lists them; chapter 5 and § 3 explain why") == {"9.10", "5", "3"}
    assert naming_numbers("详见第 5 章和第 2.1 节") == {"5", "2.1"}
    assert naming_numbers("The table holds 12 rows in 3 sections") == set()  # counts, not references


def test_areas_people_and_chinese_multipliers_have_their_units() -> None:
    assert quantities("46,000 people") == {("46000", "people")}
    assert quantities("常住人口为 4.6 万人") == {("46000", "people"), ("4.6", "people")}  # as written too
    assert clashes(quantities("总面积是 4.6 平方米"), quantities("常住人口为 4.6 万人")) == 1
    assert quantities("面积 12 平方公里") == quantities("12 square kilometres") == {("12", "km2")}
    assert quantities("适用面积 42 平方米") == {("42", "m2")}  # not 42 metres


def test_money_and_cubic_measures_have_their_units() -> None:
    assert quantities("$5 or € 12.50, ¥300") == {("5", "money"), ("12.50", "money"), ("300", "money")}
    assert quantities("每个 80 元") == {("80", "money")}
    assert quantities("总库容 1.2 亿立方米") >= {("120000000", "m3")}
    assert dimensions(quantities("420 cubic metres per hour, 3000 hours, 300 吨")) == {
        "volume",
        "time",
        "mass",
    }


def test_gallons_decibels_pounds_miles_and_bars_are_units() -> None:
    assert quantities("about 300 gallons a year") == {("300", "gal")}
    assert clashes(quantities("300 gallons of green tea"), quantities("年产绿茶约 300 吨")) == 1  # tonnes
    assert quantities("26 dB at night") == quantities("夜间 26 分贝") == {("26", "db")}
    assert dimensions(quantities("63 dB(A), 15 bar, a 5 lb bag, 3 miles, 2 gallons")) == {
        "loudness",
        "pressure",
        "mass",
        "length",
        "volume",
    }
    assert quantities("坐 3 巴士") == frozenset()  # 巴 alone is no bar
