"""A verified answer in the view: matched citations as links, unsupported sentences underlined."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextCharFormat, QTextCursor
from pytestqt.qtbot import QtBot

from app.core.answering.evidence.locate import LocatedSentence
from app.core.answering.judge.attribution import attribute
from app.core.answering.judge.checking import verified_citations
from app.core.passage import Citation, Hit
from app.gui.answer_marks import annotated_markdown, plain_pieces
from app.gui.answer_state import AnswerState
from app.gui.answer_view import AnswerView
from app.gui.found_line import FoundLine
from tests.gui.fakes import fake_answer

PASSAGES = [
    "The lighthouse at Cape Merrow is thirty-one metres tall and was finished in 1893.",
    "Its lamp flashes green every twelve seconds and can be seen 22 nautical miles out at sea.",
]
ANSWER = (
    "The lighthouse was finished in 1893 [2]. Its lamp flashes green every twelve seconds. "
    "The keeper was paid 400 crowns a year [1]."
)


def _hits() -> list[Hit]:
    return [
        Hit(10 + n, 1, "guide.pdf", "/docs/guide.pdf", n, n, 0, len(text), text, 0.5, 0.5)
        for n, text in enumerate(PASSAGES, start=1)
    ]


def _finished_view(
    qtbot: QtBot, question: str, text: str, passages: list[str], hits: list[Hit]
) -> AnswerView:
    """A view of a finished answer whose sentences were really checked against `passages`."""
    checked = attribute(text, passages)
    answer = replace(
        fake_answer(text, "stop"),
        passages=hits,
        sentences=checked.sentences,
        support_rate=checked.support_rate,
        citations=verified_citations(checked, hits),
    )
    state = AnswerState(question, False)
    view = AnswerView(state)
    qtbot.addWidget(view)
    state.finish(answer)
    return view


def test_annotated_markdown_links_verified_matched_and_strikes_wrong_markers() -> None:
    checked = attribute(ANSWER, PASSAGES)
    first, second, third = checked.sentences
    assert first.citations == (1,) and first.wrong_citations == (2,)  # [2] does not hold 1893
    assert second.source == "matched" and second.citations == (2,)
    assert third.supported is False and third.citations == ()
    markdown = annotated_markdown(ANSWER, checked.sentences)
    assert "~~2~~" in markdown  # the wrong marker of the first sentence
    assert "[1](match:1-0)" in markdown  # and the passage that does support it
    assert "seconds. \\[[2](match:2-1)\\]" in markdown or "seconds \\[[2](match:2-1)\\]." in markdown
    assert "~~1~~" in markdown  # the keeper's pay is in no passage: its marker is struck


def test_plain_pieces_split_at_markers_and_drop_markdown() -> None:
    pieces = plain_pieces("- The **tower** is tall [1], see 【2】 too.")
    assert pieces == ["The tower is tall", ", see", "too."]


def test_the_view_underlines_unsupported_sentences_and_counts_the_supported(qtbot: QtBot) -> None:
    view = _finished_view(qtbot, "When was the lighthouse finished?", ANSWER, PASSAGES, _hits())
    assert view.support.isVisibleTo(view)
    assert view.support.text() == "2 of 3 statements are supported by your documents"
    document = view.body.document()
    found = document.find("The keeper was paid 400 crowns a year")
    assert not found.isNull()
    inside = QTextCursor(document)
    inside.setPosition(found.selectionStart() + 3)
    style = inside.charFormat()
    assert style.underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine
    assert style.toolTip() == "Not found in the cited passages"
    supported = QTextCursor(document)
    supported.setPosition(document.find("finished in 1893").selectionStart() + 2)
    assert supported.charFormat().underlineStyle() != QTextCharFormat.UnderlineStyle.DotLine
    # a matched citation opens the passage with the supporting passage sentence as evidence
    opened: list[tuple[str, str]] = []
    view.citation_activated.connect(lambda citation, evidence: opened.append((citation.document, evidence)))
    view.body.anchorClicked.emit(QUrl("match:2-1"))
    assert opened == [("guide.pdf", PASSAGES[1])]  # the passage's one sentence supports it


def test_a_source_shows_the_passage_sentence_that_supports_the_answer(qtbot: QtBot) -> None:
    passage = (
        "The mill pond is also a safe place for young fish and herons. "
        "The lighthouse at Cape Merrow is thirty-one metres tall and was finished in 1893."
    )
    hits = [Hit(21, 1, "varn.pdf", "/docs/varn.pdf", 2, 3, 0, len(passage), passage, 0.5, 0.5)]
    text = "The lighthouse is thirty-one metres tall [1]."
    view = _finished_view(qtbot, "How tall is the lighthouse?", text, [passage], hits)
    sources = view.sources.text()
    assert "[1] varn.pdf, pp. 2–3" in sources
    assert "thirty-one metres tall" in sources and "mill pond" not in sources


def test_a_source_shows_the_headings_its_passage_sits_under(qtbot: QtBot) -> None:
    passage = "The lighthouse at Cape Merrow is thirty-one metres tall and was finished in 1893."
    heading = "Coast › Lighthouses › Cape Merrow"
    hits = [
        Hit(21, 1, "coast.pdf", "/docs/coast.pdf", 7, 7, 0, len(passage), passage, 0.5, 0.5, heading=heading)
    ]
    view = _finished_view(
        qtbot, "How tall is the lighthouse?", "It is thirty-one metres tall [1].", [passage], hits
    )
    assert f"[1] coast.pdf, p. 7 · {heading}" in view.sources.text()
    found = FoundLine()
    qtbot.addWidget(found)
    found.show_found([LocatedSentence(Citation.from_hit(1, hits[0], "matched"), passage, 1.0)])
    assert f"Found on coast.pdf p. 7 · {heading}" in found.text()
