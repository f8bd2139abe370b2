"""Exports of answers and chats: the same sources as the stored answer, escaped text, incomplete marked."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.answering.judge.checks import SentenceCheck
from app.core.answering.presentation.export import check_format, render_answer, render_chat
from app.core.answering.presentation.export_md import answer_markdown
from app.core.answering.types import Answer, AnswerMetrics
from app.core.errors import UsageError
from app.core.generate.model import Sampling
from app.core.passage import Citation, Hit
from app.core.qa import Folio
from tests.pdfgen import write_pdf

MD_SOURCE = re.compile(r"^- \[(\d+)\] (.+), (p\. \d+|pp\. \d+–\d+)", re.MULTILINE)
HTML_SOURCE = re.compile(r'<span class="where">\[(\d+)\] (.+?), (p\. \d+|pp\. \d+–\d+)</span>')
PAGES = [  # each page longer than a chunk (200 embedder tokens), so a chunk starts on its page
    ["Solar panels overview."]
    + [f"Panel row {n} faces south at a tilt of {20 + n} degrees." for n in range(24)],
    ["Inverter maintenance."]
    + [f"Inverter log entry {n} reads normal." for n in range(12)]
    + ["Restart the inverter if the red fault light stays on for an hour."]
    + [f"Inverter log entry {n} reads normal." for n in range(12, 24)],
    ["Battery storage."] + [f"Battery module {n} holds five kilowatt hours." for n in range(24)],
]


def _answer(
    text: str, citations: list[Citation], sentences: tuple[SentenceCheck, ...] = (), **extra: object
) -> Answer:
    fields: dict[str, object] = {
        "question": "How do I restart the inverter?",
        "answer": text,
        "thinking": "",
        "citations": citations,
        "invalid_citations": [],
        "finish_reason": "stop",
        "model": "SmolLM2-135M-Instruct.Q4_1.gguf",
        "budget": None,
        "metrics": AnswerMetrics(),
        "spans": {},
        "grounded": True,
        "sampling": Sampling(),
        "sentences": sentences,
        "verdict": "answered",
    }
    fields.update(extra)
    return Answer(**fields)  # type: ignore[arg-type]


def _sentence(text: str, n: int, span: tuple[int, int]) -> SentenceCheck:
    return SentenceCheck(
        text=text,
        start=0,
        end=len(text),
        citations=(n,),
        source="model",
        support=0.8,
        supported=True,
        kind="factual",
        wrong_citations=(),
        evidence={n: (span,)},
        on_question=True,
    )


def _sources(text: str, pattern: re.Pattern[str]) -> list[tuple[int, str, str]]:
    return [(int(n), html.unescape(doc), html.unescape(place)) for n, doc, place in pattern.findall(text)]


def _cited(citation: Citation) -> tuple[int, str, str]:
    place = (
        f"p. {citation.page}"
        if citation.page_end <= citation.page
        else f"pp. {citation.page}–{citation.page_end}"
    )
    return citation.n, citation.document, place


def _library_hits(folio: Folio, tmp_path: Path) -> list[Hit]:
    pdf = write_pdf(tmp_path / "solar guide.pdf", PAGES)
    assert not folio.library.ingest([pdf]).failed
    hits = folio.library.search("restart the inverter red fault light", 3).hits
    assert {hit.page for hit in hits} >= {2}, [(h.page, h.text) for h in hits]
    return hits


def test_exported_sources_name_the_stored_answers_pages(folio: Folio, tmp_path: Path) -> None:
    """A real PDF in a real library; answers saved through the real store, read back, exported."""
    hits = _library_hits(folio, tmp_path)
    inverter = next(h for h in hits if h.page == 2)
    other = next(h for h in hits if h.page != 2)
    first = Citation.from_hit(1, inverter)
    second = Citation.from_hit(2, other, source="matched")
    start = inverter.text.index("Restart")
    span = (start, inverter.text.index("hour.") + len("hour."))
    text = "Restart it if the red fault light stays on for an hour [1]. See also [2]."
    one = _answer(text, [first, second], (_sentence(text[:58], 1, span),))
    chat_id, _ = folio.chats.conversations.save(one.record(), None)
    cut = _answer("Batteries store", [Citation.from_hit(1, other)], finish_reason="length", verdict=None)
    folio.chats.conversations.save(replace(cut, question="What do batteries store?").record(), chat_id)

    stored = folio.chats.answers(chat_id)
    assert [len(a.citations) for a in stored] == [2, 1]
    expected = [_cited(c) for a in stored for c in sorted(a.citations, key=lambda c: c.n)]
    markdown, page = folio.chats.export(chat_id, "md"), folio.chats.export(chat_id, "html")
    assert _sources(markdown, MD_SOURCE) == expected
    assert _sources(page, HTML_SOURCE) == expected
    assert expected[0][1:] in [("solar guide.pdf", "p. 2"), ("solar guide.pdf", "pp. 2–3")]
    # the supporting sentence is what the check bound the answer to; the other source an excerpt
    assert "“Restart the inverter if the red fault light stays on for an hour.”" in markdown
    assert "(found by Folio) — excerpt: “" in markdown
    # the question's date (the stored question's) and the model, for each answer
    asked = stored[0].asked_at
    assert asked is not None and f"Asked {asked:%Y-%m-%d %H:%M} UTC" in markdown
    assert markdown.count("model SmolLM2-135M-Instruct.Q4_1.gguf") == 2
    assert "**Verdict:** Answered from your documents · 1 of 1 statements" in markdown
    # the cut-off answer is marked incomplete in both formats; the complete one is not
    assert markdown.count("Cut off: this answer reached the maximum answer length") == 1
    assert page.count('class="incomplete"') == 1
    assert markdown.startswith("# How do I restart the inverter?\n")


def test_a_cancelled_or_cut_off_answer_is_marked_incomplete() -> None:
    citation = Citation(1, 7, "a.pdf", "/a.pdf", 3, 3, 0, 10, "Some text.")
    for reason, words in (("cancelled", "Stopped: this answer was cancelled"), ("length", "Cut off:")):
        answer = _answer("Part of an ans", [citation], finish_reason=reason, verdict=None)
        markdown, page = render_answer(answer, "md"), render_answer(answer, "html")
        assert f"> **{words}" in markdown
        assert words in page and 'class="incomplete"' in page
    complete = render_answer(_answer("A whole answer [1].", [citation]), "md")
    assert "incomplete" not in complete


def test_text_is_escaped_in_html_and_markdown() -> None:
    hostile = '<script>alert("x")</script> & <img src=http://evil/x.png>'
    citation = Citation(1, 7, "<b>notes</b> & co.pdf", "/n.pdf", 1, 2, 0, 10, f"Passage {hostile} text.")
    answer = _answer(
        f"**Bold** claim {hostile} [1].\n\n- a *list* item\n- `code <i>`",
        [citation],
        question=f"Why {hostile}? # not a heading",
    )
    page = render_answer(answer, "html")
    assert "<script" not in page and "<img" not in page and "<b>notes" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "&lt;b&gt;notes&lt;/b&gt; &amp; co.pdf, pp. 1–2" in page
    assert "<strong>Bold</strong>" in page and "<li>a <em>list</em> item</li>" in page
    assert "<code>code &lt;i&gt;</code>" in page
    # self-contained: inline CSS, nothing fetched
    assert "<style>" in page and not re.search(r"<[^>]*\b(?:src|href)=|@import|url\(", page)
    markdown = answer_markdown(answer)
    assert markdown.startswith('## Why \\<script\\>alert("x")\\</script\\>')
    assert "\\# not a heading" in markdown
    assert answer_markdown(replace(answer, question="_why_ a_b")).startswith("## \\_why\\_ a_b\n")
    assert "- [1] \\<b\\>notes\\</b\\> & co.pdf, pp. 1–2" in markdown


def test_a_server_key_never_reaches_an_export() -> None:
    """A key written into the server's address (user:key@host) is left out with the user name."""
    url = "http://folio:sk-live-123@models.lan:8080/v1"
    answer = _answer("Answer [1].", [], model="qwen3-8b", model_path=f"{url} qwen3-8b")
    for fmt in ("md", "html"):
        text = render_chat("a chat", [answer], fmt)
        assert "sk-live-123" not in text and "folio:" not in text
        assert "qwen3-8b (server http://models.lan:8080)" in text


