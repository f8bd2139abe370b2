"""Watched folders in the real window: real library, real embedder, real files copied and deleted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.config import Settings
from app.gui.app_controller import ServicesFactory
from app.gui.main_window import MainWindow
from tests.gui.conftest import WindowFactory
from tests.gui.dragdrop import drop_files
from tests.gui.heartbeat import Heartbeat
from tests.gui.threads_seen import off_the_gui_thread, threads_calling
from tests.gui.waiting import wait_for

pytestmark = pytest.mark.slow
WAIT_MS = 60_000  # generous: the window reacts to the system's file events, then a debounce


def _write(path: Path, topic: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = " ".join(f"{topic} note {n}: the {topic.lower()} log records entry {n}." for n in range(12))
    path.write_text(body, encoding="utf-8")
    return path


def _documents(window: MainWindow) -> list[str]:
    return sorted(d.name for d in window.library.model.documents)


def _folder_rows(window: MainWindow) -> list[str]:
    rows = window.folder_list.list
    return [rows.item(i).text() for i in range(rows.count())]


def test_a_dropped_folder_is_watched_new_files_appear_and_deleted_ones_await_confirmation(
    qtbot: QtBot,
    make_window: WindowFactory,
    real_factory: ServicesFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = tmp_path / "watched"
    _write(folder / "atlas.txt", "Atlas")
    window = make_window(real_factory)
    assert window.app.folio is not None
    scanning = threads_calling(monkeypatch, window.app.folio.library, "scan_folder")
    assert drop_files(window, [folder])  # a folder added as a folder
    wait_for(qtbot, window.app.documents_changed, lambda: _documents(window) == ["atlas.txt"], WAIT_MS)
    wait_for(
        qtbot,
        window.folders.states_changed,
        lambda: _folder_rows(window) == ["watched — watched, 1 documents"],
        WAIT_MS,
    )

    heartbeat = Heartbeat()
    heartbeat.start()
    outside = _write(tmp_path / "downloads" / "borealis.txt", "Borealis")
    (folder / "sub").mkdir()
    shutil.copy(outside, folder / "sub" / "borealis.txt")  # copied into a subfolder
    wait_for(
        qtbot,
        window.app.documents_changed,
        lambda: _documents(window) == ["atlas.txt", "borealis.txt"],
        WAIT_MS,
    )
    heartbeat.stop()
    print(f"worst heartbeat gap while the folder was scanned and read: {heartbeat.worst_gap_ms:.1f} ms")
    assert off_the_gui_thread(scanning)  # the window scanned the folder on a worker

    (folder / "atlas.txt").unlink()
    wait_for(qtbot, window.folders.deletions_pending, lambda: window.deletion_notice.isVisible(), WAIT_MS)
    assert "atlas.txt" in window.deletion_notice.text.text()
    assert [d.name for d in window.folders.pending.values()] == ["atlas.txt"]
    assert _documents(window) == ["atlas.txt", "borealis.txt"]  # kept until the user says
    assert window.question.isEnabled()  # a notice, not a modal: the window goes on
    window.deletion_notice.remove_button.click()
    wait_for(qtbot, window.app.documents_changed, lambda: _documents(window) == ["borealis.txt"], WAIT_MS)
    assert not window.deletion_notice.isVisible()


def test_folders_survive_a_restart_and_an_offline_folder_keeps_its_documents(
    qtbot: QtBot, make_window: WindowFactory, real_factory: ServicesFactory, tmp_path: Path
) -> None:
    drive = tmp_path / "usb"
    folder = drive / "papers"
    _write(folder / "atlas.txt", "Atlas")
    first = make_window(real_factory)
    first.folders.watch([folder])
    wait_for(qtbot, first.app.documents_changed, lambda: _documents(first) == ["atlas.txt"], WAIT_MS)
    first.close()

    _write(folder / "comet.txt", "Comet")  # added while Folio was closed
    window = make_window(real_factory)
    wait_for(
        qtbot, window.app.documents_changed, lambda: _documents(window) == ["atlas.txt", "comet.txt"], WAIT_MS
    )
    wait_for(
        qtbot,
        window.folders.states_changed,
        lambda: _folder_rows(window) == ["papers — watched, 2 documents"],
        WAIT_MS,
    )

    shutil.move(drive, tmp_path / "unplugged")  # the drive is removed
    wait_for(
        qtbot,
        window.folders.states_changed,
        lambda: _folder_rows(window) == ["papers — offline, 2 documents kept"],
        WAIT_MS,
    )
    assert _documents(window) == ["atlas.txt", "comet.txt"]
    assert not window.deletion_notice.isVisible()

    shutil.move(tmp_path / "unplugged", drive)  # back, with a new file on it
    _write(folder / "dune.txt", "Dune")
    wait_for(
        qtbot,
        window.app.documents_changed,
        lambda: _documents(window) == ["atlas.txt", "comet.txt", "dune.txt"],
        WAIT_MS,
    )
    wait_for(
        qtbot,
        window.folders.states_changed,
        lambda: _folder_rows(window) == ["papers — watched, 3 documents"],
        WAIT_MS,
    )


def test_always_removes_the_documents_of_deleted_files_without_asking(
    qtbot: QtBot, make_window: WindowFactory, real_factory: ServicesFactory, tmp_path: Path
) -> None:
    folder = tmp_path / "watched"
    _write(folder / "atlas.txt", "Atlas")
    _write(folder / "comet.txt", "Comet")
    window = make_window(real_factory, Settings(folder_deletions="always"))
    window.folders.watch([folder])
    wait_for(
        qtbot, window.app.documents_changed, lambda: _documents(window) == ["atlas.txt", "comet.txt"], WAIT_MS
    )
    (folder / "comet.txt").unlink()
    wait_for(qtbot, window.app.documents_changed, lambda: _documents(window) == ["atlas.txt"], WAIT_MS)
    assert not window.deletion_notice.isVisible()

    window.folder_list.list.item(0).setSelected(True)
    window.folder_list.remove_button.click()  # stop watching: the folder goes, its documents stay
    wait_for(qtbot, window.folders.states_changed, lambda: _folder_rows(window) == [], WAIT_MS)
    assert window.folder_list.empty.isVisible() and _documents(window) == ["atlas.txt"]


def test_a_deleted_file_that_comes_back_is_no_longer_asked_about_and_keep_keeps(
    qtbot: QtBot, make_window: WindowFactory, real_factory: ServicesFactory, tmp_path: Path
) -> None:
    folder = tmp_path / "watched"
    atlas = _write(folder / "atlas.txt", "Atlas")
    _write(folder / "comet.txt", "Comet")
    window = make_window(real_factory)
    window.folders.watch([folder])
    wait_for(
        qtbot, window.app.documents_changed, lambda: _documents(window) == ["atlas.txt", "comet.txt"], WAIT_MS
    )
    saved = atlas.read_bytes()
    atlas.unlink()
    wait_for(qtbot, window.folders.deletions_pending, lambda: window.deletion_notice.isVisible(), WAIT_MS)
    atlas.write_bytes(saved)  # restored from the bin
    wait_for(qtbot, window.folders.deletions_pending, lambda: not window.deletion_notice.isVisible(), WAIT_MS)
    assert window.folders.pending == {}

    (folder / "comet.txt").unlink()
    wait_for(qtbot, window.folders.deletions_pending, lambda: window.deletion_notice.isVisible(), WAIT_MS)
    window.deletion_notice.keep_button.click()
    assert not window.deletion_notice.isVisible()
    _write(folder / "dune.txt", "Dune")  # the next scan does not ask again about the kept one
    wait_for(qtbot, window.app.documents_changed, lambda: "dune.txt" in _documents(window), WAIT_MS)
    assert _documents(window) == ["atlas.txt", "comet.txt", "dune.txt"]
    assert not window.deletion_notice.isVisible()
