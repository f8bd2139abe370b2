"""Start-up with damaged files: the app starts, says what is wrong, offers the fix, deletes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core import paths
from app.core.config import Settings
from app.core.index.vector_index import INDEX_FILE
from app.core.services import build_services
from app.core.store.database import STORE_FILE
from app.gui.app import create_window
from app.gui.app_controller import ServicesFactory, default_factory
from app.gui.main_window import MainWindow
from app.gui.startup_problems import StartupProblemBox
from tests.gui.waiting import wait_for
from tests.pdfgen import write_pdf


def _window(
    qtbot: QtBot, tmp_path: Path, factory: ServicesFactory, settings: Settings | None = None
) -> MainWindow:
    window = create_window(
        settings or Settings(), tmp_path / "library", factory, tmp_path / "config" / "settings.json"
    )
    qtbot.addWidget(window)
    window.show()
    return window


def _box(qtbot: QtBot, window: MainWindow, kind: str) -> StartupProblemBox:
    wait_for(
        qtbot,
        window.app.startup_problem,
        lambda: any(b.kind == kind for b in window.findChildren(StartupProblemBox)),
        120_000,
    )
    return next(b for b in window.findChildren(StartupProblemBox) if b.kind == kind)


def test_a_corrupt_library_is_kept_and_another_can_be_opened(
    qtbot: QtBot, tmp_path: Path, real_factory: ServicesFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "library" / STORE_FILE
    store.parent.mkdir(parents=True)
    damaged = b"this is not a database, it was damaged " * 200
    store.write_bytes(damaged)
    window = _window(qtbot, tmp_path, real_factory)
    window.app.start()
    box = _box(qtbot, window, "library")
    assert STORE_FILE in box.text() and box.fix_button is not None
    assert store.read_bytes() == damaged, "the user's database is never deleted or rewritten"
    other = tmp_path / "other-library"
    monkeypatch.setattr(
        "app.gui.startup_problems.QFileDialog.getExistingDirectory", lambda *a, **k: str(other)
    )
    with qtbot.waitSignal(window.app.services_ready, timeout=60_000):
        box.fix_button.click()
    assert window.app.folio is not None and window.app.folio.library_dir == other
    window.close()


def test_a_corrupt_or_missing_index_is_rebuilt_and_said(
    qtbot: QtBot, tmp_path: Path, real_factory: ServicesFactory, shared_embedder: object
) -> None:
    library = tmp_path / "library"
    folio = build_services(Settings(), library, embedder=shared_embedder)  # type: ignore[arg-type]
    folio.library.ingest([write_pdf(tmp_path / "owls.pdf", [["Owls hunt at night in the forest."]])])
    folio.close()
    (library / INDEX_FILE).write_bytes(b"garbage" * 100)
    window = _window(qtbot, tmp_path, real_factory)
    window.app.start()
    box = _box(qtbot, window, "index")
    assert "rebuilt" in box.text()
    assert window.app.folio is not None and window.app.folio.library.search("owls").hits
    window.close()


def test_a_corrupt_model_file_says_so_and_another_can_be_chosen(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 64)
    window = _window(qtbot, tmp_path, default_factory, Settings(model_path=str(broken), n_ctx=2048))
    window.app.start()
    box = _box(qtbot, window, "model")
    assert "broken.gguf" in box.text() and box.fix_button is not None
    assert broken.exists()
    monkeypatch.setattr(
        "app.gui.startup_problems.QFileDialog.getOpenFileName",
        lambda *a, **k: (str(paths.default_chat_model()), ""),
    )
    with qtbot.waitSignal(window.app.model_loaded, timeout=120_000):
        box.fix_button.click()
    window.close()
