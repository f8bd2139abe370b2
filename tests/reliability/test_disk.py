"""A full disk and a read-only library: a clear error (no traceback), and no corruption.

Uses a small tmpfs when this machine lets the tests mount one (root in a container that allows
it); otherwise the test is skipped with the reason.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.services import build_services
from tests.pdfgen import write_pdf
from tests.reliability.campaign import cli, record, topic_page


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if done.returncode != 0 or shutil.which("mount") is None:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(folder: Path) -> Path:
    filler = folder / "filler.bin"
    with filler.open("wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass
    return filler


def test_full_disk_and_read_only_library(small_disk: Path, tmp_path: Path, embedder: Embedder) -> None:
    library = small_disk / "lib"
    first = write_pdf(tmp_path / "volcano.pdf", [topic_page("volcano", 1, p) for p in range(1, 4)])
    second = write_pdf(tmp_path / "glacier.pdf", [topic_page("glacier", 2, p) for p in range(1, 40)])
    folio = build_services(Settings(), library, embedder=embedder)
    folio.library.ingest([first])
    folio.close()

    filler = _fill(small_disk)
    full = cli(library, "ingest", str(second), "--json")
    assert full.returncode != 0
    assert "Traceback" not in full.stderr, full.stderr[-3000:]
    assert "disk" in full.stderr and "is full" in full.stderr, full.stderr[-1000:]
    filler.unlink()
    folio = build_services(Settings(), library, embedder=embedder)
    try:
        report = folio.library.verify()
        assert report.ok and [d.name for d in folio.library.documents()] == ["volcano.pdf"], report.problems
        assert folio.library.ingest([second]).files[0].status == "added"  # space again: it works
    finally:
        folio.close()

    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    third = write_pdf(tmp_path / "harbour.pdf", [topic_page("harbour", 3, 1)])
    read_only = cli(library, "ingest", str(third), "--json")
    assert read_only.returncode != 0
    assert "Traceback" not in read_only.stderr, read_only.stderr[-3000:]
    assert "read-only" in (read_only.stdout + read_only.stderr).lower(), read_only.stderr[-1000:]
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    folio = build_services(Settings(), library, embedder=embedder)
    try:
        assert folio.library.verify().ok
        assert sorted(d.name for d in folio.library.documents()) == ["glacier.pdf", "volcano.pdf"]
    finally:
        folio.close()
    record("disk_full_error", full.stderr.strip().splitlines()[-1])
    record("read_only_error", read_only.stderr.strip().splitlines()[-1])