def test_unknown_formats_and_chats_are_refused(folio: Folio) -> None:
    assert check_format("Markdown") == "md" and check_format(".HTML") == "html"
    with pytest.raises(UsageError, match="use one of md, html"):
        check_format("pdf")
    with pytest.raises(UsageError, match="no chat with id 99"):
        folio.chats.export(99, "md")
    chat_id = folio.chats.new("empty")
    assert "This chat has no answers." in folio.chats.export(chat_id, "html")


def test_an_export_in_chinese_names_the_same_pages_in_chinese_words() -> None:
    """The window and the CLI pass their language's translate: the labels, the verdict, the place
    and the incomplete mark come out in Chinese (from the repo's .ts), the answer's words as they are."""
    from app.core.ui_text import catalog

    chinese = catalog("zh_CN")

    def translate(context: str, source: str) -> str:
        return chinese.get((context, source)) or source

    citation = Citation(1, 7, "solar guide.pdf", "/docs/solar guide.pdf", 2, 3, 0, 13, "The inverter.")
    answer = _answer("Restart it [1].", [citation], finish_reason="length", verdict="answered")
    for fmt in ("md", "html"):
        text = render_answer(answer, fmt, translate)
        assert "第 2–3 页" in text and "来源" in text and "结论：" in text and "已截断" in text
        assert "Restart it" in text  # the answer itself is not translated
        for english in ("Sources", "Verdict", "pp. 2", "Cut off", "Answered from your documents"):
            assert english not in text, (fmt, english)
    assert "pp. 2–3" in render_answer(answer, "md")  # without a translate: English, as before
