"""What an export shows of an answer: question, date, model, verdict, and each source with its sentence."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from app.core.answering.types import Answer
from app.core.passage import Citation

EXCERPT_CHARS = 300  # a cited passage no sentence check points into: its start, this long

VERDICT_TEXT = {
    "answered": "Answered from your documents",
    "partly": "Partly answered: some statements are not supported by your documents",
    "not_answered": "Not answered: nothing here is both in your documents and about your question",
    "not_in_documents": "Your documents do not answer this question",
}
# every finish reason but "stop" marks the answer incomplete (ARCHITECTURE.md §1)
INCOMPLETE_TEXT = {
    "length": "Cut off: this answer reached the maximum answer length; it is incomplete.",
    "cancelled": "Stopped: this answer was cancelled; it is incomplete.",
    "error": "Failed: this answer did not finish; it is incomplete.",
}


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


def citation_place(citation: Citation) -> str:
    if citation.section:
        return citation.section
    if citation.page_end > citation.page:
        return f"pp. {citation.page}–{citation.page_end}"
    return f"p. {citation.page}"


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


def _verdict(answer: Answer) -> str:
    supported, judged = answer.support_counts()
    count = f"{supported} of {judged} statements are supported by your documents" if judged else ""
    words = VERDICT_TEXT.get(answer.verdict or "", "")
    if answer.verdict in ("answered", "partly") and count:
        return f"{words} · {count}"
    return words or count


def exported(answer: Answer) -> ExportedAnswer:
    rows = []
    for citation in sorted(answer.citations, key=lambda c: c.n):
        bound = bound_sentence(answer, citation)
        rows.append(
            SourceRow(
                n=citation.n,
                document=citation.document,
                place=citation_place(citation),
                sentence=bound or _excerpt(citation.text),
                bound=bool(bound),
                found_by_folio=citation.source == "matched",
            )
        )
    incomplete = (
        "" if answer.complete else INCOMPLETE_TEXT.get(answer.finish_reason, INCOMPLETE_TEXT["error"])
    )
    return ExportedAnswer(
        question=answer.question,
        text=answer.answer,
        asked_at=_when(answer.asked_at),
        model=_model_name(answer),
        verdict=_verdict(answer),
        incomplete=incomplete,
        sources=rows,
    )
