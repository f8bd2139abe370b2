"""Watched folders in a real library: the stored list, an old library, moves, changes, offline folders."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import inspect

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.errors import UsageError
from app.core.ingest.pipeline import IngestProgress
from app.core.passage import Citation
from app.core.qa import Folio
from app.core.services import build_services
from app.core.store.conversations import AnswerRecord
from app.core.store.database import STORE_FILE


def _text(path: Path, topic: str, sentences: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = " ".join(f"{topic} fact number {n} is about {topic.lower()} item {n}." for n in range(sentences))
    path.write_text(body, encoding="utf-8")
    return path


def _sync(folio: Folio, folder: Path) -> None:
    """What the window and `folio sync` do: scan (moves applied), then ingest the rest."""
    scan = folio.library.scan_folder(str(folder))
    folio.library.ingest(scan.to_ingest)


def test_the_folder_list_is_stored_in_the_library_and_survives_reopening(
    library_dir: Path, embedder: Embedder, tmp_path: Path
) -> None:
    papers = tmp_path / "papers"
    papers.mkdir()
    folio = build_services(Settings(), library_dir, embedder=embedder)
    try:
        added = folio.library.watch_folder(papers)
        assert added.path == str(papers.resolve())
        assert folio.library.watch_folder(papers) == added  # watching again changes nothing
        (papers / "inside").mkdir()
        with pytest.raises(UsageError, match="overlaps"):
            folio.library.watch_folder(papers / "inside")
        with pytest.raises(UsageError, match="overlaps"):
            folio.library.watch_folder(tmp_path)
        with pytest.raises(UsageError, match="is not a folder"):
            folio.library.watch_folder(tmp_path / "nowhere")
    finally:
        folio.close()
    moved = tmp_path / "moved-library"  # a library moved elsewhere keeps its folders
    shutil.move(library_dir, moved)
    again = build_services(Settings(), moved, embedder=embedder)
    try:
        assert [f.path for f in again.library.watched_folders()] == [str(papers.resolve())]
        assert again.library.unwatch_folder(str(papers.resolve()))
        assert again.library.watched_folders() == []
        assert not again.library.unwatch_folder(str(papers.resolve()))
    finally:
        again.close()


def test_a_library_made_before_watched_folders_opens_and_gets_the_table(
    library_dir: Path, embedder: Embedder, tmp_path: Path
) -> None:
    notes = _text(tmp_path / "notes" / "atlas.txt", "Atlas", 20)
    folio = build_services(Settings(), library_dir, embedder=embedder)
    folio.library.ingest([notes])
    folio.close()
    with sqlite3.connect(library_dir / STORE_FILE) as conn:  # as an older Folio left it
        conn.execute("DROP TABLE watched_folders")
    old = build_services(Settings(), library_dir, embedder=embedder)
    try:
        assert "watched_folders" in inspect(old.library.store.engine).get_table_names()
        assert [d.name for d in old.library.documents()] == ["atlas.txt"]
        old.library.watch_folder(notes.parent)
        assert len(old.library.watched_folders()) == 1
        assert old.library.scan_folder(str(notes.parent.resolve())).in_step
    finally:
        old.close()


def test_a_renamed_file_keeps_its_document_chunks_and_the_citations_of_saved_answers(
    folio: Folio, tmp_path: Path
) -> None:
    folder = tmp_path / "papers"
    atlas = _text(folder / "atlas.txt", "Atlas", 40)
    folio.library.watch_folder(folder)
    _sync(folio, folder)
    before = folio.library.documents()[0]
    chunk_ids = folio.library.search("Atlas fact number 3", 3).hits[0].chunk_id
    hit = folio.library.search("Atlas fact number 3", 1).hits[0]
    citation = Citation(1, hit.chunk_id, hit.document, hit.path, hit.page, hit.page_end, 0, 10, hit.text)
    chat_id, _ = folio.chats.conversations.save(
        AnswerRecord("Which atlas fact?", "Fact 3 [1].", "", "stop", [citation]), None
    )

    renamed = folder / "maps" / "atlas-2024.txt"
    renamed.parent.mkdir()
    atlas.rename(renamed)
    scan = folio.library.scan_folder(str(folder.resolve()))
    assert [m.document_id for m in scan.moved] == [before.id] and scan.to_ingest == []
    after = folio.library.documents()
    assert [(d.id, d.name, d.path, d.chunks) for d in after] == [
        (before.id, "atlas-2024.txt", str(renamed.resolve()), before.chunks)
    ]
    assert folio.library.search("Atlas fact number 3", 3).hits[0].chunk_id == chunk_ids  # same vectors
    saved = folio.chats.answers(chat_id)[0].citations[0]
    assert (saved.path, saved.document, saved.chunk_id) == (
        str(renamed.resolve()),
        "atlas-2024.txt",
        hit.chunk_id,
    )
    assert folio.library.verify().ok


def test_a_changed_file_is_replaced_whole_and_a_stopped_change_leaves_the_old_version(
    folio: Folio, tmp_path: Path
) -> None:
    folder = tmp_path / "papers"
    atlas = _text(folder / "atlas.txt", "Atlas", 200)
    folio.library.watch_folder(folder)
    _sync(folio, folder)
    old = folio.library.documents()[0]

    _text(atlas, "Borealis", 30)  # the file is rewritten
    scan = folio.library.scan_folder(str(folder.resolve()))
    assert [p.name for p in scan.to_ingest] == ["atlas.txt"] and scan.changed
    cancel = CancelToken()

    def stop_midway(progress: IngestProgress) -> None:  # a crash in the middle of the update
        if progress.stage == "parsing":
            cancel.cancel()

    assert folio.library.ingest(scan.to_ingest, progress=stop_midway, cancel=cancel).cancelled
    kept = folio.library.documents()[0]
    assert (kept.id, kept.sha256, kept.chunks) == (old.id, old.sha256, old.chunks)  # the old one, whole
    assert folio.library.search("Atlas fact number 7", 1).hits[0].document == "atlas.txt"

    report = folio.library.ingest(
        folio.library.scan_folder(str(folder.resolve())).to_ingest
    )  # scanned again: still changed
    assert [f.status for f in report.files] == ["updated"]
    new = folio.library.documents()[0]
    assert new.id == old.id and new.sha256 != old.sha256 and new.chunks < old.chunks
    assert all("Atlas" not in h.text for h in folio.library.search("Atlas fact number 7", 5).hits)
    assert folio.library.verify().ok
    assert folio.library.scan_folder(str(folder.resolve())).in_step


def test_an_offline_folder_keeps_its_documents_and_is_scanned_when_back(folio: Folio, tmp_path: Path) -> None:
    folder = tmp_path / "usb" / "papers"
    _text(folder / "atlas.txt", "Atlas", 20)
    _text(folder / "sub" / "borealis.txt", "Borealis", 20)
    folio.library.watch_folder(folder)
    _sync(folio, folder)
    assert len(folio.library.documents()) == 2

    shutil.move(tmp_path / "usb", tmp_path / "unplugged")  # the drive is removed
    scan = folio.library.scan_folder(str(folder.resolve()))
    assert scan.offline and scan.documents == 2 and scan.deleted == ()
    assert len(folio.library.documents()) == 2

    shutil.move(tmp_path / "unplugged", tmp_path / "usb")  # back, with a file added meanwhile
    _text(folder / "comet.txt", "Comet", 20)
    scan = folio.library.scan_folder(str(folder.resolve()))
    assert not scan.offline and [p.name for p in scan.to_ingest] == ["comet.txt"]


def test_a_deleted_file_is_only_reported_until_removed(folio: Folio, tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    atlas = _text(folder / "atlas.txt", "Atlas", 20)
    _text(folder / "borealis.txt", "Borealis", 20)
    folio.library.watch_folder(folder)
    _sync(folio, folder)
    atlas.unlink()
    scan = folio.library.scan_folder(str(folder.resolve()))
    assert [d.name for d in scan.deleted] == ["atlas.txt"]
    assert sorted(d.name for d in folio.library.documents()) == [
        "atlas.txt",
        "borealis.txt",
    ]  # kept until removed
    folio.library.remove(scan.deleted[0].id)
    assert folio.library.scan_folder(str(folder.resolve())).in_step
