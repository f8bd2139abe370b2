"""What an export shows of an answer: question, date, model, verdict, and each source with its sentence."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from app.core.answering.presentation.verdict_text import verdict_line
from app.core.answering.types import Answer
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.passage import Citation

EXCERPT_CHARS = 300  # a cited passage no sentence check points into: its start, this long

# An export's words go through the caller's `translate` (the window's Qt translator, the CLI's
# language); as written without one.
Translate = Callable[[str, str], str]
CONTEXT = "Export"
# every finish reason but "stop" marks the answer incomplete (ARCHITECTURE.md §1)
INCOMPLETE_TEXT = {
    "length": QT_TRANSLATE_NOOP(
        "Export", "Cut off: this answer reached the maximum answer length; it is incomplete."
    ),
    "cancelled": QT_TRANSLATE_NOOP("Export", "Stopped: this answer was cancelled; it is incomplete."),
    "error": QT_TRANSLATE_NOOP("Export", "Failed: this answer did not finish; it is incomplete."),
}


def as_written(_context: str, text: str) -> str:
    """No translation: the export in English."""
    return text


@dataclass(frozen=True)
class SourceRow:
    """One citation as an export lists it."""

    n: int
    document: str
    place: str  # "p. 3", "pp. 3–4", or a section ("Guide › Install, ¶ 2")
    sentence: str  # what the sentence check bound the answer to, else the start of the passage
    bound: bool  # True: `sentence` is the passage's supporting sentence; False: an excerpt
    found_by_folio: bool  # Folio matched it to a sentence the model left uncited


@dataclass(frozen=True)
class ExportedAnswer:
    """What an export shows of one answer (plain text; each format escapes it)."""

    question: str
    text: str  # the answer's Markdown, with its [n] markers
    asked_at: str  # "2026-12-01 16:32 UTC", "" when unknown
    model: str
    verdict: str  # the verdict in words, "" when nothing was judged
    incomplete: str  # why the answer is incomplete, "" for a complete answer
    sources: list[SourceRow]


def bound_sentence(answer: Answer, citation: Citation) -> str:
    """The passage text the sentence check bound an answer sentence citing `citation` to (the
    first such sentence's spans); "" when no check points into the passage."""
    for sentence in answer.sentences:
        spans = [
            (start, end)
            for start, end in sentence.evidence.get(citation.n, ())
            if 0 <= start < end <= len(citation.text)
        ]
        if spans:
            return " ".join(" ".join(citation.text[start:end].split()) for start, end in spans)
    return ""


def citation_place(citation: Citation, translate: Translate = as_written) -> str:
    if citation.section:
        return citation.section
    if citation.page_end > citation.page:
        return translate("Export", "pp. {0}–{1}").format(citation.page, citation.page_end)
    return translate("Export", "p. {0}").format(citation.page)


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    if len(flat) <= EXCERPT_CHARS:
        return flat
    return flat[:EXCERPT_CHARS].rsplit(" ", 1)[0] + "…"


def _when(moment: datetime | None) -> str:
    if moment is None:
        return ""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _model_name(answer: Answer) -> str:
    """The model's name; for a server's model also the server's address, without any user name,
    password or query in it (a key never goes into an export)."""
    name = answer.model or answer.model_path.rsplit("/", 1)[-1]
    address = answer.model_path.split(" ", 1)[0]
    if "://" not in address:
        return name
    parts = urlsplit(address)
    host = parts.hostname or ""
    server = f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
    return f"{name} (server {server})"


def _verdict_line_text(answer: Answer, translate: Translate) -> str:
    return verdict_line(answer.verdict, *answer.support_counts(), translate)[0]


def exported(answer: Answer, translate: Translate = as_written) -> ExportedAnswer:
    rows = []
    for citation in sorted(answer.citations, key=lambda c: c.n):
        bound = bound_sentence(answer, citation)
        rows.append(
            SourceRow(
                n=citation.n,
                document=citation.document,
                place=citation_place(citation, translate),
                sentence=bound or _excerpt(citation.text),
                bound=bool(bound),
                found_by_folio=citation.source == "matched",
            )
        )
    incomplete = (
        ""
        if answer.complete
        else translate(CONTEXT, INCOMPLETE_TEXT.get(answer.finish_reason, INCOMPLETE_TEXT["error"]))
    )
    return ExportedAnswer(
        question=answer.question,
        text=answer.answer,
        asked_at=_when(answer.asked_at),
        model=_model_name(answer),
        verdict=_verdict_line_text(answer, translate),
        incomplete=incomplete,
        sources=rows,
    )
