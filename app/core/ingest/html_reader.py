"""Read a saved web page (or an EPUB chapter) into sections, without its navigation boilerplate.

Scripts, styles, forms, navigation, asides and the page-level header and footer are removed; if
the page marks its main content (<main>, <article>, role="main"), only that is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.core.ingest.page import PageContent
from app.core.ingest.read_base import UnreadableFile, decode_text
from app.core.ingest.sections import SectionBuilder
from app.core.messages import QT_TRANSLATE_NOOP

# Never content: removed wherever they are. (Not <form>: some sites wrap the whole page in one.)
_NOISE = (
    "script, style, noscript, template, iframe, object, embed, svg, canvas, button, select, textarea, "
    "nav, aside, dialog, [role=navigation], [role=search], [role=complementary], [aria-hidden=true], "
    "[hidden]"
)
# Page furniture: removed unless inside the content itself (an article's own header is content).
_FURNITURE = "header, footer, [role=banner], [role=contentinfo]"
_MAIN = ("main", "[role=main]", "article")
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCKS = {
    "address", "blockquote", "dd", "details", "div", "dl", "dt", "fieldset", "figcaption", "figure",
    "li", "main", "ol", "p", "pre", "section", "article", "summary", "table", "tbody", "thead",
    "tfoot", "tr", "td", "th", "ul", "caption", "body", "header", "footer", "hr", "br",
    *_HEADINGS,
}  # fmt: skip
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-]+)""", re.IGNORECASE)


class HtmlUnreadable(Exception):
    """The markup could not be parsed; the message says why."""


def decode_html(data: bytes) -> str:
    """Text of an HTML file: its declared charset if it names one Python knows, else the text
    reader's BOM / UTF-8 / GB18030 / cp1252 guess (`decode_text`)."""
    declared = _CHARSET.search(data[:4096])
    if declared:
        try:
            return data.decode(declared.group(1).decode("ascii").lower())
        except (LookupError, UnicodeDecodeError):
            pass
    return decode_text(data)


def _is_inside(node: Any, selectors: tuple[str, ...]) -> bool:
    parent = node.parent
    while parent is not None:
        if any(parent.css_matches(selector) for selector in selectors if parent.is_element_node):
            return True
        parent = parent.parent
    return False


def _has_blocks(node: Any) -> bool:
    child = node.child
    while child is not None:
        if child.is_element_node and (child.tag in _BLOCKS or _has_blocks(child)):
            return True
        child = child.next
    return False


def _row_text(row: Any) -> str:
    cells = [" ".join(cell.text(deep=True).split()) for cell in row.css("td, th")]
    return " | ".join(cell for cell in cells if cell)


def _walk(node: Any, builder: SectionBuilder) -> None:
    """Headings and leaf blocks in document order; loose text beside blocks is a paragraph."""
    loose: list[str] = []

    def flush() -> None:
        if loose:
            builder.paragraph("".join(loose))
            loose.clear()

    child = node.child
    while child is not None:
        if child.is_text_node:
            loose.append(child.text_content or "")
        elif child.is_element_node:
            tag = child.tag
            if tag in _HEADINGS:
                flush()
                builder.heading(_HEADINGS[tag], child.text(deep=True, separator=" "))
            elif tag == "tr":
                flush()
                builder.paragraph(_row_text(child))
            elif tag in ("br", "hr"):
                flush()
            elif tag in _BLOCKS or _has_blocks(child):
                flush()
                if _has_blocks(child):
                    _walk(child, builder)
                else:
                    builder.paragraph(child.text(deep=True, separator=""))
            else:  # inline: part of the surrounding paragraph
                loose.append(child.text(deep=True, separator=""))
        child = child.next
    flush()


def read_markup(markup: str, builder: SectionBuilder) -> str:
    """Feed the readable content of one HTML/XHTML document to `builder`; returns its <title>."""
    from selectolax.lexbor import LexborHTMLParser

    try:
        tree = LexborHTMLParser(markup)
    except Exception as exc:  # the parser's own error types vary by version
        raise HtmlUnreadable(str(exc) or type(exc).__name__) from exc
    title_node = tree.css_first("title")
    title = " ".join(title_node.text(deep=True).split()) if title_node is not None else ""
    for node in tree.css(_NOISE):
        node.decompose()
    for node in tree.css(_FURNITURE):
        if not _is_inside(node, _MAIN):
            node.decompose()
    root = None
    for selector in _MAIN:
        root = tree.css_first(selector)
        if root is not None:
            break
    root = root or tree.body
    if root is not None:
        _walk(root, builder)
    return title


def read_html(path: Path) -> Iterator[PageContent]:
    data = path.read_bytes()
    if not data.strip():
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "no text (empty file)"))
    builder = SectionBuilder()
    try:
        read_markup(decode_html(data), builder)
    except HtmlUnreadable as exc:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "not a readable HTML file") + f": {exc}") from exc
    pages = builder.pages()
    if not pages:
        raise UnreadableFile(QT_TRANSLATE_NOOP("Core", "no text (the page has no readable content)"))
    yield from pages
