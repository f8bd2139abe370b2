"""The locate stage: the passage sentences that answer the question, best first, with their pages."""

from __future__ import annotations

from app.core.answering.evidence.locate import FOUND_LIMIT, locate
from app.core.embed.embedder import Embedder
from app.core.passage import Hit
from tests.core.answer_helpers import make_hit


def test_the_answering_sentence_is_found_with_its_page() -> None:
    hits = [
        make_hit(1, "The grinder has 18 settings. Error code E7 means the grinder is blocked.", page=5),
        make_hit(2, "Descale the machine every two months. Use the supplied brush.", page=9),
    ]
    found = locate("What does error code E7 mean?", hits, None, None)
    assert found and found[0].sentence == "Error code E7 means the grinder is blocked."
    assert found[0].citation.page == 5 and found[0].citation.n == 1
    assert len(found) <= FOUND_LIMIT
    assert found[0].to_json()["sentence"] == found[0].sentence


def test_chinese_sentences_are_found_and_unrelated_passages_give_nothing() -> None:
    hits = [make_hit(1, "青岚S3的水箱容量为3.5升。集水盘每周清洗一次。", page=2)]
    found = locate("青岚S3的水箱容量是多少？", hits, None, None)
    assert found and found[0].sentence.startswith("青岚S3的水箱容量为3.5升")
    assert (
        locate(
            "What is the boiling point of mercury?", [make_hit(1, "Water the tomatoes daily.")], None, None
        )
        == []
    )
    assert locate("anything", [], None, None) == []


def test_a_sibling_models_sentence_is_not_found_for_the_model_asked_about() -> None:
    s3 = make_hit(
        1,
        "复合滤网:正常使用寿命约 3000 小时,一般约 6 个月更换一次。",
        page=3,
        document="qinglan-s3-manual.pdf",
    )
    s5 = make_hit(
        2,
        "三、维护。复合滤网寿命约 4000 小时,约 8 个月更换一次。",
        page=1,
        document="qinglan-s5-quick-start.pdf",
    )
    found = locate("清岚 S5 的复合滤网能用多少小时？", [s3, s5], None, None)
    assert [f.citation.document for f in found] == ["qinglan-s5-quick-start.pdf"]
    both = locate("复合滤网能用多少小时？", [s3, s5], None, None)  # no model named: both are found
    assert {f.citation.document for f in both} == {"qinglan-s3-manual.pdf", "qinglan-s5-quick-start.pdf"}


# A quick reference laid out as such guides are: its error codes one per line, a figure in most lines,
# the model named only in its title and in the warranty line.
GUIDE = (
    "Specifications Heating power: 2200 W. Capacity: five cups; error codes E2: the kettle is empty. "
    "Fill it above the minimum mark. E5: the base has overheated. Unplug the base and let it cool for "
    "15 minutes. E6: the lid is open. Warranty The HX-20 carries a 24-month warranty."
)


def _guide() -> list[Hit]:
    return [make_hit(1, GUIDE, document="halden-hx20-quick-guide.pdf", page=2)]


def test_the_line_of_the_asked_code_is_found_before_other_codes_and_figures() -> None:
    # "E5" is one term: not "e" (every code line holds it) and "5" (so does "five cups")
    found = locate("My HX-20 shows E5. What is wrong?", _guide(), None, None)
    assert found[0].sentence == "E5: the base has overheated."
    assert all("E2" not in f.sentence and "E6" not in f.sentence for f in found)


def test_the_digits_of_a_code_are_no_figure_for_a_how_long_question(multilingual_embedder: Embedder) -> None:
    # "how many minutes" prefers a line with a figure: the 15 minutes, not the "6" of "E6"
    for embed, scales in ((None, None), (multilingual_embedder.embed, multilingual_embedder.scales)):
        found = locate("My HX-20 shows E5. For how many minutes must it cool?", _guide(), embed, scales)
        sentences = [f.sentence for f in found]
        assert "Unplug the base and let it cool for 15 minutes." in sentences
        assert "E6: the lid is open." not in sentences


def test_across_languages_the_answering_sentence_is_found_first(multilingual_embedder: Embedder) -> None:
    # a sentence in the other script shares no word with the question: its meaning (the cosine)
    # weighs more (half the passages are in that script), so it is not outranked by one that only
    # shares the word "filter"
    hits = [
        make_hit(1, "The filter housing is made of grey ABS plastic. The cable is 1.5 metres long."),
        make_hit(2, "本机额定功率为 45 瓦。滤网每 6 个月更换一次，到期时指示灯变红。开机后指示灯显示蓝色。"),
    ]
    embed, scales = multilingual_embedder.embed, multilingual_embedder.scales
    english = locate("How often should the filter be replaced?", hits, embed, scales)
    assert english[0].sentence == "滤网每 6 个月更换一次，到期时指示灯变红。"
    chinese = [f.sentence for f in locate("滤网外壳是什么材料做的？", hits, embed, scales)]
    assert chinese == ["The filter housing is made of grey ABS plastic."]


def test_a_passage_whose_title_names_the_model_is_about_it_in_every_sentence() -> None:
    # the guide's E5 line never says "HX-20", but its file name does; a general FAQ's E5 line names
    # no model at all, so the sibling rule cannot tell them apart: the title does
    faq = make_hit(1, "Error codes. E5: the descaling program is due.", document="kettle-faq.pdf")
    guide = make_hit(
        2, "Error codes. E5: the base has overheated.", document="halden-hx20-quick-guide.pdf", page=2
    )
    found = locate("What does E5 mean on my HX-20?", [faq, guide], None, None)
    assert found[0].sentence == "E5: the base has overheated."
    assert found[0].citation.document == "halden-hx20-quick-guide.pdf"
