"""Whole-document and across-files answers end to end: real PDFs, the real embedder, the real SmolLM2;
steps as Progress events, page-exact citations, the sentence check, Stop, the scope options."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import build_parser
from app.cli_ask import run_ask
from app.core.answering import whole_plan
from app.core.answering.types import Answer, AnswerEvent, AskOptions, Delta, Finished, Progress, Retrieved
from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.errors import UsageError
from app.core.generate.engine import Engine
from app.core.qa import Folio, build_services
from tests.core.conftest_answer import TEST_CTX, TEST_THREADS
from tests.pdfgen import write_pdf

HANDBOOK = [
    ["The harbour of Brest was rebuilt in 1952 after the war.", "Its new quays hold twelve cranes."],
    ["The lighthouse on the point was lit in 1961.", "Its lamp is seen from forty kilometres."],
    ["The fish market opens at five in the morning.", "Sardines and tuna are sold there every day."],
    ["The ferry to the islands leaves twice a day in summer.", "In winter it sails only on Sundays."],
    ["The naval school trains four hundred cadets a year.", "Its library holds old maps of the coast."],
    ["The tram line opened in 2012 and crosses the river.", "A cable car links both banks since 2016."],
]


@pytest.fixture
def whole_folio(
    tmp_path: Path, embedder: Embedder, chat_engine: Engine, smollm_path: Path
) -> Iterator[Folio]:
    settings = Settings(model_path=str(smollm_path), n_ctx=TEST_CTX, n_threads=TEST_THREADS, temperature=0.0)
    folio = build_services(settings, tmp_path / "library", embedder=embedder, engine=chat_engine)
    files = tmp_path / "files"
    files.mkdir()
    write_pdf(files / "brest.pdf", HANDBOOK)
    write_pdf(files / "trains.pdf", [["The night train to Paris leaves at ten.", "It has sleeping cars."]])
    write_pdf(
        files / "ferries.pdf", [["The ferry company runs six ships.", "Its ferry to Ushant takes an hour."]]
    )
    report = folio.ingest([files])
    assert not report.failed
    yield folio
    folio.close()


def events_of(folio: Folio, question: str, options: AskOptions | None = None) -> list[AnswerEvent]:
    return list(folio.ask_stream(question, options))


def finished(events: list[AnswerEvent]) -> Answer:
    last = events[-1]
    assert isinstance(last, Finished)
    return last.answer


def page_text(page: int) -> str:
    return " ".join(HANDBOOK[page - 1])


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
    for citation in answer.citations:  # each names the page its passage is on
        assert citation.document == "brest.pdf"
        assert (
            HANDBOOK[citation.page - 1][0] in citation.text or page_text(citation.page)[:30] in citation.text
        )
    assert answer.sentences and answer.verdict is not None  # checked against the passages used
    saved = whole_folio.chat(answer.chat_id or 0)[-1]
    assert saved.answer == answer.answer and [c.page for c in saved.citations] == [
        c.page for c in answer.citations
    ]


def test_stop_during_a_step_marks_the_summary_cancelled(
    whole_folio: Folio, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(whole_plan, "WINDOW_TOKENS", 330)
    cancel = CancelToken()
    events: list[AnswerEvent] = []
    for event in whole_folio.ask_stream("Summarise brest.pdf", AskOptions(), None, cancel):
        events.append(event)
        if isinstance(event, Progress) and event.step == 2:
            cancel.cancel()  # the second step's model call starts cancelled: it stops at once
    answer = finished(events)
    assert answer.finish_reason == "cancelled" and not answer.complete
    assert max(e.step for e in events if isinstance(e, Progress)) == 2
    assert whole_folio.chat(answer.chat_id or 0)[-1].finish_reason == "cancelled"


def test_each_file_gets_one_point_from_its_best_passage(whole_folio: Folio) -> None:
    events = events_of(whole_folio, "What does each file say about the ferry?")
    answer = finished(events)
    steps = [e for e in events if isinstance(e, Progress)]
    assert answer.finish_reason == "stop"
    assert {s.document for s in steps} <= {"brest.pdf", "ferries.pdf", "trains.pdf"}
    assert "ferries.pdf" in {s.document for s in steps} and "brest.pdf" in {s.document for s in steps}
    lines = answer.answer.splitlines()
    for name in ("brest.pdf", "ferries.pdf", "trains.pdf"):
        assert sum(line.startswith(f"- {name}:") for line in lines) == 1, answer.answer
    assert "does not mention" in next(line for line in lines if line.startswith("- trains.pdf"))
    assert {hit.document for hit in answer.passages} == {s.document for s in steps}
    brest = next(hit for hit in answer.passages if hit.document == "brest.pdf")
    assert brest.page == 4  # the page about the ferry
    for citation in answer.citations:
        assert citation.document in ("brest.pdf", "ferries.pdf")
        assert "ferry" in citation.text.lower()


def test_the_scope_can_be_chosen_and_bad_choices_say_why(whole_folio: Folio) -> None:
    answer = finished(events_of(whole_folio, "Tell me the gist", AskOptions(scope="document:trains.pdf")))
    assert {hit.document for hit in answer.passages} == {"trains.pdf"}
    plain = events_of(whole_folio, "Summarise brest.pdf", AskOptions(scope="passages"))
    assert not any(isinstance(e, Progress) for e in plain)  # the usual path, though the words ask for all
    with pytest.raises(UsageError, match=r"no document 'missing\.pdf'"):
        whole_folio.ask_stream("Summarise it", AskOptions(scope="document:missing.pdf"))
    with pytest.raises(UsageError, match="unknown scope"):
        whole_folio.ask_stream("Summarise it", AskOptions(scope="whole"))


def test_the_cli_takes_a_scope_and_prints_the_steps(
    whole_folio: Folio, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["ask", "Tell me about the ferry", "--scope", "each-file"])
    code = run_ask(args, whole_folio, out)
    err = capsys.readouterr().err
    assert code == 0, err
    assert "step 1 of 3: reading" in err and "of ferries.pdf" in err
    assert "- trains.pdf: the document does not mention" in out.getvalue()
    args = build_parser().parse_args(["ask", "Summarise it", "--scope", "document:nowhere.pdf"])
    assert run_ask(args, whole_folio, io.StringIO()) == 2
    assert "no document 'nowhere.pdf'" in capsys.readouterr().err
