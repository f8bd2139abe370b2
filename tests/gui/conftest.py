"""GUI test fixtures: isolated dirs, real PDFs written with QPdfWriter, shared real models, fakes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import QFont, QPageSize, QPainter, QPdfWriter
from pytestqt.qtbot import QtBot

from app.core import paths
from app.core.config import Settings
from app.gui.app import create_window
from app.gui.app_controller import ServicesFactory
from app.gui.main_window import MainWindow
from app.gui.tasks import join_stragglers

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(autouse=True)
def gui_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never touch the user's library or settings: both point into tmp_path."""
    monkeypatch.setenv("FOLIO_LIBRARY", str(tmp_path / "library"))
    monkeypatch.setenv("FOLIO_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


def make_pdf(path: Path, pages: list[str]) -> Path:
    """A real PDF with one text page per item (extractable text, as a word processor would make)."""
    writer = QPdfWriter(str(path))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(20, 20, 20, 20))
    writer.setResolution(300)
    painter = QPainter(writer)
    font = QFont("DejaVu Sans", 11)
    painter.setFont(font)
    area = QRectF(0, 0, writer.width(), writer.height())
    for number, text in enumerate(pages):
        if number:
            writer.newPage()
        painter.drawText(area, int(Qt.TextFlag.TextWordWrap), text)
    painter.end()
    return path


def _page(title: str, facts: list[str], filler: str) -> str:
    body = " ".join(f"{filler} {fact}" for fact in facts)
    return f"{title}. {body}"


# Each page is longer than one chunk (200 embedder tokens), so a fact's chunk starts on its own page.
SOLAR_PAGES = [
    _page(
        "Solar panels overview",
        [f"Panel row {n} faces south at a tilt of {20 + n} degrees." for n in range(14)],
        "Rooftop panels turn sunlight into direct current.",
    ),
    _page(
        "Inverter maintenance",
        [f"Inverter log entry {n} reads normal." for n in range(6)]
        + ["Restart the inverter if the red fault light stays on for an hour."]
        + [f"Inverter log entry {n} reads normal." for n in range(6, 12)],
        "The inverter converts direct current into alternating current.",
    ),
    _page(
        "Battery storage",
        [f"Battery module {n} holds five kilowatt hours." for n in range(14)],
        "A home battery stores surplus afternoon energy for the evening.",
    ),
]


@pytest.fixture
def solar_pdf(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    return make_pdf(folder / "solar-guide.pdf", SOLAR_PAGES)


@pytest.fixture(scope="session")
def shared_embedder() -> object:
    """The real embedding model, loaded once for every GUI test that needs it."""
    from app.core.embed.embedder import Embedder

    embedder = Embedder(paths.default_embed_model())
    embedder.load()
    return embedder


@pytest.fixture(scope="session")
def shared_engine() -> Iterator[object]:
    """The real SmolLM2 GGUF, loaded once (the Folio in each test borrows it, never closes it)."""
    from app.core.generate.engine import Engine

    engine = Engine(paths.fast_chat_model(), n_ctx=4096, n_threads=2)
    engine.load()
    yield engine
    engine.close()


@pytest.fixture
def real_factory(shared_embedder: object, shared_engine: object) -> ServicesFactory:
    from app.core.qa import Folio
    from app.core.services import build_services

    def factory(settings: Settings, library_dir: Path) -> Folio:
        return build_services(settings, library_dir, embedder=shared_embedder, engine=shared_engine)  # type: ignore[arg-type]

    return factory


WindowFactory = Callable[..., MainWindow]


@pytest.fixture
def make_window(qtbot: QtBot, tmp_path: Path) -> Iterator[WindowFactory]:
    """Build a main window over a tmp library; every window is closed (workers joined) at the end."""
    windows: list[MainWindow] = []

    def build(factory: ServicesFactory, settings: Settings | None = None, start: bool = True) -> MainWindow:
        window = create_window(
            settings or Settings(), tmp_path / "library", factory, tmp_path / "config" / "settings.json"
        )
        qtbot.addWidget(window)
        windows.append(window)
        window.show()
        if start:
            with qtbot.waitSignal(window.app.services_ready, timeout=60_000):
                window.app.start()
        return window

    yield build
    for window in windows:
        if window.isVisible() or window.app.runner.accepting:
            window.close()
    assert join_stragglers(120), "a worker left running by a window's shutdown did not end"
