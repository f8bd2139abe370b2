"""Whole-document and across-files answers end to end: real PDFs, the real embedder, the real SmolLM2;
steps as Progress events, page-exact citations, the sentence check, Stop, the scope options."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli_ask import run_ask
from app.cli_parser import build_parser
from app.core.answering.types import Answer, AnswerEvent, AskOptions, Delta, Finished, Progress, Retrieved
from app.core.answering.whole import whole_plan
from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.errors import UsageError
from app.core.generate.engine import Engine
from app.core.qa import Folio
from app.core.services import build_services
from tests.core.conftest_answer import TEST_CTX, TEST_THREADS
from tests.pdfgen import write_pdf

FACTS = [
    (
        "harbour",
        "The harbour of Brest was rebuilt in 1952 after the war.",
        "Its new quays hold twelve cranes.",
    ),
    ("lighthouse", "The lighthouse on the point was lit in 1961.", "Its lamp is seen from forty kilometres."),
    (
        "market",
        "The fish market opens at five in the morning.",
        "Sardines and tuna are sold there every day.",
    ),
    (
        "ferry",
        "The ferry to the islands leaves twice a day in summer.",
        "In winter it sails only on Sundays.",
    ),
    (
        "school",
        "The naval school trains four hundred cadets a year.",
        "Its library holds old maps of the coast.",
    ),
    (
        "tram",
        "The tram line opened in 2012 and crosses the river.",
        "A cable car links both banks since 2016.",
    ),
]
# six pages of about 200 tokens, one subject each: the chunks follow the pages
HANDBOOK = [
    [first, second, *(f"Note {k} on the {subject} of Brest: {first.lower()}" for k in range(1, 7))]
    for subject, first, second in FACTS
]


def pages_in(text: str) -> set[int]:
    """The handbook pages whose lines the text holds."""
    return {page for page, lines in enumerate(HANDBOOK, start=1) if any(line in text for line in lines)}


@pytest.fixture
def whole_folio(
    tmp_path: Path, embedder: Embedder, chat_engine: Engine, smollm_path: Path
) -> Iterator[Folio]:
    settings = Settings(model_path=str(smollm_path), n_ctx=TEST_CTX, n_threads=TEST_THREADS, temperature=0.0)
    folio = build_services(settings, tmp_path / "library", embedder=embedder, engine=chat_engine)
    files = tmp_path / "files"
    files.mkdir()
    write_pdf(files / "brest.pdf", HANDBOOK)
    write_pdf(files / "bakery.pdf", [["The bakery sells rye bread and almond cakes.", "It opens at seven."]])
    write_pdf(
        files / "ferries.pdf", [["The ferry company runs six ships.", "Its ferry to Ushant takes an hour."]]
    )
    report = folio.library.ingest([files])
    assert not report.failed
    yield folio
    folio.close()


def events_of(folio: Folio, question: str, options: AskOptions | None = None) -> list[AnswerEvent]:
    return list(folio.answering.ask_stream(question, options))


def finished(events: list[AnswerEvent]) -> Answer:
    last = events[-1]
    assert isinstance(last, Finished)
    return last.answer


def test_a_summary_maps_the_pages_in_steps_and_cites_real_pages(
    whole_folio: Folio, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(whole_plan, "WINDOW_TOKENS", 330)  # a six-page PDF in several steps
    events = events_of(whole_folio, "Summarise brest.pdf")
    assert isinstance(events[0], Retrieved)
    steps = [e for e in events if isinstance(e, Progress)]
    answer = finished(events)
    assert len(steps) >= 2 and [s.step for s in steps] == list(range(1, len(steps) + 1))
    assert all(s.steps == len(steps) and s.document == "brest.pdf" and s.pages == 6 for s in steps)
    assert steps[0].first_page == 1 and steps[-1].last_page == 6
    assert [s.first_page for s in steps] == sorted(s.first_page for s in steps)
    assert answer.finish_reason == "stop" and answer.message_id is not None
    streamed = "".join(e.text for e in events if isinstance(e, Delta))
    assert answer.answer.startswith(streamed.rstrip()) and streamed.startswith("- ")
    pages = [hit.page for hit in answer.passages]
    assert pages == sorted(pages) and {hit.document for hit in answer.passages} == {"brest.pdf"}
    assert answer.citations, answer.answer
    for citation in answer.citations:  # each names the pages its passage is on, and no other
        assert citation.document == "brest.pdf"
        assert citation.page in pages_in(citation.text) <= set(range(citation.page, citation.page_end + 1))
    assert answer.sentences and answer.verdict is not None  # checked against the passages used
    saved = whole_folio.chats.answers(answer.chat_id or 0)[-1]
    assert saved.answer == answer.answer and [c.page for c in saved.citations] == [
        c.page for c in answer.citations
    ]


def test_stop_during_a_step_marks_the_summary_cancelled(
    whole_folio: Folio, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(whole_plan, "WINDOW_TOKENS", 330)
    cancel = CancelToken()
    events: list[AnswerEvent] = []
    for event in whole_folio.answering.ask_stream("Summarise brest.pdf", AskOptions(), None, cancel):
        events.append(event)
        if isinstance(event, Progress) and event.step == 2:
            cancel.cancel()  # the second step's model call starts cancelled: it stops at once
    answer = finished(events)
    assert answer.finish_reason == "cancelled" and not answer.complete
    assert max(e.step for e in events if isinstance(e, Progress)) == 2
    assert whole_folio.chats.answers(answer.chat_id or 0)[-1].finish_reason == "cancelled"


def test_each_file_gets_one_point_from_its_best_passage(whole_folio: Folio) -> None:
    events = events_of(whole_folio, "What does each file say about the ferry?")
    answer = finished(events)
    steps = [e for e in events if isinstance(e, Progress)]
    assert answer.finish_reason == "stop"
    assert [s.document for s in steps] == ["brest.pdf", "ferries.pdf"]  # bakery.pdf: the gate said no
    lines = answer.answer.splitlines()
    assert [line.split(":")[0] for line in lines] == ["- bakery.pdf", "- brest.pdf", "- ferries.pdf"]
    assert lines[0] == "- bakery.pdf: the document does not mention the ferry."
    assert "ferry" in lines[1].lower() and "ferry" in lines[2].lower()
    assert {hit.document for hit in answer.passages} == {"brest.pdf", "ferries.pdf"}
    brest = next(hit for hit in answer.passages if hit.document == "brest.pdf")
    assert brest.page <= 4 <= brest.page_end and 4 in pages_in(brest.text)  # the page about the ferry
    assert sorted(c.document for c in answer.citations) == ["brest.pdf", "ferries.pdf"]
    assert answer.verdict == "answered"  # each point is the passage's own sentence, about the ferry


def test_the_scope_can_be_chosen_and_bad_choices_say_why(whole_folio: Folio) -> None:
    answer = finished(events_of(whole_folio, "Tell me the gist", AskOptions(scope="document:bakery.pdf")))
    assert {hit.document for hit in answer.passages} == {"bakery.pdf"}
    plain = events_of(whole_folio, "Summarise brest.pdf", AskOptions(scope="passages"))
    assert not any(isinstance(e, Progress) for e in plain)  # the usual path, though the words ask for all
    with pytest.raises(UsageError, match=r"no document 'missing\.pdf'"):
        whole_folio.answering.ask_stream("Summarise it", AskOptions(scope="document:missing.pdf"))
    with pytest.raises(UsageError, match="unknown scope"):
        whole_folio.answering.ask_stream("Summarise it", AskOptions(scope="whole"))


def test_the_cli_takes_a_scope_and_prints_the_steps(
    whole_folio: Folio, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["ask", "Tell me about the ferry", "--scope", "each-file"])
    code = run_ask(args, whole_folio, out)
    err = capsys.readouterr().err
    assert code == 0, err
    assert "step 2 of 3: reading" in err and "of brest.pdf" in err and "of ferries.pdf" in err
    assert "- bakery.pdf: the document does not mention the ferry" in out.getvalue()
    args = build_parser().parse_args(["ask", "Summarise it", "--scope", "document:nowhere.pdf"])
    assert run_ask(args, whole_folio, io.StringIO()) == 2
    assert "no document 'nowhere.pdf'" in capsys.readouterr().err
