"""The `folio` command-line contract (ARCHITECTURE.md §4) for the library commands, in subprocesses."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from app.core.ingest.reader_version import READER_VERSION
from app.core.store.database import STORE_FILE
from tests.pdfgen import write_encrypted_pdf, write_pdf


def folio_cli(*args: str, env_library: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if env_library is not None:
        env["FOLIO_LIBRARY"] = str(env_library)
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_ingest_search_documents_remove_verify(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(
        docs / "tea.pdf", [["Green tea is steeped at 80 degrees."], ["Black tea is steeped at 95 degrees."]]
    )
    write_encrypted_pdf(docs / "locked.pdf", [["secret"]])
    (docs / "readme.md").write_text("Folio keeps everything on this machine.\n")

    ingest = folio_cli("ingest", str(docs), "--library", str(library), "--json")
    assert ingest.returncode == 1, ingest.stderr  # one file failed, the others were ingested
    data = json.loads(ingest.stdout)
    assert set(data) == {"files", "elapsed_ms", "cancelled"}
    files = {f["document"]: f for f in data["files"]}
    assert files["tea.pdf"]["status"] == "added" and files["tea.pdf"]["pages"] == 2
    assert files["locked.pdf"] == {
        "path": str((docs / "locked.pdf").resolve()),
        "document": "locked.pdf",
        "status": "failed",
        "pages": 0,
        "chunks": 0,
        "error": "password protected",
        "ocr_pages": 0,
    }
    assert set(files["readme.md"]) == {"path", "document", "status", "pages", "chunks", "error", "ocr_pages"}

    search = folio_cli("search", "How hot for black tea?", "-k", "2", "--json", env_library=library)
    assert search.returncode == 0, search.stderr
    result = json.loads(search.stdout)
    assert set(result) == {"query", "hits", "retrieval_ms"}
    top = result["hits"][0]
    assert {"document", "path", "page", "score", "text", "chunk_id"} <= set(top)
    assert top["document"] == "tea.pdf" and top["page_end"] == 2 and "95" in top["text"]

    listing = json.loads(folio_cli("documents", "--json", "--library", str(library)).stdout)
    assert sorted(d["document"] for d in listing["documents"]) == ["readme.md", "tea.pdf"]

    removed = folio_cli("remove", "tea.pdf", "--library", str(library))
    assert removed.returncode == 0 and "removed tea.pdf" in removed.stdout
    verify = folio_cli("verify", "--json", "--library", str(library))
    assert verify.returncode == 0, verify.stderr
    state = json.loads(verify.stdout)
    assert set(state) == {"ok", "documents", "chunks", "vectors", "problems", "repaired"}
    readme_chunks = next(d["chunks"] for d in listing["documents"] if d["document"] == "readme.md")
    assert state["ok"] and state["documents"] == 1 and state["chunks"] == state["vectors"] == readme_chunks


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    empty = folio_cli("search", "   ", "--library", str(tmp_path / "lib"), "--json")
    assert empty.returncode == 2 and empty.stdout == ""
    assert "empty" in empty.stderr
    assert folio_cli("frobnicate").returncode == 2
    assert folio_cli("search").returncode == 2


def test_missing_document_and_file(tmp_path: Path) -> None:
    missing = folio_cli("remove", "nothing.pdf", "--library", str(tmp_path / "lib"))
    assert missing.returncode == 1 and "no document" in missing.stderr
    ingest = folio_cli("ingest", str(tmp_path / "nope.pdf"), "--library", str(tmp_path / "lib"), "--json")
    assert ingest.returncode == 1
    assert json.loads(ingest.stdout)["files"][0]["error"] == "file not found"


def test_documents_an_earlier_folio_read_are_marked_and_read_again(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "tea.pdf", [["Green tea is steeped at 80 degrees."]])
    write_pdf(docs / "coffee.pdf", [["Coffee is brewed at 93 degrees."]])
    assert folio_cli("ingest", str(docs), "--library", str(library)).returncode == 0
    nothing = folio_cli("reread", "--library", str(library))
    assert nothing.returncode == 0 and "every document was read by this version of Folio" in nothing.stdout
    with sqlite3.connect(library / STORE_FILE) as db:  # as the schema-4 migration leaves older documents
        db.execute("UPDATE documents SET reader_version = 0 WHERE name = 'tea.pdf'")
    db.close()

    listed = folio_cli("documents", "--library", str(library))
    assert listed.returncode == 0, listed.stderr
    lines = {line.split()[1]: line for line in listed.stdout.splitlines() if ".pdf" in line}
    assert "[read by an earlier Folio]" in lines["tea.pdf"]
    assert "[read by an earlier Folio]" not in lines["coffee.pdf"]
    assert "1 read by an earlier version of Folio: `folio reread` reads them again" in listed.stdout

    reread = folio_cli("reread", "--library", str(library), "--json")
    assert reread.returncode == 0, reread.stderr
    assert [(f["document"], f["status"]) for f in json.loads(reread.stdout)["files"]] == [
        ("tea.pdf", "updated")
    ]
    after = json.loads(folio_cli("documents", "--library", str(library), "--json").stdout)["documents"]
    assert {d["document"]: d["reader_version"] for d in after} == {
        "tea.pdf": READER_VERSION,
        "coffee.pdf": READER_VERSION,
    }
    assert "read by an earlier" not in folio_cli("documents", "--library", str(library)).stdout
