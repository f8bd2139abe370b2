"""An answer or a chat as Markdown (the clipboard's "Copy answer with sources" and `.md` exports)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.core.answering.presentation.export_rows import ExportedAnswer, Translate, as_written, exported
from app.core.answering.types import Answer

# Markdown's marks; "_" inside a word (a file name's "Q4_1") is no mark (CommonMark) and stays as is
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]<>#|]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def md_escape(text: str) -> str:
    """Plain text that Markdown shows as written (one line)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _answer_md(answer: ExportedAnswer, heading: str, translate: Translate) -> list[str]:
    question = md_escape(answer.question) or translate("Export", "(no question)")
    lines = [f"{heading} {question}", ""]
    facts = [
        translate("Export", "Asked {0}").format(answer.asked_at) if answer.asked_at else "",
        translate("Export", "model {0}").format(md_escape(answer.model)),
    ]
    lines += ["*" + " · ".join(fact for fact in facts if fact) + "*", ""]
    if answer.incomplete:
        lines += [f"> **{answer.incomplete}**", ""]
    lines += [answer.text.strip() or "*" + translate("Export", "(no answer text)") + "*", ""]
    if answer.verdict:
        lines += ["**" + translate("Export", "Verdict:") + f"** {answer.verdict}", ""]
    if answer.sources:
        lines += ["**" + translate("Export", "Sources") + "**", ""]
        for row in answer.sources:
            found = " " + translate("Export", "(found by Folio)") if row.found_by_folio else ""
            label = "" if row.bound else translate("Export", "excerpt: ")
            lines.append(
                f"- [{row.n}] {md_escape(row.document)}, {md_escape(row.place)}{found}"
                f" — {label}“{md_escape(row.sentence)}”"
            )
        lines.append("")
    else:
        lines += ["*" + translate("Export", "No sources cited.") + "*", ""]
    return lines


def answer_markdown(answer: Answer, translate: Translate = as_written) -> str:
    """One answer as Markdown (what "Copy answer with sources" puts on the clipboard)."""
    return "\n".join(_answer_md(exported(answer, translate), "##", translate)).rstrip() + "\n"


def chat_markdown(title: str, answers: Sequence[Answer], translate: Translate = as_written) -> str:
    """A whole chat as Markdown: its title, then every answer, oldest first."""
    lines = [f"# {md_escape(title) or translate('Export', 'Untitled chat')}", ""]
    for answer in answers:
        lines += _answer_md(exported(answer, translate), "##", translate)
    if not answers:
        lines += ["*" + translate("Export", "This chat has no answers.") + "*", ""]
    return "\n".join(lines).rstrip() + "\n"
