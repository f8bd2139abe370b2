"""The watched-folder scan on real files in tmp dirs: new, changed, deleted, moved, offline, unreadable."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.core.ingest.folder_scan import FolderScan, scan_folder
from app.core.ingest.pipeline import sha256_of
from app.core.store.records import DocumentInfo


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _stored(path: Path, number: int) -> DocumentInfo:
    """The document the library would hold for `path` as it is now (stored a moment ago)."""
    now = datetime.now(UTC)
    return DocumentInfo(
        number, path.name, str(path), "txt", 1, 1, path.stat().st_size, "ready", sha256_of(path), now, now
    )


def _age(path: Path, seconds: float) -> None:
    """Set the file's modification time `seconds` into the past (as if written before it was stored)."""
    stamp = path.stat().st_mtime - seconds
    os.utime(path, (stamp, stamp))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "papers"
    _write(root / "alpha.txt", "Alpha notes about orchards.")
    _write(root / "sub" / "beta.md", "# Beta\nNotes about bananas.")
    _write(root / "image.png", "not a document format")
    _write(root / ".hidden" / "secret.txt", "hidden folders are skipped")
    for path in root.rglob("*"):
        if path.is_file():
            _age(path, 60)
    return root


def _names(paths: tuple[str, ...]) -> list[str]:
    return sorted(Path(p).name for p in paths)


def test_a_new_folder_lists_its_readable_files_and_subfolders(folder: Path) -> None:
    scan = scan_folder(folder, [])
    assert not scan.offline
    assert _names(scan.new) == ["alpha.txt", "beta.md"]
    assert scan.changed == scan.moved == scan.deleted == ()
    assert sorted(Path(d).name for d in scan.directories) == ["papers", "sub"]
    assert scan.files == 2 and scan.documents == 0


def test_a_folder_in_step_has_nothing_to_do(folder: Path) -> None:
    documents = [_stored(folder / "alpha.txt", 1), _stored(folder / "sub" / "beta.md", 2)]
    scan = scan_folder(folder, documents)
    assert scan.in_step and scan.documents == 2 and scan.unreadable == ()


def test_added_changed_and_deleted_files_are_told_apart(folder: Path) -> None:
    alpha, beta = folder / "alpha.txt", folder / "sub" / "beta.md"
    documents = [_stored(alpha, 1), _stored(beta, 2)]
    _write(alpha, "Alpha notes, second edition.")  # changed bytes, new mtime
    beta.unlink()
    _write(folder / "sub" / "gamma.txt", "Gamma is new.")
    scan = scan_folder(folder, documents)
    assert _names(scan.changed) == ["alpha.txt"]
    assert _names(scan.new) == ["gamma.txt"]
    assert [d.id for d in scan.deleted] == [2]
    assert scan.moved == ()
    assert sorted(p.name for p in scan.to_ingest) == ["alpha.txt", "gamma.txt"]


def test_a_file_touched_but_not_changed_is_not_changed(folder: Path) -> None:
    alpha = folder / "alpha.txt"
    documents = [_stored(alpha, 1), _stored(folder / "sub" / "beta.md", 2)]
    alpha.touch()  # newer mtime, same bytes: hashed, and found the same
    assert scan_folder(folder, documents).in_step


def test_a_renamed_or_moved_file_is_a_move_not_a_delete_and_an_add(folder: Path) -> None:
    alpha, beta = folder / "alpha.txt", folder / "sub" / "beta.md"
    documents = [_stored(alpha, 1), _stored(beta, 2)]
    alpha.rename(folder / "alpha-renamed.txt")
    (folder / "deeper").mkdir()
    beta.rename(folder / "deeper" / "beta.md")
    scan = scan_folder(folder, documents)
    moves = {m.document_id: Path(m.new_path).relative_to(folder).as_posix() for m in scan.moved}
    assert moves == {1: "alpha-renamed.txt", 2: "deeper/beta.md"}
    assert scan.new == scan.deleted == scan.changed == ()


def test_a_file_moved_in_from_outside_keeps_its_document(folder: Path, tmp_path: Path) -> None:
    outside = _write(tmp_path / "desktop" / "delta.txt", "Delta, kept on the desktop first.")
    documents = [_stored(outside, 7)]
    shutil.move(outside, folder / "delta.txt")
    scan = scan_folder(folder, documents)
    assert [(m.document_id, Path(m.new_path).name) for m in scan.moved] == [(7, "delta.txt")]
    assert "delta.txt" not in _names(scan.new)


def test_a_copy_of_a_document_still_in_place_is_new_not_a_move(folder: Path) -> None:
    alpha = folder / "alpha.txt"
    documents = [_stored(alpha, 1)]
    shutil.copy(alpha, folder / "alpha-copy.txt")
    scan = scan_folder(folder, documents)
    assert scan.moved == () and "alpha-copy.txt" in _names(scan.new)


def test_a_missing_folder_is_offline_and_decides_nothing(folder: Path, tmp_path: Path) -> None:
    documents = [_stored(folder / "alpha.txt", 1), _stored(folder / "sub" / "beta.md", 2)]
    shutil.move(folder, tmp_path / "unplugged")
    scan = scan_folder(folder, documents)
    assert scan == FolderScan(str(folder), True, scan.offline_reason, documents=2)
    assert "missing" in scan.offline_reason


def test_an_empty_folder_that_held_documents_is_offline_like_an_unmounted_drive(folder: Path) -> None:
    documents = [_stored(folder / "alpha.txt", 1)]
    shutil.rmtree(folder)
    folder.mkdir()  # what an unmounted mount point looks like
    scan = scan_folder(folder, documents)
    assert scan.offline and "mounted" in scan.offline_reason and scan.deleted == ()
    assert not scan_folder(folder, []).offline  # an empty new folder is just empty


def test_a_file_that_cannot_be_read_is_named_with_its_reason(folder: Path) -> None:
    (folder / "broken.txt").symlink_to(folder / "nowhere.txt")
    os.mkfifo(folder / "pipe.md")
    scan = scan_folder(folder, [])
    reasons = {Path(u.path).name: u.reason for u in scan.unreadable}
    assert reasons == {"broken.txt": "a link to a missing file", "pipe.md": "not a regular file"}
    assert _names(scan.new) == ["alpha.txt", "beta.md"]  # the rest is still scanned


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_a_file_without_read_permission_is_named_and_its_document_kept(folder: Path) -> None:
    alpha = folder / "alpha.txt"
    documents = [_stored(alpha, 1)]
    _write(alpha, "Alpha, changed and then locked.")
    alpha.chmod(0)
    try:
        scan = scan_folder(folder, documents)
    finally:
        alpha.chmod(0o644)
    assert [(Path(u.path).name, u.reason) for u in scan.unreadable] == [
        ("alpha.txt", "cannot read the file: Permission denied")
    ]
    assert scan.changed == scan.deleted == ()


def test_a_stored_time_without_zone_is_read_as_utc(folder: Path) -> None:
    """SQLite hands the stored time back without its zone; an old file is still not re-hashed."""
    alpha = folder / "alpha.txt"
    stored = _stored(alpha, 1)
    naive = DocumentInfo(
        **{**stored.__dict__, "updated_at": (datetime.now(UTC) - timedelta(seconds=5)).replace(tzinfo=None)}
    )
    alpha.write_text("Alpha notes about orchards!", encoding="utf-8")  # same size, new bytes
    _age(alpha, 60)  # ... but older than the stored time: taken as unchanged (size and time agree)
    assert scan_folder(folder, [naive]).changed == ()
    alpha.touch()
    assert _names(scan_folder(folder, [naive]).changed) == ["alpha.txt"]
