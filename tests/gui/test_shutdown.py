"""Closing the window during ingestion, generation or model loading exits within 3 s."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.gui.app_controller import ServicesFactory
from app.gui.main_window import MainWindow
from app.gui.tasks import join_stragglers
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_factory
from tests.gui.waiting import wait_for, wait_model
from tests.pdfgen import write_pdf
from tests.reliability.campaign import record, topic_page

# The runner joins each worker within its own budget (app/gui/tasks.py) and lists the ones it left
# behind as `stuck`: that, not the wall clock, shows that closing never waited on the work. The
# seconds are recorded for the reliability report (tests/reliability/campaign.py), not asserted.


def _close_timed(window: MainWindow) -> float:
    started = time.monotonic()
    window.close()
    return time.monotonic() - started


def test_close_during_ingestion(
    qtbot: QtBot, make_window: WindowFactory, real_factory: ServicesFactory, tmp_path: Path
) -> None:
    window = make_window(real_factory)
    wait_for(qtbot, window.app.embedder_warm, lambda: window.app.embedder_ready, 120_000)
    long_pdf = write_pdf(tmp_path / "long.pdf", [topic_page("meteor", 1, p) for p in range(1, 400)])
    window.ingest.add([long_pdf])
    ingest = window.ingest
    wait_for(qtbot, ingest.busy_changed, lambda: ingest.current is not None and ingest.busy, 30_000)
    qtbot.wait(1500)  # well into reading and embedding
    seconds = _close_timed(window)
    record("shutdown_during_ingestion_s", round(seconds, 2))
    assert not window.app.runner.accepting and window.app.runner.stuck == []


def test_close_during_generation(qtbot: QtBot, make_window: WindowFactory) -> None:
    answerer = FakeAnswerer(["word "] * 100_000, pause_s=0.001)
    window = make_window(fake_factory(answerer))
    wait_model(qtbot, window)
    window.chat.ask("a long one")
    qtbot.waitUntil(lambda: answerer.started.is_set(), timeout=10_000)
    seconds = _close_timed(window)
    record("shutdown_during_generation_s", round(seconds, 2))
    assert not window.app.runner.accepting and window.app.runner.stuck == []


class _SlowLoad(FakeAnswerer):
    """A model load that cannot be interrupted (llama.cpp reading a big file)."""

    loading = threading.Event()

    def load_model(self):  # type: ignore[no-untyped-def]
        self.loading.set()
        time.sleep(8)
        return super().load_model()


def test_close_during_model_loading(qtbot: QtBot, make_window: WindowFactory) -> None:
    answerer = _SlowLoad(["ok"])
    window = make_window(fake_factory(answerer))
    qtbot.waitUntil(answerer.loading.is_set, timeout=30_000)
    seconds = _close_timed(window)
    record("shutdown_during_model_loading_s", round(seconds, 2))
    # closing did not wait for the 8 s load: its worker is still running, left to the process exit
    assert not window.app.runner.accepting
    assert window.app.runner.stuck == ["folio-model"], "the load is left to the process exit"
    assert join_stragglers(30)  # this test process goes on: let the load end
