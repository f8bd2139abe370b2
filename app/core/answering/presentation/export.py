"""Export an answer or a chat: the one entry the facade, the window and the CLI call (Markdown or HTML)."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.answering.presentation.export_html import answer_html, chat_html
from app.core.answering.presentation.export_md import answer_markdown, chat_markdown
from app.core.answering.presentation.export_rows import Translate, as_written
from app.core.answering.types import Answer
from app.core.errors import UsageError

EXPORT_FORMATS = ("md", "html")
SUFFIXES = {"md": ".md", "html": ".html"}


def check_format(fmt: str) -> str:
    """The format, lower-cased; a UsageError naming the formats for any other."""
    name = fmt.strip().lower().lstrip(".")
    name = "md" if name == "markdown" else "html" if name == "htm" else name
    if name not in EXPORT_FORMATS:
        raise UsageError(f"unknown export format {fmt!r}: use one of {', '.join(EXPORT_FORMATS)}")
    return name


def render_answer(answer: Answer, fmt: str, translate: Translate = as_written) -> str:
    """One answer in `fmt`; its words through `translate` (the interface's language)."""
    if check_format(fmt) == "md":
        return answer_markdown(answer, translate)
    return answer_html(answer, translate)


def render_chat(title: str, answers: Sequence[Answer], fmt: str, translate: Translate = as_written) -> str:
    """A whole chat in `fmt`; its words through `translate` (the interface's language)."""
    if check_format(fmt) == "md":
        return chat_markdown(title, answers, translate)
    return chat_html(title, answers, translate)
