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
