"""Streaming Markdown: settled blocks once, the tail re-rendered, citations linked, same as a full render."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from app.gui.markdown_stream import MarkdownStream, link_citations
from app.gui.markdown_view import ZWSP, MarkdownView

ANSWER = (
    "# Inverter\n\nCheck the display **monthly** [1].\n\n- restart it [2, 3]\n- call support [1-2]\n\n"
    "```\ncode [4]\n\nstill code\n```\n\n1. first\n2. second\n\n> quoted 【2】\n\nDone."
)


def test_blocks_settle_only_at_blank_lines_outside_code_fences() -> None:
    stream = MarkdownStream()
    settled: list[str] = []
    for char in ANSWER:
        block, _tail = stream.feed(char)
        if block:
            settled.append(block)
    assert "".join(settled) + stream.tail == ANSWER
    fenced = next(block for block in settled if block.startswith("```"))
    assert "still code\n```" in fenced  # the blank line inside the fence did not split it
    assert stream.tail == "Done."


def test_citations_become_links_and_invalid_ones_are_struck_through() -> None:
    linked = link_citations("See [1], [2, 3], [1-2] and 【4】.\n```\n[1]\n```\n", valid={1, 2, 3})
    assert "[1](cite:1)" in linked and "[3](cite:3)" in linked and "~~4~~" in linked
    assert "```\n[1]\n```" in linked  # code is left alone
    assert link_citations("no markers here") == "no markers here"


def test_streamed_rendering_matches_a_full_render(qtbot: QtBot) -> None:
    view = MarkdownView()
    qtbot.addWidget(view)
    for start in range(0, len(ANSWER), 7):
        view.append_streamed(ANSWER[start : start + 7])
    streamed = view.document().toPlainText().replace(ZWSP, "")
    full = QTextDocument()
    full.setMarkdown(link_citations(ANSWER))
    assert [line for line in streamed.splitlines() if line] == [
        line for line in full.toPlainText().splitlines() if line
    ]
    clicked: list[tuple[int, int]] = []
    view.citation_clicked.connect(lambda n, sentence: clicked.append((n, sentence)))
    view.anchorClicked.emit(QUrl("cite:2"))
    view.anchorClicked.emit(QUrl("match:3-1"))
    view.anchorClicked.emit(QUrl("https://example.org"))
    assert clicked == [(2, -1), (3, 1)]
