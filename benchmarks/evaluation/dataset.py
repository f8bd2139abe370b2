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
SPLIT_FILE = REPO / "benchmarks" / "eval" / "split.json"
HALVES = ("calibration", "held_out")
LANGS = ("en", "zh")
# A cross-language question asks in one language about a document in the other; its rows are apart.
CROSS_DIRECTIONS = ("en→zh", "zh→en")
KINDS = ("fact", "number", "two-hop", "unanswerable", "copy-trap", "wrong-binding")
SOURCES = ("generated", "real")  # made by make_docs.py, or a document people wrote
SHARED_PREFIX = "../shared/"


@dataclass(frozen=True)
class EvalDocument:
    """One PDF of the set: its path as written in questions.json and where it is on this machine."""

    path: str
    lang: str
    file: Path
    source: str = "generated"  # "generated" | "real"

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
    wrong: tuple[tuple[str, ...], ...] = ()  # an answer matching any of these is incorrect
    lure: tuple[str, tuple[int, ...]] | None = None  # copy trap: the page sharing the question's words
    about: str | None = None  # unanswerable: the document whose topic it is on
    cross: bool = False  # asked in `lang` about a document in the other language
    half: str = "held_out"  # "calibration" (thresholds, weights and prompts are fitted on it) or "held_out"

    @property
    def answerable(self) -> bool:
        if self.kind == "copy-trap":
            return bool(self.pages)
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

    def source_of(self, question: Question) -> str:
        """ "generated" or "real": the source of the document that answers the question, or of
        the one it is about (its lure or `about`); "" when it names none."""
        name = question.document or (question.lure[0] if question.lure else None) or question.about
        return self.document(name).source if name else ""


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


def question_halves(path: Path = SPLIT_FILE) -> tuple[frozenset[str], tuple[str, ...]]:
    """The ids of the calibration half, and the id prefixes that are held out (split.json)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return frozenset(data["calibration"]), tuple(data["held_out_prefixes"])


def half_of(question_id: str, calibration: frozenset[str], held_out_prefixes: Sequence[str]) -> str:
    """ "calibration" for an id listed there; every other id is held out (new ids too)."""
    if question_id in calibration and not question_id.startswith(tuple(held_out_prefixes)):
        return "calibration"
    return "held_out"


def load_questions(path: Path = QUESTIONS_FILE) -> QuestionSet:
    """Read and check the shape of the question set; a malformed entry raises ValueError naming it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    repo = path.parents[2]
    split = path.parent / SPLIT_FILE.name
    calibration, prefixes = question_halves(split) if split.is_file() else (frozenset(), ())
    documents = tuple(
        EvalDocument(d["path"], d["lang"], resolve_path(d["path"], repo), d.get("source", ""))
        for d in data["documents"]
    )
    for doc in documents:
        if doc.source not in SOURCES:
            raise ValueError(f"document {doc.path}: source {doc.source!r} (want one of {SOURCES})")
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
            wrong=tuple(tuple(group) for group in raw.get("wrong", ())),
            lure=(raw["lure"]["document"], tuple(raw["lure"]["pages"])) if "lure" in raw else None,
            about=raw.get("about"),
            cross=bool(raw.get("cross", False)),
            half=half_of(raw["id"], calibration, prefixes),
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
    problems.extend(_trap_problems(q))
    for group in (*q.answers, *q.wrong):
        for pattern in group:
            try:
                re.compile(pattern)
            except re.error as exc:
                problems.append(f"bad pattern {pattern!r}: {exc}")
    if problems:
        raise ValueError(f"question {q.id}: " + "; ".join(problems))


def _trap_problems(q: Question) -> list[str]:
    """A copy trap names its lure, which is not an answer page; a wrong-binding trap names the
    other figures of its page."""
    problems = []
    if q.kind == "copy-trap":
        if q.lure is None or not q.lure[1]:
            problems.append("a copy trap needs a lure (the document and pages sharing its words)")
        elif q.lure[0] == q.document and set(q.lure[1]) & set(q.pages):
            problems.append("a copy trap's lure is not one of its answer pages")
    elif q.lure is not None:
        problems.append("only a copy trap has a lure")
    if q.kind == "wrong-binding" and not (q.wrong and all(q.wrong)):
        problems.append("a wrong-binding trap needs wrong patterns")
    if q.wrong and not q.answerable:
        problems.append("an unanswerable question has no wrong patterns")
    if q.about is not None and q.answerable:
        problems.append("only an unanswerable question is `about` a document")
    return problems


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


def wrong_matches(wrong: Sequence[Sequence[str]], text: str) -> bool:
    """True when the (normalised) answer gives one of the wrong figures of a trap."""
    norm = normalized(text)
    return any(group_matches(group, norm) for group in wrong)


def page_texts(file: Path, pages: Sequence[int]) -> dict[int, str]:
    """The normalised text of the given 1-based pages, extracted as Folio does: pypdf for a PDF,
    Folio's own readers for the other formats (a text file's pages are its 60-line blocks)."""
    if file.suffix.lower() != ".pdf":
        from app.core.ingest.page import PageContent
        from app.core.ingest.readers import read_pages

        read = {
            event.number: event.text if event.normalized else normalized(event.text)
            for event in read_pages(file)
            if isinstance(event, PageContent)
        }
        return {page: read[page] for page in pages}
    import pypdf

    reader = pypdf.PdfReader(file, strict=False)
    return {page: normalized(reader.pages[page - 1].extract_text() or "") for page in pages}
