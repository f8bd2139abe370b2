"""The eval question set (benchmarks/eval/questions.json): loading, document paths, answer patterns."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.core.normalize import normalize_text

REPO = Path(__file__).resolve().parents[2]
QUESTIONS_FILE = REPO / "benchmarks" / "eval" / "questions.json"
LANGS = ("en", "zh")
# A cross-language question asks in one language about a document in the other; its rows are apart.
CROSS_DIRECTIONS = ("en→zh", "zh→en")
KINDS = ("fact", "number", "two-hop", "unanswerable")
SHARED_PREFIX = "../shared/"


@dataclass(frozen=True)
class EvalDocument:
    """One PDF of the set: its path as written in questions.json and where it is on this machine."""

    path: str
    lang: str
    file: Path

    @property
    def name(self) -> str:
        return self.file.name


@dataclass(frozen=True)
class Question:
    """One question with where its answer is and the patterns a correct answer matches."""

    id: str
    lang: str
    question: str
    document: str | None  # file name; None when no document answers it
    pages: tuple[int, ...]  # 1-based pages that hold the answer
    answers: tuple[tuple[str, ...], ...]  # every group must match, by one of its alternatives
    kind: str
    paraphrased: bool
    cross: bool = False  # asked in `lang` about a document in the other language

    @property
    def answerable(self) -> bool:
        return self.kind != "unanswerable"

    @property
    def direction(self) -> str:
        """The row the question is reported in: its language, or "en→zh" / "zh→en" when cross."""
        return direction(self.lang, self.cross)


def direction(lang: str, cross: bool) -> str:
    """ "en" or "zh" for a same-language question, else question language → document language."""
    if not cross:
        return lang
    other = next(code for code in LANGS if code != lang)
    return f"{lang}→{other}"


@dataclass(frozen=True)
class QuestionSet:
    documents: tuple[EvalDocument, ...]
    questions: tuple[Question, ...]

    def document(self, name: str) -> EvalDocument:
        for doc in self.documents:
            if doc.name == name:
                return doc
        raise KeyError(f"no document named {name!r} in the question set")


def resolve_path(path: str, repo: Path = REPO) -> Path:
    """A path from questions.json on this machine: repo-relative, or ../shared/... found beside the
    repository or beside one of its parent folders (a git worktree lives one level deeper)."""
    if not path.startswith(SHARED_PREFIX):
        return repo / path
    rest = path[len(SHARED_PREFIX) :]
    for folder in repo.parents:
        candidate = folder / "shared" / rest
        if candidate.exists():
            return candidate
    return repo.parent / "shared" / rest


def load_questions(path: Path = QUESTIONS_FILE) -> QuestionSet:
    """Read and check the shape of the question set; a malformed entry raises ValueError naming it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    repo = path.parents[2]
    documents = tuple(
        EvalDocument(d["path"], d["lang"], resolve_path(d["path"], repo)) for d in data["documents"]
    )
    questions: list[Question] = []
    for raw in data["questions"]:
        question = Question(
            id=raw["id"],
            lang=raw["lang"],
            question=raw["question"],
            document=raw["document"],
            pages=tuple(raw["pages"]),
            answers=tuple(tuple(group) for group in raw["answers"]),
            kind=raw["kind"],
            paraphrased=bool(raw["paraphrased"]),
            cross=bool(raw.get("cross", False)),
        )
        _check_shape(question)
        _check_language(question, documents)
        questions.append(question)
    return QuestionSet(documents, tuple(questions))


def _check_shape(q: Question) -> None:
    problems = []
    if q.lang not in LANGS:
        problems.append(f"lang {q.lang!r}")
    if q.kind not in KINDS:
        problems.append(f"kind {q.kind!r}")
    if q.answerable and (q.document is None or not q.pages or not q.answers or not all(q.answers)):
        problems.append("an answerable question needs a document, pages and answer patterns")
    if not q.answerable and (q.document is not None or q.pages or q.answers):
        problems.append("an unanswerable question has no document, pages or answers")
    for group in q.answers:
        for pattern in group:
            try:
                re.compile(pattern)
            except re.error as exc:
                problems.append(f"bad pattern {pattern!r}: {exc}")
    if problems:
        raise ValueError(f"question {q.id}: " + "; ".join(problems))


def _check_language(q: Question, documents: Sequence[EvalDocument]) -> None:
    """A same-language question names a document in its language, a cross one in the other."""
    if q.document is None:
        if q.cross:
            raise ValueError(f"question {q.id}: an unanswerable question cannot be cross-language")
        return
    langs = [doc.lang for doc in documents if doc.name == q.document]
    if not langs:
        raise ValueError(f"question {q.id}: no document named {q.document!r}")
    if (langs[0] != q.lang) != q.cross:
        kind = "cross-language" if q.cross else "same-language"
        raise ValueError(f"question {q.id}: a {kind} question about a {langs[0]} document")


def normalized(text: str) -> str:
    """The form both page texts and answers are matched in (Folio's own normalisation)."""
    return normalize_text(text)


def group_matches(group: Sequence[str], text: str) -> bool:
    """True when one alternative of the group occurs in the (normalised) text, ignoring case."""
    return any(re.search(pattern, text, re.IGNORECASE) for pattern in group)


def answer_matches(answers: Sequence[Sequence[str]], text: str) -> bool:
    """True when every pattern group matches `text`; an answer with no groups never matches."""
    norm = normalized(text)
    return bool(answers) and all(group_matches(group, norm) for group in answers)


def page_texts(file: Path, pages: Sequence[int]) -> dict[int, str]:
    """The normalised text of the given 1-based pages, extracted with pypdf as Folio does."""
    import pypdf

    reader = pypdf.PdfReader(file, strict=False)
    return {page: normalized(reader.pages[page - 1].extract_text() or "") for page in pages}
