"""Bad files dropped in one folder: each one ingests or fails alone with a reason, in bounded time,
with no crash and no partial rows; a file replaced while it is read leaves a consistent library."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.ingest.pipeline import IngestProgress
from app.core.services import build_services
from tests.pdfgen import pdf_file, write_encrypted_pdf, write_pdf
from tests.reliability.campaign import SCALE, cli_json, record, topic_page

IMAGE_ONLY = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
    b"/Resources << /XObject << /Im1 5 0 R >> >> >>",
    b"<< /Length 32 >>\nstream\nq 100 0 0 100 50 50 cm /Im1 Do Q\nendstream",
    b"<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray "
    b"/BitsPerComponent 8 /Length 4 >>\nstream\n\x00\xff\xff\x00\nendstream",
]
PAGE_TREE_LOOP = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",  # the tree holds itself
    b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>",
]


def _bad_inbox(folder: Path, rng: random.Random) -> tuple[set[str], set[str]]:
    """Write the bad files; returns (names that must be added, names that must fail)."""
    folder.mkdir()
    real = write_pdf(folder / "real.pdf", [topic_page("harbour", 1, p) for p in range(1, 9)])
    data = real.read_bytes()
    (folder / "zero.pdf").write_bytes(b"")
    for percent in (10, 50, 90):
        (folder / f"truncated-{percent}.pdf").write_bytes(data[: len(data) * percent // 100])
    (folder / "random.pdf").write_bytes(rng.randbytes(20_000))
    for n in range(SCALE.mutations):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 12)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        (folder / f"flipped-{n:03d}.pdf").write_bytes(bytes(mutated))
    (folder / "page-tree-loop.pdf").write_bytes(pdf_file(PAGE_TREE_LOOP))
    write_encrypted_pdf(folder / "encrypted-empty.pdf", [topic_page("lantern", 2, 1)], password="")
    write_encrypted_pdf(folder / "encrypted-secret.pdf", [topic_page("lantern", 3, 1)], password="secret")
    (folder / "image-only.pdf").write_bytes(pdf_file(IMAGE_ONLY))
    write_pdf(
        folder / "long.pdf",
        [[f"Line of page {p} about the meteor log."] for p in range(SCALE.long_pdf_pages)],
    )
    write_pdf(folder / "中文 资料 file.pdf", [topic_page("glacier", 4, p) for p in range(1, 4)])
    nested = folder / "nested"
    nested.mkdir()
    (nested / "loop").symlink_to(folder, target_is_directory=True)  # a symlink loop
    must_add = {"real.pdf", "encrypted-empty.pdf", "long.pdf", "中文 资料 file.pdf"}
    must_fail = {"zero.pdf", "random.pdf", "truncated-10.pdf", "encrypted-secret.pdf", "page-tree-loop.pdf"}
    return must_add, must_fail


def test_bad_files_fail_alone_with_a_reason(tmp_path: Path) -> None:
    rng = random.Random(424242)
    inbox = tmp_path / "inbox"
    must_add, must_fail = _bad_inbox(inbox, rng)
    library = tmp_path / "lib"
    started = time.monotonic()
    report = cli_json(library, "ingest", str(inbox), timeout=1200)
    elapsed = time.monotonic() - started
    files = {Path(f["path"]).name: f for f in report["files"]}
    assert len(report["files"]) == len(files), "each file once, the symlink loop not followed"
    assert must_add <= {n for n, f in files.items() if f["status"] in ("added", "unchanged")}, files
    assert must_fail <= {n for n, f in files.items() if f["status"] == "failed"}, files
    for name, outcome in files.items():
        assert outcome["status"] in ("added", "unchanged", "failed"), (name, outcome)
        if outcome["status"] == "failed":
            assert outcome["error"], name
    stored = cli_json(library, "documents")["documents"]
    added = {n for n, f in files.items() if f["status"] == "added"}
    assert {d["document"] for d in stored} == added, "no rows for a failed file"
    assert all(d["status"] == "ready" and d["chunks"] > 0 for d in stored)
    assert next(d for d in stored if d["document"] == "long.pdf")["pages"] == SCALE.long_pdf_pages
    verify = cli_json(library, "verify")
    assert verify["ok"] and verify["chunks"] == verify["vectors"], verify
    failed = sorted({f["error"].split(":")[0] for f in files.values() if f["status"] == "failed"})
    record("bad_files", len(files))
    record("bad_files_failed", sum(f["status"] == "failed" for f in files.values()))
    record("bad_files_reasons", failed)
    record("bad_files_ingest_seconds", round(elapsed, 1))


def test_a_file_replaced_while_it_is_read(tmp_path: Path, embedder: Embedder) -> None:
    target = write_pdf(tmp_path / "moving.pdf", [topic_page("orchard", 1, p) for p in range(1, 30)])
    other = write_pdf(tmp_path / "other.pdf", [topic_page("meteor", 2, p) for p in range(1, 3)])
    replaced: list[bool] = []

    def swap(progress: IngestProgress) -> None:
        if progress.stage == "parsing" and not replaced:
            os.replace(other, target)
            replaced.append(True)

    folio = build_services(Settings(), tmp_path / "lib", embedder=embedder)
    try:
        result = folio.library.ingest([target], progress=swap).files[0]
        assert replaced and result.status in ("added", "failed"), result
        report = folio.library.verify()
        assert report.ok and report.vectors == report.chunks, report.problems
        again = folio.library.ingest([target]).files[
            0
        ]  # the bytes now on disk are what the library ends with
        assert again.status in ("added", "updated", "unchanged"), again
        docs = folio.library.documents()
        assert len(docs) == 1 and folio.library.verify().ok
    finally:
        folio.close()
