"""One library written by several processes (two Folio objects: separate stores, separate lock
descriptors, the same semantics as two processes), atomic re-index, staging ownership."""

from __future__ import annotations

import threading
from pathlib import Path

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.ingest.pipeline import IngestProgress
from app.core.qa import Folio
from app.core.services import build_services
from app.core.store.file_lock import InterProcessLock
from app.core.store.staging import remove_leftover_staging


def _open(library_dir: Path, embedder: Embedder) -> Folio:
    return build_services(Settings(), library_dir, embedder=embedder)


def _text(path: Path, topic: str, lines: int = 40) -> Path:
    path.write_text("\n".join(f"{topic} fact number {i} is worth knowing." for i in range(lines)))
    return path


def _hit_documents(folio: Folio, query: str) -> set[str]:
    return {hit.document for hit in folio.library.search(query, 5).hits}


def test_each_process_sees_the_others_writes_and_none_is_lost(
    library_dir: Path, embedder: Embedder, tmp_path: Path
) -> None:
    first, second = _open(library_dir, embedder), _open(library_dir, embedder)
    try:
        first.library.warm_up()
        second.library.warm_up()  # both hold a copy of the (empty) index
        first.library.ingest([_text(tmp_path / "volcano.txt", "Volcano")])
        second.library.ingest([_text(tmp_path / "glacier.txt", "Glacier")])
        assert "volcano.txt" in _hit_documents(second, "Volcano fact")  # second caught up
        assert "glacier.txt" in _hit_documents(first, "Glacier fact")  # first caught up
        first.library.remove("glacier.txt")
        second.library.ingest([_text(tmp_path / "desert.txt", "Desert")])  # saves after first's remove
        assert "glacier.txt" not in _hit_documents(second, "Glacier fact")
    finally:
        first.close()
        second.close()
    reopened = _open(library_dir, embedder)
    try:
        report = reopened.library.verify()
        assert report.ok, report.problems
        assert report.vectors == report.chunks > 0
        assert sorted(d.name for d in reopened.library.documents()) == ["desert.txt", "volcano.txt"]
        assert not reopened.notices, "the saved file held every process's writes"
    finally:
        reopened.close()


def test_the_same_bytes_from_two_paths_at_once_end_as_one_document(
    library_dir: Path, embedder: Embedder, tmp_path: Path
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _text(tmp_path / "a" / "report.txt", "Harbour", 300)
    (tmp_path / "b" / "report.txt").write_bytes((tmp_path / "a" / "report.txt").read_bytes())
    folios = [_open(library_dir, embedder), _open(library_dir, embedder)]
    statuses: list[str] = []
    barrier = threading.Barrier(2)

    def run(folio: Folio, folder: Path) -> None:
        folio.library.warm_up()
        barrier.wait()
        statuses.extend(f.status for f in folio.library.ingest([folder]).files)

    pairs = zip(folios, "ab", strict=True)
    threads = [threading.Thread(target=run, args=(f, tmp_path / n)) for f, n in pairs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert sorted(statuses) == ["added", "unchanged"]
        assert len(folios[0].library.documents()) == 1
        assert folios[1].library.verify().ok
    finally:
        for folio in folios:
            folio.close()


def test_reindex_that_fails_or_is_cancelled_keeps_the_old_version(folio: Folio, tmp_path: Path) -> None:
    source = _text(tmp_path / "atlas.txt", "Atlas", 400)
    folio.library.ingest([source])
    chunks_before = folio.library.documents()[0].chunks

    cancel = CancelToken()

    def stop_midway(progress: IngestProgress) -> None:
        if progress.stage == "parsing":
            cancel.cancel()

    report = folio.library.reindex("atlas.txt", progress=stop_midway, cancel=cancel)
    assert report.cancelled
    assert folio.library.documents()[0].chunks == chunks_before
    assert "atlas.txt" in _hit_documents(folio, "Atlas fact")

    source.unlink()  # the file went away: the re-index fails, the old version stays
    report = folio.library.reindex("atlas.txt")
    assert report.files[0].status == "failed"
    assert folio.library.documents()[0].chunks == chunks_before
    assert "atlas.txt" in _hit_documents(folio, "Atlas fact")

    _text(source, "Atlas", 10)  # a readable new version replaces the old one
    report = folio.library.reindex("atlas.txt")
    assert report.files[0].status == "updated"
    assert folio.library.documents()[0].chunks < chunks_before
    assert folio.library.verify().ok


def test_scratch_files_of_a_live_owner_are_kept(library_dir: Path, tmp_path: Path) -> None:
    library_dir.mkdir(parents=True)
    live = library_dir / ".staging-1-live.sqlite3"
    live.write_bytes(b"being written")
    dead = library_dir / ".staging-2-dead.sqlite3"
    dead.write_bytes(b"left by a crash")
    (library_dir / ".staging-2-dead.owner").write_bytes(b"")
    with InterProcessLock(library_dir / ".staging-1-live.owner"):
        removed = remove_leftover_staging(library_dir)
    assert removed == [dead]
    assert live.exists()
    assert not (library_dir / ".staging-2-dead.owner").exists()
