"""An answer or a chat as one self-contained HTML file: inline CSS, nothing external, all text escaped."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from app.core.answering.presentation.export_rows import ExportedAnswer, Translate, as_written, exported
from app.core.answering.types import Answer

STYLE = """
body { font-family: "Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", sans-serif; max-width: 46em;
  margin: 2em auto; padding: 0 1em; line-height: 1.5; color: #1c1b1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
.facts { color: #5f5f66; font-size: 0.9em; }
.incomplete { border-left: 4px solid #b3261e; background: #fbeeee; padding: 0.4em 0.8em; }
.verdict { font-weight: bold; }
.sources li { margin-bottom: 0.4em; }
.where { font-weight: bold; }
.sentence { color: #3f3f46; }
code { background: #f1f1f4; padding: 0 0.2em; }
"""
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d+[.)]\s+(.*)$")
_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
)


def _inline(text: str) -> str:
    """Escaped text with the model's bold, italic and code marks as tags (no links, no raw HTML)."""
    escaped = html.escape(text, quote=True)
    for pattern, tag in _INLINE:
        escaped = pattern.sub(tag, escaped)
    return escaped


def markdown_html(markdown: str) -> str:
    """The subset of Markdown answers use (paragraphs, headings, bullet and numbered lists, bold,
    italic, code) as HTML; anything else is shown as escaped text."""
    out: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    kind = ""

    def close() -> None:
        nonlocal kind
        if paragraph:
            out.append("<p>" + "<br>".join(_inline(line) for line in paragraph) + "</p>")
            paragraph.clear()
        if items:
            out.append(f"<{kind}>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + f"</{kind}>")
            items.clear()
        kind = ""

    for line in markdown.splitlines():
        heading, bullet = _HEADING.match(line), _BULLET.match(line)
        listed = bullet or _NUMBERED.match(line)
        if not line.strip():
            close()
        elif heading:
            close()
            level = min(6, len(heading.group(1)) + 2)  # below the export's own headings
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif listed:
            wanted = "ul" if bullet else "ol"
            if paragraph or (items and kind != wanted):
                close()
            kind = wanted
            items.append(listed.group(1))
        elif items:
            items[-1] += " " + line.strip()
        else:
            paragraph.append(line.strip())
    close()
    return "\n".join(out)


def _answer_html(answer: ExportedAnswer, translate: Translate) -> str:
    e = html.escape
    facts = [
        e(translate("Export", "Asked {0}").format(answer.asked_at)) if answer.asked_at else "",
        e(translate("Export", "model {0}").format(answer.model)),
    ]
    question = e(answer.question) or e(translate("Export", "(no question)"))
    parts = [
        f'<section class="answer"><h2>{question}</h2>',
        f'<p class="facts">{" · ".join(fact for fact in facts if fact)}</p>',
    ]
    if answer.incomplete:
        parts.append(f'<p class="incomplete"><strong>{e(answer.incomplete)}</strong></p>')
    no_text = e(translate("Export", "(no answer text)"))
    parts.append(markdown_html(answer.text.strip()) or f"<p><em>{no_text}</em></p>")
    if answer.verdict:
        verdict = e(translate("Export", "Verdict:"))
        parts.append(f'<p class="verdict">{verdict} {e(answer.verdict)}</p>')
    if answer.sources:
        rows = []
        for row in answer.sources:
            found = " " + e(translate("Export", "(found by Folio)")) if row.found_by_folio else ""
            label = "" if row.bound else e(translate("Export", "excerpt: "))
            rows.append(
                f'<li><span class="where">[{row.n}] {e(row.document)}, {e(row.place)}</span>{found}'
                f' — <span class="sentence">{label}“{e(row.sentence)}”</span></li>'
            )
        sources = e(translate("Export", "Sources"))
        parts.append(f'<h3>{sources}</h3><ul class="sources">' + "".join(rows) + "</ul>")
    else:
        none_cited = e(translate("Export", "No sources cited."))
        parts.append(f"<p><em>{none_cited}</em></p>")
    parts.append("</section>")
    return "\n".join(parts)


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head><body>\n{body}\n</body></html>\n"
    )


def answer_html(answer: Answer, translate: Translate = as_written) -> str:
    title = answer.question or translate("Export", "Folio answer")
    return _page(title, _answer_html(exported(answer, translate), translate))


def chat_html(title: str, answers: Sequence[Answer], translate: Translate = as_written) -> str:
    heading = title or translate("Export", "Untitled chat")
    sections = [_answer_html(exported(answer, translate), translate) for answer in answers]
    body = [f"<h1>{html.escape(heading)}</h1>", *sections]
    if not answers:
        body.append("<p><em>" + html.escape(translate("Export", "This chat has no answers.")) + "</em></p>")
    return _page(heading, "\n".join(body))
