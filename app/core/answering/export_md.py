"""An answer or a chat as Markdown (the clipboard's "Copy answer with sources" and `.md` exports)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.core.answering.export_rows import ExportedAnswer, exported
from app.core.answering.types import Answer

# Markdown's marks; "_" inside a word (a file name's "Q4_1") is no mark (CommonMark) and stays as is
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]<>#|]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def md_escape(text: str) -> str:
    """Plain text that Markdown shows as written (one line)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _answer_md(answer: ExportedAnswer, heading: str) -> list[str]:
    lines = [f"{heading} {md_escape(answer.question) or '(no question)'}", ""]
    facts = [f"Asked {answer.asked_at}" if answer.asked_at else "", f"model {md_escape(answer.model)}"]
    lines += ["*" + " · ".join(fact for fact in facts if fact) + "*", ""]
    if answer.incomplete:
        lines += [f"> **{answer.incomplete}**", ""]
    lines += [answer.text.strip() or "*(no answer text)*", ""]
    if answer.verdict:
        lines += [f"**Verdict:** {answer.verdict}", ""]
    if answer.sources:
        lines += ["**Sources**", ""]
        for row in answer.sources:
            found = " (found by Folio)" if row.found_by_folio else ""
            label = "" if row.bound else "excerpt: "
            lines.append(
                f"- [{row.n}] {md_escape(row.document)}, {md_escape(row.place)}{found}"
                f" — {label}“{md_escape(row.sentence)}”"
            )
        lines.append("")
    else:
        lines += ["*No sources cited.*", ""]
    return lines


def answer_markdown(answer: Answer) -> str:
    """One answer as Markdown (what "Copy answer with sources" puts on the clipboard)."""
    return "\n".join(_answer_md(exported(answer), "##")).rstrip() + "\n"


def chat_markdown(title: str, answers: Sequence[Answer]) -> str:
    """A whole chat as Markdown: its title, then every answer, oldest first."""
    lines = [f"# {md_escape(title) or 'Untitled chat'}", ""]
    for answer in answers:
        lines += _answer_md(exported(answer), "##")
    if not answers:
        lines += ["*This chat has no answers.*", ""]
    return "\n".join(lines).rstrip() + "\n"
