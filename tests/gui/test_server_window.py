"""The window answering through a real llama-cpp-python server on 127.0.0.1: streamed with its
readout, checked and cited like a local answer, and stopped mid-stream."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.config import Settings
from app.gui.answer_state import DONE, AnswerState
from app.gui.app_controller import ServicesFactory
from app.gui.main_window import MainWindow
from tests.gui.conftest import WindowFactory
from tests.gui.dragdrop import drop_files
from tests.gui.waiting import wait_for, wait_model
from tests.integration.llama_server import MODEL_NAME, LlamaServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(smollm_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    running = LlamaServer(smollm_path, tmp_path_factory.mktemp("server") / "server.log", 4096).start()
    yield running
    running.stop()


@pytest.fixture
def server_factory(shared_embedder: object) -> ServicesFactory:
    """The real composition root with the real embedder; the engine comes from the settings (a server)."""
    from app.core.qa import Folio
    from app.core.services import build_services

    def factory(settings: Settings, library_dir: Path) -> Folio:
        return build_services(settings, library_dir, embedder=shared_embedder)  # type: ignore[arg-type]

    return factory


def _window(
    qtbot: QtBot, make_window: WindowFactory, factory: ServicesFactory, url: str, **changes: object
) -> MainWindow:
    settings = Settings(server_url=url, server_model=MODEL_NAME, n_ctx=4096, **changes)  # type: ignore[arg-type]
    window = make_window(factory, settings)
    wait_model(qtbot, window, timeout=60_000)
    return window


def _ingest(qtbot: QtBot, window: MainWindow, path: Path) -> None:
    with qtbot.waitSignal(window.ingest.batch_finished, timeout=60_000):
        assert drop_files(window, [path])


def _done(qtbot: QtBot, window: MainWindow, state: AnswerState | None) -> AnswerState:
    assert state is not None
    wait_for(qtbot, state.finished, lambda: state.phase == DONE and not window.chat.busy, 180_000)
    return state


def test_a_question_in_the_window_is_answered_through_the_server_checked_and_cited(
    qtbot: QtBot,
    make_window: WindowFactory,
    server_factory: ServicesFactory,
    server: LlamaServer,
    solar_pdf: Path,
) -> None:
    window = _window(qtbot, make_window, server_factory, server.url)
    info = window.app.model_info
    assert info is not None and info.server == server.url and info.name == MODEL_NAME
    _ingest(qtbot, window, solar_pdf)
    # the guide answers it, and with no figure: a figure the small model makes up for a question that
    # asks for one ("how often…?" here gave "every 24 hours") is withdrawn, with no sentence to check
    state = window.chat.ask("What should I do if the red fault light stays on?")
    assert state is not None
    streamed: list[str] = []
    state.text_flushed.connect(lambda _thinking, answer: streamed.append(answer))
    _done(qtbot, window, state)
    assert streamed and "".join(streamed).strip()  # it streamed in pieces, as a local answer does
    assert state.finish_reason in ("stop", "length")
    final = state.final
    assert final is not None and final.answer.strip()
    assert final.sentences and final.verdict is not None  # every sentence checked, one verdict
    assert final.metrics.counts_from == "counted"  # llama-cpp-python streams no usage: counted here
    view = window.transcript.answer_views[-1]
    readout = view.readout.text()
    assert "TTFT" in readout and "tok/s" in readout and "tokens counted as streamed" in readout
    if final.citations:  # the model cites when it can; a citation opens the cited page
        assert all(c.document == "solar-guide.pdf" for c in final.citations)


def test_stop_in_the_window_closes_the_servers_stream(
    qtbot: QtBot,
    make_window: WindowFactory,
    server_factory: ServicesFactory,
    server: LlamaServer,
    solar_pdf: Path,
) -> None:
    window = _window(qtbot, make_window, server_factory, server.url, max_tokens=1500, temperature=0.8)
    _ingest(qtbot, window, solar_pdf)
    state = window.chat.ask("Write a very long essay about batteries and inverters.")
    assert state is not None
    wait_for(qtbot, state.figures_changed, lambda: state.answer_tokens >= 3, 120_000)
    window.question.send.click()  # reads Stop while generating
    _done(qtbot, window, state)
    assert state.finish_reason == "cancelled"
    assert "stopped" in window.transcript.answer_views[-1].readout.text()
    assert state.final is not None and not state.final.complete
    # the server is free again: the next question is answered
    again = window.chat.ask("How often should I check the inverter display?")
    _done(qtbot, window, again)
    assert again is not None and again.finish_reason in ("stop", "length")
