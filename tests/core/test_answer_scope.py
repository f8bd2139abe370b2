"""Which questions read a whole document or each file (scope.py), in English and Chinese, and the
points a map step's text gives (whole_points.py)."""

from __future__ import annotations

import pytest

from app.core.answering.evidence.scope import DOCUMENT, EACH_FILE, PASSAGES, Scope, detect_scope, parse_scope
from app.core.answering.whole.whole_points import Point, map_points, new_points, points_text, shortened
from app.core.errors import UsageError

LIBRARY = ["report.pdf", "GeoTopo.pdf", "notes.txt"]


@pytest.mark.parametrize(
    ("question", "document"),
    [
        ("Summarise report.pdf", "report.pdf"),
        ("Can you summarize report.pdf for me?", "report.pdf"),
        ("Give me an overview of the report", "report.pdf"),
        ("What is GeoTopo.pdf about?", "GeoTopo.pdf"),
        ("What are the main points of geotopo.pdf?", "GeoTopo.pdf"),
        ("总结一下 report.pdf", "report.pdf"),
        ("report.pdf讲了什么？", "report.pdf"),
        ("请概括GeoTopo.pdf的主要内容", "GeoTopo.pdf"),
    ],
)
def test_a_summary_request_that_names_a_document_reads_it_whole(question: str, document: str) -> None:
    assert detect_scope(question, LIBRARY) == Scope(DOCUMENT, document=document)


@pytest.mark.parametrize(
    "question", ["What is this document about?", "Summarise the file", "这份文件讲了什么？", "总结本文"]
)
def test_this_document_is_the_selected_one_or_the_only_one(question: str) -> None:
    assert detect_scope(question, LIBRARY, selected="notes.txt") == Scope(DOCUMENT, document="notes.txt")
    assert detect_scope(question, ["only.pdf"]) == Scope(DOCUMENT, document="only.pdf")
    assert detect_scope(question, LIBRARY) == Scope()  # which one? the usual passages question
    assert detect_scope(question, LIBRARY, selected="gone.pdf") == Scope()


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("What does each file say about budgets?", "budgets"),
        ("What do all the documents say about the Lyon plant?", "the Lyon plant"),
        (
            "How does every document describe rules? Say it per file.",
            "How does every document describe rules? Say it per file.",
        ),
        ("各个文件对预算怎么说？", "预算"),
        ("每个文件关于气候说了什么", "气候"),
        ("所有文档对安全有什么说法？", "安全"),
    ],
)
def test_a_question_about_each_file_reads_one_passage_of_each(question: str, topic: str) -> None:
    assert detect_scope(question, LIBRARY) == Scope(EACH_FILE, topic=topic)
    assert detect_scope(question, ["only.pdf"]).kind == PASSAGES  # one file: the usual question


@pytest.mark.parametrize(
    "question",
    [
        "What is the budget in the report?",
        "What is the budget about?",
        "Which page of report.pdf gives the revenue?",
        "How many staff did the Lyon plant have?",
        "报告中的预算是多少？",
        "",
    ],
)
def test_other_questions_stay_on_the_passages_path(question: str) -> None:
    assert detect_scope(question, LIBRARY) == Scope()


def test_the_scope_the_user_picks() -> None:
    assert parse_scope("") is None and parse_scope("auto") is None
    assert parse_scope("passages") == Scope()
    assert parse_scope("each-file") == Scope(EACH_FILE)
    assert parse_scope("document:report.pdf") == Scope(DOCUMENT, document="report.pdf")
    for bad in ("document:", "everything", "doc:x"):
        with pytest.raises(UsageError, match="unknown scope"):
            parse_scope(bad)


def test_a_map_step_gives_its_marked_lines_renumbered_as_points() -> None:
    text = (
        "Here are the main points:\n"
        "- The plant in Lyon opened in 1998 [1].\n"
        "2. Revenue rose by 4% in 2023 [2, 9]\n"
        "* Costs fell by a third.\n"
        "[3]\n"
        "- A fourth point is never kept [3]."
    )
    points = map_points(text, offset=10, count=3)
    assert points == [
        Point("The plant in Lyon opened in 1998.", (11,)),
        Point("Revenue rose by 4% in 2023", (12,)),  # [9] names no passage of the step
        Point("Costs fell by a third.", ()),
    ]
    assert points_text(points) == (
        "- The plant in Lyon opened in 1998 [11].\n"
        "- Revenue rose by 4% in 2023 [12]\n"
        "- Costs fell by a third.\n"
    )
    assert map_points("The budget is 4 million euros.", offset=4, count=1) == [
        Point("The budget is 4 million euros.", (5,))
    ]


def test_a_point_that_repeats_a_kept_one_is_dropped() -> None:
    kept = [Point("The plant in Lyon opened in 1998.", (1,))]
    again = [Point("The Lyon plant opened in 1998.", (4,)), Point("Revenue rose by 4%.", (5,))]
    assert new_points(again, kept) == [again[1]]


def test_copied_labels_headings_and_long_copies_are_not_points_as_they_stand() -> None:
    text = (
        "- - The tide mills of Varn grind grain [1].\n"
        "- GeoTopo-50.pdf, p. 4 [1]\n"
        "- Topologische Mannigfaltigkeiten\n"
        "- report.pdf, pp. 9–10: - The plant has twelve cranes [2]\n"
        f"- {'The first sentence is long enough to keep. ' * 3}{'x' * 300} [2]"
    )
    points = map_points(text, offset=0, count=2, limit=9)
    assert [p.text for p in points[:2]] == [
        "The tide mills of Varn grind grain.",
        "The plant has twelve cranes",
    ]
    assert (
        points[2].text
        == "The first sentence is long enough to keep. " * 2 + "The first sentence is long enough to keep."
    )
    assert shortened("word " * 100, 50).endswith("…") and len(shortened("word " * 100, 50)) <= 51
