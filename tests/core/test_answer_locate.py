"""The locate stage: the passage sentences that answer the question, best first, with their pages."""

from __future__ import annotations

from app.core.answering.evidence.locate import FOUND_LIMIT, locate
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
