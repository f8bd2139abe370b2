"""The file formats Folio reads: one list for the reader dispatch, the file dialog and the hints."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.messages import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class FileFormat:
    """One readable format: its name for people, its reader kind and its file name suffixes."""

    name: str
    kind: str
    suffixes: tuple[str, ...]


FORMATS: tuple[FileFormat, ...] = (
    FileFormat("PDF", "pdf", (".pdf",)),
    FileFormat("Word", "docx", (".docx",)),
    FileFormat("EPUB", "epub", (".epub",)),
    FileFormat("HTML", "html", (".html", ".htm", ".xhtml")),
    FileFormat("Markdown", "md", (".md", ".markdown")),
    FileFormat(QT_TRANSLATE_NOOP("Core", "text"), "txt", (".txt", ".text")),
)

SUFFIX_KINDS: dict[str, str] = {suffix: f.kind for f in FORMATS for suffix in f.suffixes}


def format_names() -> str:
    """'PDF, Word, EPUB, HTML, Markdown and text': the formats in one phrase, for hints and errors."""
    names = [f.name for f in FORMATS]
    return ", ".join(names[:-1]) + " and " + names[-1]


def name_patterns(suffixes: tuple[str, ...]) -> str:
    """'*.html *.htm': a file dialog's patterns for these suffixes."""
    return " ".join(f"*{suffix}" for suffix in suffixes)


def all_patterns() -> str:
    """Every readable suffix as file dialog patterns."""
    return name_patterns(tuple(SUFFIX_KINDS))
