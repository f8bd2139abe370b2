"""The real app end to end: real library in tmp_path, real embedder, real SmolLM2, real PDFs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.config import Settings
from app.core.passage import Citation
from app.gui.answer_state import DONE, AnswerState
from app.gui.app_controller import ServicesFactory
from app.gui.main_window import MainWindow
from tests.gui.conftest import WindowFactory
from tests.gui.dragdrop import drop_files
from tests.gui.fakes import fake_answer
from tests.gui.heartbeat import Heartbeat
from tests.gui.threads_seen import off_the_gui_thread, threads_calling
from tests.gui.waiting import wait_for, wait_model

pytestmark = pytest.mark.slow
# The GUI thread never does the work: the facade is called on a worker, and its progress reaches
# the window while it runs. The stall figures (the 10 ms heartbeat's worst gap) are measured by
# benchmarks/bench_gui.py and printed here, never asserted: a count of beats is a wall-clock test.


def ingest(qtbot: QtBot, window: MainWindow, paths: list[Path]) -> object:
    with qtbot.waitSignal(window.ingest.batch_finished, timeout=60_000) as blocker:
        assert drop_files(window, paths)
    return blocker.args[0]


def wait_answer(qtbot: QtBot, window: MainWindow, state: AnswerState | None) -> AnswerState:
    assert state is not None
    wait_for(qtbot, state.finished, lambda: state.phase == DONE and not window.chat.busy, 180_000)
    return state


def record_gap(name: str, gap_ms: float) -> None:
    """Heartbeat figures for the report (not asserted beyond a generous bound)."""
    print(f"worst heartbeat gap during {name}: {gap_ms:.1f} ms")


def test_dropped_pdfs_are_ingested_and_listed(
    qtbot: QtBot,
    make_window: WindowFactory,
    real_factory: ServicesFactory,
    solar_pdf: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = make_window(real_factory)
    assert window.app.folio is not None
    ingesting = threads_calling(monkeypatch, window.app.folio.library, "ingest")
    notes = tmp_path / "docs" / "notes.txt"
    notes.write_text("Garden notes. Water the tomatoes every second day in summer.", encoding="utf-8")
    heartbeat = Heartbeat()
    heartbeat.start()
    progress: list[object] = []
    window.ingest.file_progress.connect(progress.append)
    report = ingest(qtbot, window, [solar_pdf.parent])  # a whole folder
    heartbeat.stop()
    assert sorted(f.status for f in report.files) == ["added", "added"]  # type: ignore[attr-defined]
    wait_for(qtbot, window.app.documents_changed, lambda: window.library.model.rowCount() == 2, 10_000)
    rows = {window.library.model.data(window.library.model.index(r, 0)): r for r in range(2)}
    pdf_row = rows["solar-guide.pdf"]
    assert window.library.model.data(window.library.model.index(pdf_row, 1)) == 3
    assert window.library.model.data(window.library.model.index(pdf_row, 3)) == "indexed"
    assert any(getattr(p, "stage", "") == "parsing" for p in progress)
    assert not window.ingest_panel.isVisible()
    record_gap("ingestion", heartbeat.worst_gap_ms)
    assert off_the_gui_thread(ingesting)

    messages: list[str] = []
    window.ingest.message.connect(messages.append)
    again = ingest(qtbot, window, [solar_pdf])
    assert [f.status for f in again.files] == ["unchanged"]  # type: ignore[attr-defined]
    assert messages and "already indexed: solar-guide.pdf" in messages[-1]


def test_asking_streams_the_answer_with_a_live_readout_and_persists_the_chat(
    qtbot: QtBot,
    make_window: WindowFactory,
    real_factory: ServicesFactory,
    solar_pdf: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = make_window(real_factory)
    assert window.app.folio is not None
    asking = threads_calling(monkeypatch, window.app.folio.answering, "ask_stream")
    wait_model(qtbot, window, timeout=60_000)
    ingest(qtbot, window, [solar_pdf])
    assert not window.question.thinking.isEnabled()  # SmolLM2's template has no thinking switch
    assert window.question.thinking.toolTip()
    heartbeat = Heartbeat()
    heartbeat.start()
    window.question.edit.setPlainText("How often should I check the inverter display?")
    qtbot.keyClick(window.question.edit, Qt.Key.Key_Return)
    state = window.chat.active
    assert state is not None
    flushed: list[str] = []
    readouts: list[str] = []
    state.text_flushed.connect(lambda _thinking, answer: flushed.append(answer))
    state.figures_changed.connect(lambda: readouts.append(window.transcript.answer_views[-1].readout.text()))
    wait_answer(qtbot, window, state)
    heartbeat.stop()
    assert flushed and "".join(flushed).strip()  # text arrived while streaming, in batches
    assert any(r.startswith("TTFT") and "tok/s" in r for r in readouts)
    view = window.transcript.answer_views[-1]
    assert view.body.toPlainText().strip()
    assert state.finish_reason in ("stop", "length")
    assert "TTFT" in view.readout.text() and "prefill" in view.breakdown.text()
    assert state.budget.get("passages_tokens", 0) > 0 and view.budget_link.isVisibleTo(window)
    record_gap("generation", heartbeat.worst_gap_ms)
    assert off_the_gui_thread(asking)

    # chats persist: start a new chat, then reopen the old one with its sources and metrics
    chat_id = window.chat.chat_id
    assert chat_id is not None
    answer_text = view.body.toPlainText().strip()
    window.chat.new_chat()
    assert window.transcript.answer_views == []
    wait_for(qtbot, window.chat.chats_changed, lambda: window.chats.list.count() >= 1, 10_000)
    window.chat.open_chat(chat_id)
    wait_for(qtbot, window.chat.answer_started, lambda: len(window.transcript.answer_views) == 1, 10_000)
    reopened = window.transcript.answer_views[0]
    assert reopened.body.toPlainText().strip() == answer_text
    assert "TTFT" in reopened.readout.text()


def test_stop_and_close_during_generation(
    qtbot: QtBot, make_window: WindowFactory, real_factory: ServicesFactory, solar_pdf: Path
) -> None:
    settings = Settings(max_tokens=1500, temperature=0.8)
    window = make_window(real_factory, settings)
    wait_model(qtbot, window, timeout=60_000)
    ingest(qtbot, window, [solar_pdf])
    with qtbot.assertNotEmitted(window.app.reporter.shown):
        state = window.chat.ask("Write a very long essay about batteries and inverters.")
        assert state is not None
        wait_for(qtbot, state.figures_changed, lambda: state.answer_tokens >= 3, 120_000)
        window.question.send.click()  # reads Stop while generating
        wait_answer(qtbot, window, state)
    assert state.finish_reason == "cancelled"
    assert "stopped" in window.transcript.answer_views[-1].readout.text()

    second = window.chat.ask("Tell me everything about solar panels.")
    assert second is not None
    wait_for(qtbot, second.figures_changed, lambda: second.answer_tokens >= 2, 120_000)
    folio = window.app.folio
    window.close()  # cancels generation, joins the workers, closes the library
    assert not window.app.runner.accepting and window.app.folio is None
    assert folio is not None


def test_clicking_a_source_opens_the_viewer_at_the_cited_page(
    qtbot: QtBot, make_window: WindowFactory, real_factory: ServicesFactory, solar_pdf: Path
) -> None:
    window = make_window(real_factory)
    ingest(qtbot, window, [solar_pdf])
    folio = window.app.folio
    assert folio is not None
    hits = folio.library.search("restart the inverter when the red fault light stays on", 6).hits
    hit = next(h for h in hits if "red fault light" in h.text)
    assert hit.page == 2
    answer = fake_answer(
        "Restart it when the red light stays on for an hour [1] [9].",
        "stop",
        citations=[Citation.from_hit(1, hit)],
    )
    state = AnswerState("When do I restart the inverter?", False)
    state.finish(replace(answer, invalid_citations=[9]))
    window.transcript.add_answer(state)
    view = window.transcript.answer_views[-1]
    assert "solar-guide.pdf, p. 2" in view.sources.text()
    assert "not one of the passages" in view.sources.text()
    view.sources.linkActivated.emit("source:1")  # the page's stored text is read on a worker first
    qtbot.waitUntil(lambda: window.viewer is not None and window.viewer.isVisible(), timeout=10_000)
    viewer = window.viewer
    assert viewer is not None and viewer.isVisible()
    assert viewer.view.isVisible()
    qtbot.waitUntil(lambda: viewer.highlighted and viewer.current_page() == 1, timeout=10_000)
    assert viewer.view.currentSearchResultIndex() >= 0
    selected = viewer.selected_text()
    assert selected and selected.split()[0] in " ".join(hit.text.split())
    assert viewer.current_page() == 1

    # a non-PDF source shows the passage text instead
    view.citation_activated.emit(
        Citation(2, 99, "notes.txt", "/nope/notes.txt", 1, 1, 0, 19, "Water the tomatoes."), ""
    )
    qtbot.waitUntil(lambda: viewer.passage.toPlainText() == "Water the tomatoes.", timeout=10_000)
    assert not viewer.view.isVisible()


def test_closing_during_ingestion_cancels_cleanly(
    qtbot: QtBot, make_window: WindowFactory, real_factory: ServicesFactory, tmp_path: Path
) -> None:
    from tests.gui.conftest import SOLAR_PAGES, make_pdf

    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(6):
        make_pdf(folder / f"report-{n}.pdf", SOLAR_PAGES * 3)
    window = make_window(real_factory)
    started: list[object] = []
    window.ingest.file_progress.connect(started.append)
    assert drop_files(window, [folder])
    wait_for(qtbot, window.ingest.file_progress, lambda: bool(started), 60_000)
    with qtbot.assertNotEmitted(window.app.reporter.shown):
        window.close()
    assert not window.app.runner.accepting and window.app.folio is None


def test_thinking_streams_into_a_collapsed_section(
    qtbot: QtBot, make_window: WindowFactory, shared_embedder: object, tmp_path: Path, solar_pdf: Path
) -> None:
    """A Qwen3-style template (the SmolLM2 weights with a thinking switch) enables the switch."""
    from app.core import paths
    from app.core.generate.engine import Engine
    from app.core.qa import Folio
    from app.core.services import build_services
    from tests.core.conftest_answer import make_thinking_gguf

    model = make_thinking_gguf(paths.fast_chat_model(), tmp_path / "thinking.gguf")
    engine = Engine(model, n_ctx=4096, n_threads=2)

    def factory(settings: Settings, library_dir: Path) -> Folio:
        return build_services(settings, library_dir, embedder=shared_embedder, engine=engine)  # type: ignore[arg-type]

    window = make_window(factory, Settings(max_tokens=48))
    wait_model(qtbot, window, timeout=60_000)
    assert window.question.thinking.isEnabled()
    ingest(qtbot, window, [solar_pdf])
    window.question.thinking.setChecked(True)
    window.question.edit.setPlainText("When should the inverter be restarted?")
    qtbot.keyClick(window.question.edit, Qt.Key.Key_Return)
    state = wait_answer(qtbot, window, window.chat.active)
    view = window.transcript.answer_views[-1]
    assert state.thinking_requested and state.thinking_tokens > 0
    assert view.thinking_toggle.isVisibleTo(window) and not view.thinking_text.isVisibleTo(
        window
    )  # collapsed
    assert view.thinking_text.toPlainText().strip()
    assert view.thinking_toggle.text().startswith(("Thought for", "Thinking"))
    view.thinking_toggle.click()
    assert view.thinking_text.isVisibleTo(window)
    window.close()
    engine.close()
