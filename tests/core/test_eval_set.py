"""The eval question set is sound: every answer pattern matches the text of the pages it names."""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.eval import make_docs
from benchmarks.evaluation import report, scoring
from benchmarks.evaluation.dataset import (
    QUESTIONS_FILE,
    Question,
    QuestionSet,
    answer_matches,
    group_matches,
    load_questions,
    normalized,
    page_texts,
    wrong_matches,
)

logging.getLogger("pypdf").setLevel(logging.ERROR)
QUESTIONS = load_questions()
ANSWERABLE = [q for q in QUESTIONS.questions if q.answerable]
TRAPS = [q for q in QUESTIONS.questions if q.kind in ("copy-trap", "wrong-binding")]


@pytest.fixture(scope="module")
def texts() -> dict[tuple[str, int], str]:
    """Normalised text of every page some question names, keyed by (file name, page)."""
    wanted: dict[str, set[int]] = {}
    for q in ANSWERABLE:
        assert q.document is not None
        wanted.setdefault(q.document, set()).update(q.pages)
    for q in TRAPS:
        if q.lure:
            wanted.setdefault(q.lure[0], set()).update(q.lure[1])
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


def test_the_set_has_traps_and_real_documents_in_both_languages() -> None:
    for lang in ("en", "zh"):
        mine = [q for q in QUESTIONS.questions if q.lang == lang]
        kinds = Counter(q.kind for q in mine)
        assert kinds["copy-trap"] >= 6 and kinds["wrong-binding"] >= 6, (lang, kinds)
        assert any(q.kind == "copy-trap" and q.answerable for q in mine), lang
        assert any(q.kind == "copy-trap" and not q.answerable for q in mine), lang
        real = [q for q in mine if QUESTIONS.source_of(q) == "real" and q.paraphrased]
        assert len(real) >= 8, lang
        assert all(QUESTIONS.source_of(q) for q in mine), "every question names a document or is about one"
    assert {doc.source for doc in QUESTIONS.documents} == {"generated", "real"}


def _with_lure(question: Question, texts: dict[tuple[str, int], str]) -> str:
    assert question.document is not None
    pages = [(question.document, p) for p in question.pages]
    if question.lure:
        pages += [(question.lure[0], p) for p in question.lure[1]]
    return " ".join(texts[key] for key in pages)


WRONG = [q for q in QUESTIONS.questions if q.wrong]


@pytest.mark.parametrize("question", WRONG, ids=[q.id for q in WRONG])
def test_wrong_figures_are_on_the_page_but_not_in_the_question(
    question: Question, texts: dict[tuple[str, int], str]
) -> None:
    """What makes a trap: every wrong figure stands on the answer page (or the lure) beside the
    right one, and none is in the question, so an answer that repeats the question is not failed."""
    text = _with_lure(question, texts)
    for group in question.wrong:
        assert group_matches(group, text), (question.id, group)
    assert not wrong_matches(question.wrong, question.question), question.id


def _terms(text: str) -> set[str]:
    """Words of two characters or more (Latin script) and character pairs (Chinese)."""
    text = normalized(text).lower()
    words = set(re.findall(r"[a-z0-9][a-z0-9.\-]*[a-z0-9]", text))
    runs = re.findall(r"[\u4e00-\u9fff]+", text)
    return words | {run[i : i + 2] for run in runs for i in range(len(run) - 1)}


LURED = [q for q in QUESTIONS.questions if q.lure]


@pytest.mark.parametrize("question", LURED, ids=[q.id for q in LURED])
def test_a_copy_trap_lure_shares_the_questions_words(
    question: Question, texts: dict[tuple[str, int], str]
) -> None:
    assert question.lure is not None
    lure = " ".join(texts[(question.lure[0], p)] for p in question.lure[1])
    asked = _terms(question.question)
    shared = asked & _terms(lure)
    assert len(shared) >= 2 and len(shared) >= 0.2 * len(asked), (question.id, sorted(shared))


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


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"wrong": [', '"wrong": [], "unused": [', "needs wrong patterns"),
        (', "source": "real"}', "}", "source ''"),
        (
            '"kind": "copy-trap", "paraphrased": false, "lure"',
            '"kind": "copy-trap", "paraphrased": false, "x"',
            "lure",
        ),
    ],
)
def test_a_malformed_trap_is_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = QUESTIONS_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "benchmarks" / "eval" / "questions.json"
    path.parent.mkdir(parents=True)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
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


def _question(
    pages: tuple[int, ...] = (3, 4), kind: str = "two-hop", wrong: tuple[tuple[str, ...], ...] = ()
) -> Question:
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
        wrong=wrong,
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


def test_an_answer_giving_the_other_figure_of_the_page_is_wrong() -> None:
    trap = _question(kind="wrong-binding", wrong=((r"\b42\s*m",),))
    right = {"answer": "Thomas Ellery's tower is 38 m tall.", "citations": []}
    assert scoring.score_answer(trap, right).correct
    mixed = {"answer": "Thomas Ellery's tower is 42 m tall, or 38 m.", "citations": []}
    record = scoring.score_answer(trap, mixed)
    assert not record.correct and record.extra["wrong_figure"]
    assert scoring.score_answer(_question(), mixed).correct  # without wrong patterns, the same answer passes


def test_the_split_report_has_a_row_per_source_and_trap_kind() -> None:
    questions = QuestionSet(
        QUESTIONS.documents,
        (
            Question(
                "en-1",
                "en",
                "q",
                "aurelia-kx40-manual.pdf",
                (2,),
                (("x",),),
                "wrong-binding",
                True,
                (("y",),),
            ),
            Question("en-2", "en", "q", "debian-faq.en.txt", (6,), (("x",),), "fact", True),
            Question("en-3", "en", "q", None, (), (), "copy-trap", False, lure=("debian-faq.en.txt", (29,))),
        ),
    )
    records = [scoring.score_answer(q, {"answer": "x"}) for q in questions.questions]
    rows = report.split_summaries(records, questions, scoring.summarize_answers)
    assert {name: row["n"] for name, row in rows.items()} == {
        "English, generated": 1,
        "English, real": 2,
        "English, copy traps": 1,
        "English, wrong-binding traps": 1,
    }
    assert rows["English, real"]["accuracy"] == 0.5  # the fact is right, the copy trap was not refused
    assert "| English, copy traps | 1 |" in report.table(rows, report.ANSWER_COLUMNS)
