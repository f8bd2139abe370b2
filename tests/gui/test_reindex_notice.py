"""The re-index notice: shown for a library an English-only embedder wrote, run on the store worker
with its progress, the re-indexed library opened in the old one's place, cancel and dismiss."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.api import FolioApi
from app.core.config import Settings
from app.core.embed.reindex import ReindexAdvice
from app.core.ingest.reread import RereadAdvice
from app.gui.main_window import MainWindow
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, FakeFolio
from tests.gui.waiting import wait_for

ADVICE = ReindexAdvice("all-MiniLM-L6-v2", "use-multilingual-v3", documents=2, pages=1800)


class Libraries:
    """The factory of the window's facades: the first library opened needs re-indexing (it says
    so), a library that holds the re-indexed marker does not."""

    def __init__(self) -> None:
        self.built: list[FakeFolio] = []

    def __call__(self, settings: Settings, library_dir: Path) -> FolioApi:
        library_dir.mkdir(parents=True, exist_ok=True)
        folio = FakeFolio(settings, library_dir, FakeAnswerer(["ok"]))
        if not (library_dir / "reindexed").exists():
            (library_dir / "old").write_text("old", encoding="utf-8")
            folio.advice = ADVICE
        self.built.append(folio)
        return folio


def _advised(
    qtbot: QtBot, make_window: WindowFactory, libraries: Callable[[Settings, Path], FolioApi]
) -> MainWindow:
    window = make_window(libraries, start=False)
    with qtbot.waitSignal(window.reindexer.advised, timeout=10_000):
        window.app.start()
    qtbot.waitUntil(window.reindex_notice.isVisible, timeout=5_000)
    return window


def test_the_notice_says_why_and_how_long_and_can_be_dismissed(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = _advised(qtbot, make_window, Libraries())
    notice = window.reindex_notice
    text = notice.text.text()
    assert "English-only embedder (all-MiniLM-L6-v2)" in text
    assert "questions in one language will not find pages in the other" in text
    assert "use-multilingual-v3" in text and "about 3 min" in text  # 1,800 pages at 10 pages/s
    assert notice.reindex_button.isVisible() and not notice.bar.isVisible()
    notice.dismiss_button.click()
    assert not notice.isVisible()


def test_no_notice_for_a_library_that_needs_no_re_index(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "reindexed").write_text("new", encoding="utf-8")  # a multilingual library
    window = make_window(Libraries(), start=False)
    with qtbot.assertNotEmitted(window.reindexer.advised, wait=300):
        window.app.start()
        wait_for(qtbot, window.app.embedder_warm, lambda: window.app.embedder_ready, 10_000)
    assert not window.reindex_notice.isVisible()


def test_re_index_runs_on_the_worker_shows_progress_and_opens_the_new_library(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    libraries = Libraries()
    window = _advised(qtbot, make_window, libraries)
    old = libraries.built[0]
    old.reindex_gate.clear()  # the worker waits before the first document
    notice = window.reindex_notice
    with qtbot.waitSignal(window.reindexer.running_changed, timeout=5_000):
        notice.reindex_button.click()
    # the GUI thread is free while the worker runs: the bar is up and adding documents is refused
    assert (
        notice.bar.isVisible() and notice.cancel_button.isVisible() and not notice.dismiss_button.isEnabled()
    )
    assert window.app.reindexing
    with qtbot.waitSignal(window.ingest.message, timeout=5_000) as refused:
        window.ingest.add([tmp_path / "new.pdf"])
    assert "being re-indexed" in refused.args[0]
    fractions: list[float] = []
    window.reindexer.progress.connect(lambda fraction, _left: fractions.append(fraction))
    replaced: list[str] = []
    window.app.library_replaced.connect(replaced.append)
    with qtbot.waitSignals(
        [window.app.library_replaced, window.app.services_ready], order="strict", timeout=10_000
    ):
        old.reindex_gate.set()
    assert fractions == [0.5, 1.0]  # after each of the two documents
    kept = Path(replaced[0])
    library = tmp_path / "library"
    assert (library / "reindexed").is_file() and not (library / "old").exists()
    assert (kept / "old").is_file() and kept.name.startswith("library.before-reindex-")
    assert old.closed and window.app.folio is libraries.built[1] and not window.app.reindexing
    assert "Re-indexed 2 document(s)" in notice.text.text() and not notice.reindex_button.isVisible()


def test_a_cancelled_re_index_leaves_the_library_as_it_was(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    libraries = Libraries()
    window = _advised(qtbot, make_window, libraries)
    old = libraries.built[0]
    old.reindex_gate.clear()
    with qtbot.waitSignal(window.reindexer.running_changed, timeout=5_000):
        window.reindex_notice.reindex_button.click()
    with qtbot.waitSignal(window.reindexer.finished, timeout=10_000) as finished:
        window.reindex_notice.cancel_button.click()
        old.reindex_gate.set()
    assert finished.args == ["Re-index cancelled; the library is unchanged.", False]
    assert (tmp_path / "library" / "old").is_file() and window.app.folio is old and not old.closed
    assert window.reindex_notice.reindex_button.isVisible() and not window.reindex_notice.bar.isVisible()


class OutdatedLibraries:
    """The factory of the window's facades: a library two of whose documents an earlier version of
    Folio read (it says so through reread_advice)."""

    def __init__(self) -> None:
        self.built: list[FakeFolio] = []

    def __call__(self, settings: Settings, library_dir: Path) -> FolioApi:
        library_dir.mkdir(parents=True, exist_ok=True)
        folio = FakeFolio(settings, library_dir, FakeAnswerer(["ok"]))
        folio.reread_advised = RereadAdvice(documents=(3, 7), pages=1800)
        self.built.append(folio)
        return folio


def test_documents_an_earlier_folio_read_are_offered_and_read_again_in_place(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    libraries = OutdatedLibraries()
    window = _advised(qtbot, make_window, libraries)
    notice = window.reindex_notice
    text = notice.text.text()
    assert text.startswith("2 document(s) of this library were read by an earlier version of Folio")
    assert "about 3 min for 1800 pages" in text  # 1,800 pages at 10 pages/s
    assert notice.reindex_button.text() == "Read again" and notice.reindex_button.isVisible()
    with qtbot.waitSignal(window.ingest.batch_finished, timeout=10_000):
        notice.reindex_button.click()
    # read again in place through the ingest queue, not the library re-index (no new library)
    assert libraries.built[0].reread == [(3, 7)] and len(libraries.built) == 1
    assert not notice.isVisible() and not window.app.reindexing


def test_the_library_re_index_is_offered_before_reading_again(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    def both(settings: Settings, library_dir: Path) -> FolioApi:
        folio = OutdatedLibraries()(settings, library_dir)
        assert isinstance(folio, FakeFolio)
        folio.advice = ADVICE  # the re-index reads every document again anyway
        return folio

    window = _advised(qtbot, make_window, both)
    assert "English-only embedder" in window.reindex_notice.text.text()
    assert window.reindex_notice.reindex_button.text() == "Re-index now"
