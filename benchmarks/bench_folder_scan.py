"""What a watched-folder scan costs: a folder in step, every file touched, files renamed, all new.

The scan (app/core/ingest/folder_scan.py) runs on the store worker, never on the GUI thread; this
measures how long that worker is busy with it before any ingestion. The library's documents are
given as the store would list them (each file's real SHA-256 and size), so no embedding runs.

    PYTHONPATH=$PWD python benchmarks/bench_folder_scan.py [--files 5000] [--kb 64]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.ingest.folder_scan import scan_folder
from app.core.ingest.pipeline import sha256_of
from app.core.store.records import DocumentInfo

SUBFOLDERS = 50
RENAMED = 100


def _make(root: Path, files: int, kb: int) -> list[Path]:
    paths = []
    for n in range(files):
        path = root / f"part-{n % SUBFOLDERS:02d}" / f"note-{n:05d}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((f"note {n} " * (kb * 128))[: kb * 1024].encode())
        old = time.time() - 3600
        os.utime(path, (old, old))
        paths.append(path)
    return paths


def _timed(root: Path, documents: list[DocumentInfo]) -> tuple[float, dict[str, int]]:
    started = time.perf_counter()
    scan = scan_folder(root, documents)
    seconds = time.perf_counter() - started
    counts = {
        "new": len(scan.new),
        "changed": len(scan.changed),
        "moved": len(scan.moved),
        "deleted": len(scan.deleted),
    }
    return seconds, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--kb", type=int, default=64, help="size of each file in KiB")
    args = parser.parse_args(argv)
    figures: dict[str, object] = {"files": args.files, "kb_per_file": args.kb, "subfolders": SUBFOLDERS}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "watched"
        paths = _make(root, args.files, args.kb)
        now = datetime.now(UTC)
        documents = [
            DocumentInfo(n, p.name, str(p), "txt", 1, 1, p.stat().st_size, "ready", sha256_of(p), now, now)
            for n, p in enumerate(paths, start=1)
        ]
        cases: dict[str, tuple[float, dict[str, int]]] = {}
        cases["all_new"] = _timed(root, [])
        cases["in_step"] = _timed(root, documents)
        for path in paths[:RENAMED]:
            path.rename(path.with_name("renamed-" + path.name))
        cases[f"{RENAMED}_renamed"] = _timed(root, documents)
        for path in root.rglob("*.txt"):
            path.touch()
        cases["all_touched_rehashed"] = _timed(root, documents)
    for name, (seconds, counts) in cases.items():
        print(f"{name:22} {seconds * 1000:9.1f} ms  {counts}", flush=True)
        figures[name] = {"ms": round(seconds * 1000, 1), **counts}
    from benchmarks.record_env import write_result

    print(f"wrote {write_result('folder_scan', figures)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
