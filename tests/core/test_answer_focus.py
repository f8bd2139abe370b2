"""What the prompt shows of the located sentences: the passages cut to them, or a hint after the question."""

from __future__ import annotations

from app.core.answering.evidence.asked import asked_dimensions, asks_quantity, named_dimensions
from app.core.answering.evidence.excerpts import score_sentences
from app.core.answering.evidence.focus import found_passages, hinted_question
from app.core.answering.evidence.locate import locate
from tests.core.answer_helpers import make_hit

MANUAL = (
    "Before you start, read the safety notes. The drip tray holds 0.6 litres. "
    "Water tank: 1.8 litres, removable, filled from the top. Bean hopper: 250 g. "
    "The grinder has 18 settings. Clean the brew unit weekly."
)


def test_found_passages_keep_the_located_sentences_and_their_neighbours_only() -> None:
    hits = [make_hit(1, MANUAL, page=2), make_hit(2, "Descale every two months. Use the brush.", page=7)]
    found = locate("How much water does the water tank hold?", hits, None, None)
    assert found and found[0].sentence.startswith("Water tank: 1.8 litres")
    shown = found_passages(hits, found)
    assert [hit.chunk_id for hit in shown] == [found[0].citation.chunk_id]
    assert "Water tank: 1.8 litres" in shown[0].text and "The drip tray holds 0.6 litres." in shown[0].text
    assert "Clean the brew unit weekly." not in shown[0].text and shown[0].page == 2
    assert found_passages(hits, []) == hits  # nothing located: the passages as found


def test_the_hint_numbers_each_sentence_as_the_prompt_numbers_its_passage() -> None:
    hits = [make_hit(1, "Descale every two months. Use the brush.", page=7), make_hit(2, MANUAL, page=2)]
    found = locate("How much water does the water tank hold?", hits, None, None)
    asked = hinted_question("How much water does the tank hold?", hits, found)
    assert asked.startswith("How much water does the tank hold?\n\n")
    assert "[2] Water tank: 1.8 litres" in asked
    assert hinted_question("How much?", hits[:1], found) == "How much?"  # its passage is not shown
    zh = hinted_question("水箱能装多少水？", hits, found)
    assert "段落中看起来回答了这个问题的句子" in zh


def test_a_running_header_scores_nothing_and_a_quantity_question_prefers_a_number() -> None:
    header = "Page 3 of 5 Aurelia KX-40 Espresso Machine - Owner's Manual."
    texts = [f"{header} The KX-40 grinds its beans.", f"{header} The KX-40 heats up in 90 seconds."]
    scored = score_sentences("How long does the Aurelia KX-40 take to heat up?", texts, None, None)
    assert all(row[0].score == 0.0 for row in scored)  # the header stands on both pages
    assert max(scored[1], key=lambda s: s.score).sentence.text.endswith("90 seconds.")
    assert asks_quantity("How long does it take?") and asks_quantity("清岚 S3 的水箱能装多少水？")
    assert asks_quantity("In which year was it built?") and not asks_quantity("Who designed the hall?")


def test_what_a_quantity_question_asks_for_is_named_in_both_languages() -> None:
    assert asked_dimensions("青溪茶业有限公司的年销售额是多少？") == {"money"}
    assert asked_dimensions("How much does a replacement filter cost?") == {"money"}
    assert asked_dimensions("How long should it rest before I turn it on?") == {"time", "length"}
    assert asked_dimensions("清岚 S3 的滤网多久换一次？") == {"time"}
    assert asked_dimensions("How much RAM does it need?") == {"data"}
    assert asked_dimensions("青溪水库的总库容是多少？") == {"volume"}
    assert asked_dimensions("How many people lived there in 2021?") == {"people"}
    # a time: a year answers it as a plain number (no unit to clash); "300 yuan" or "12 万人" do not
    assert asked_dimensions("In which year was it built?") == {"time"}
    assert asked_dimensions("Who pays for the test suite?") == set()  # no quantity asked
    # the kind a question names, asked with "how much" or not; "after-sales" names no money
    assert named_dimensions("What is the retail price of the KX-40?") == {"money"}
    assert asked_dimensions("What is the retail price of the KX-40?") == set()
    assert named_dimensions("How many hours a day is the after-sales hotline open?") == {"time"}


def test_the_size_of_a_disk_asks_for_data_and_a_count_of_disks_does_not() -> None:
    assert asked_dimensions("单独装一台 LTSP 服务器，硬盘最少要多大？") == {"data"}
    assert asked_dimensions("U 盘至少要多大容量才能装 Debian 12？") == {"data"}
    assert asked_dimensions("How big a partition does /var need?") == {"data"}
    assert asked_dimensions("How large must the hard drive be?") == {"data"}
    assert asked_dimensions("需要几块硬盘？") == set()  # a count of disks
    assert asked_dimensions("How many disks does the server need?") == set()


def test_a_share_a_loudness_and_a_time_asked_by_when_are_quantities() -> None:
    assert asks_quantity("Roughly what share of packages can debhelper build without big changes?")
    assert asked_dimensions("Roughly what proportion of the town's tea is exported?") == {"share"}
    assert asked_dimensions("How loud does the S5 get at its top fan speed?") == {"loudness"}
    assert asked_dimensions("S5 最高档的噪音有多大？") == {"loudness"}
    assert asked_dimensions("青溪镇的茶花节在什么时候举办？") == {"time"}
    assert asked_dimensions("When was the Debian project started?") == {"time"}
    # a clause that starts with "when" asks for no time
    assert asked_dimensions("When I switch it on, how loud is it?") == {"loudness"}
