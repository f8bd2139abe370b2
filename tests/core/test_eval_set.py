"""The eval question set is sound: every answer pattern matches the text of the pages it names."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.eval import make_docs
from benchmarks.evaluation import scoring
from benchmarks.evaluation.dataset import (
    QUESTIONS_FILE,
    Question,
    answer_matches,
    group_matches,
    load_questions,
    page_texts,
)

logging.getLogger("pypdf").setLevel(logging.ERROR)
QUESTIONS = load_questions()
ANSWERABLE = [q for q in QUESTIONS.questions if q.answerable]


@pytest.fixture(scope="module")
def texts() -> dict[tuple[str, int], str]:
    """Normalised text of every page some question names, keyed by (file name, page)."""
    wanted: dict[str, set[int]] = {}
    for q in ANSWERABLE:
        assert q.document is not None
        wanted.setdefault(q.document, set()).update(q.pages)
    found: dict[tuple[str, int], str] = {}
    for name, pages in wanted.items():
        for page, text in page_texts(QUESTIONS.document(name).file, sorted(pages)).items():
            found[(name, page)] = text
    return found


def test_the_set_has_the_promised_size_and_mix() -> None:
    questions = QUESTIONS.questions
    assert len(questions) >= 60
    assert len({q.id for q in questions}) == len(questions)
    for lang in ("en", "zh"):
        mine = [q for q in questions if q.lang == lang]
        kinds = Counter(q.kind for q in mine)
        assert len(mine) >= 30, lang
        assert kinds["unanswerable"] >= 6, lang
        assert kinds["fact"] and kinds["number"] and kinds["two-hop"], lang
    assert sum(q.paraphrased for q in ANSWERABLE) * 3 >= len(ANSWERABLE)


def test_every_document_exists_and_every_question_names_one_of_them() -> None:
    names = [doc.name for doc in QUESTIONS.documents]
    assert len(set(names)) == len(names)
    for doc in QUESTIONS.documents:
        assert doc.file.is_file(), doc.path
    for q in ANSWERABLE:
        doc = QUESTIONS.document(q.document or "")
        assert (doc.lang != q.lang) == q.cross, q.id


def test_cross_language_questions_go_both_ways() -> None:
    directions = Counter(q.direction for q in ANSWERABLE if q.cross)
    assert directions["en→zh"] >= 8 and directions["zh→en"] >= 8, directions


@pytest.mark.parametrize("question", ANSWERABLE, ids=[q.id for q in ANSWERABLE])
def test_answer_patterns_match_the_named_pages(question: Question, texts: dict[tuple[str, int], str]) -> None:
    assert question.document is not None
    pages = {page: texts[(question.document, page)] for page in question.pages}
    assert answer_matches(question.answers, " ".join(pages.values())), question.id
    if question.kind != "two-hop":  # a two-hop question's pages may each hold only a bridge fact
        for page, text in pages.items():
            assert any(group_matches(group, text) for group in question.answers), (question.id, page)


def test_answer_matching_needs_every_group() -> None:
    answers = [["Penrose"], [r"(?<!\d)(?<!\d[.,])1768(?!\d|[.,]\d)"]]
    assert answer_matches(answers, "Josiah Penrose built it in 1768.")
    assert not answer_matches(answers, "Josiah Penrose built it in 17680.")
    assert not answer_matches(answers, "It was built in 1768.")
    assert not answer_matches([], "anything")
    assert answer_matches([["三月初三"]], "农历三月\n初三举办")  # line breaks inside Chinese are ignored


def test_a_malformed_question_is_refused(tmp_path: Path) -> None:
    bad = QUESTIONS_FILE.read_text(encoding="utf-8").replace('"kind": "fact"', '"kind": "trivia"', 1)
    path = tmp_path / "benchmarks" / "eval" / "questions.json"
    path.parent.mkdir(parents=True)
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(ValueError, match="kind 'trivia'"):
        load_questions(path)


def test_generated_documents_are_up_to_date(tmp_path: Path) -> None:
    """The committed PDFs are exactly what make_docs.py writes from the texts."""
    for documents, cjk in make_docs.ALL_DOCUMENTS:
        for name, document in documents.items():
            fresh = make_docs.write_document(name, document, cjk, tmp_path)
            assert fresh.read_bytes() == (make_docs.DOCS_DIR / name).read_bytes(), name
            assert fresh.stat().st_size < 200_000


# -- scoring ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Hit:
    document: str
    page: int
    page_end: int


def _question(pages: tuple[int, ...] = (3, 4), kind: str = "two-hop") -> Question:
    answerable = kind != "unanswerable"
    return Question(
        id="en-99",
        lang="en",
        question="q",
        document="a.pdf" if answerable else None,
        pages=pages if answerable else (),
        answers=((r"\b38\s*m",), ("Ellery",)) if answerable else (),
        kind=kind,
        paraphrased=False,
    )


def test_retrieval_scores_rank_and_recall_by_page_overlap() -> None:
    hits = [_Hit("b.pdf", 3, 3), _Hit("a.pdf", 1, 2), _Hit("a.pdf", 2, 3)] + [_Hit("a.pdf", 9, 9)] * 3
    hits += [_Hit("a.pdf", 4, 4)]
    record = scoring.score_retrieval(_question(), hits, 12.0)
    assert record.first_rank == 3  # the right page in the wrong document does not count
    assert record.recall == {5: 0.5, 10: 1.0}
    summary = scoring.summarize_retrieval([record, scoring.score_retrieval(_question(), [], 20.0)])
    assert summary["hit@1"] == 0.0
    assert summary["hit@5"] == 0.5
    assert summary["mrr"] == pytest.approx(1 / 6)
    assert summary["latency_p50_ms"] == pytest.approx(16.0)


def test_answer_scores_accuracy_citations_and_refusals() -> None:
    answer = {
        "answer": "The tower is 38 m tall; Thomas Ellery designed it [1][2].",
        "citations": [{"document": "a.pdf", "page": 4}, {"document": "a.pdf", "page": 1, "page_end": 1}],
        "finish_reason": "stop",
        "metrics": {"ttft_ms": 900.0, "tokens_per_s": 30.0},
        "budget": {"passages_used": [11, 12], "passages_dropped": []},
    }
    right = scoring.score_answer(_question(), answer)
    assert right.correct and not right.refusal
    assert [c["right"] for c in right.cited] == [True, False]
    assert right.support_rate is None
    refusal = {"answer": "The documents do not cover this.", "citations": []}
    refused = scoring.score_answer(_question(), refusal)
    assert refused.refusal and not refused.correct
    unanswerable = scoring.score_answer(_question(kind="unanswerable"), refusal)
    assert unanswerable.correct
    summary = scoring.summarize_answers([right, refused, unanswerable])
    assert summary["accuracy"] == pytest.approx(2 / 3)
    assert summary["citation_precision"] == 0.5
    assert summary["with_correct_citation"] == 0.5
    assert summary["false_refusals"] == 0.5
    assert summary["refusal_unanswerable"] == 1.0
    assert summary["support_rate"] is None
    assert summary["without_passages"] == pytest.approx(2 / 3)
