"""End to end: a real PDF, the real embedder and SmolLM2 answer; `folio export-chat` names the same pages."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import COMMANDS
from app.cli_parser import build_parser
from app.core.answering.types import AskOptions
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.generate.engine import Engine
from app.core.passage import Citation
from app.core.qa import Folio
from app.core.services import build_services
from tests.pdfgen import write_pdf

PAGES = [  # each page longer than a chunk, so the answer's chunk starts on its own page
    ["Solar panels overview."]
    + [f"Panel row {n} faces south at a tilt of {20 + n} degrees." for n in range(24)],
    ["Inverter maintenance."]
    + [f"Inverter log entry {n} reads normal." for n in range(12)]
    + ["Restart the inverter if the red fault light stays on for an hour."]
    + [f"Inverter log entry {n} reads normal." for n in range(12, 24)],
    ["Battery storage."] + [f"Battery module {n} holds five kilowatt hours." for n in range(24)],
]
MD_SOURCE = re.compile(r"^- \[(\d+)\] (.+), (p\. \d+|pp\. \d+–\d+)", re.MULTILINE)
HTML_SOURCE = re.compile(r'<span class="where">\[(\d+)\] (.+?), (p\. \d+|pp\. \d+–\d+)</span>')


@pytest.fixture(scope="module")
def solar_folio(
    tmp_path_factory: pytest.TempPathFactory, embedder: Embedder, chat_engine: Engine
) -> Iterator[Folio]:
    root = tmp_path_factory.mktemp("export")
    settings = Settings(
        n_ctx=chat_engine.n_ctx, n_threads=chat_engine.n_threads, temperature=0.0, max_tokens=64
    )
    folio = build_services(settings, root / "library", embedder=embedder, engine=chat_engine)
    assert not folio.library.ingest([write_pdf(root / "solar-guide.pdf", PAGES)]).failed
    yield folio
    folio.close()


def _place(citation: Citation) -> str:
    if citation.page_end > citation.page:
        return f"pp. {citation.page}–{citation.page_end}"
    return f"p. {citation.page}"


def _export(folio: Folio, *argv: str) -> tuple[int, str]:
    args = build_parser().parse_args(["export-chat", *argv])
    out = io.StringIO()
    return COMMANDS["export-chat"](args, folio, out), out.getvalue()


def test_the_exported_chat_cites_the_pages_the_stored_answers_cite(
    solar_folio: Folio, tmp_path: Path
) -> None:
    first = solar_folio.answering.ask(
        "When should I restart the inverter?", AskOptions(temperature=0.0, max_tokens=64)
    )
    assert first.chat_id is not None
    cut = solar_folio.answering.ask(
        "How much energy does a battery module hold?", AskOptions(max_tokens=4), first.chat_id
    )
    assert cut.finish_reason == "length"
    stored = solar_folio.chats.answers(first.chat_id)
    assert len(stored) == 2 and stored[0].citations, first.to_json()
    expected = [
        (str(c.n), c.document, _place(c)) for a in stored for c in sorted(a.citations, key=lambda c: c.n)
    ]

    code, markdown = _export(solar_folio, str(first.chat_id))
    assert code == 0
    assert MD_SOURCE.findall(markdown) == expected
    # every answer that hit the length limit (the second one at least) is marked so, no other
    cut_off = sum(1 for a in stored if a.finish_reason == "length")
    assert cut_off >= 1 and stored[1].finish_reason == "length"
    assert markdown.count("Cut off: this answer reached the maximum answer length") == cut_off
    assert markdown.count("incomplete.") == sum(1 for a in stored if not a.complete)
    assert "model SmolLM2-135M-Instruct.Q4_1.gguf" in markdown

    out = tmp_path / "chat.html"
    code, printed = _export(solar_folio, str(first.chat_id), "--format", "html", "--out", str(out), "--json")
    assert code == 0 and json.loads(printed) == {"chat_id": first.chat_id, "format": "html", "path": str(out)}
    page = out.read_text(encoding="utf-8")
    assert [(n, html.unescape(d), p) for n, d, p in HTML_SOURCE.findall(page)] == expected
    assert page.count('class="incomplete"') == sum(1 for a in stored if not a.complete)


def test_exporting_a_missing_chat_is_a_usage_error(solar_folio: Folio, tmp_path: Path) -> None:
    from app.cli import run_in_process

    library = str(solar_folio.library_dir)
    assert run_in_process(["export-chat", "4040", "--library", library, "--no-server"], solar_folio) == 2
    target = tmp_path / "missing-folder" / "chat.md"
    chat = str(solar_folio.chats.new("empty"))
    code = run_in_process(["export-chat", chat, "--out", str(target), "--library", library], solar_folio)
    assert code == 1 and not target.exists()
