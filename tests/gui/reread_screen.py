"""Screenshots of the "Read again" notice: the real app over a library whose documents an earlier
version of Folio read, before and after the user reads them again.

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.reread_screen docs
     ... -m tests.gui.reread_screen docs zh_CN    # in Chinese: docs/reread-notice-zh.png
(QT_QPA_PLATFORM=xcb: the real window system, as the README screenshots). The library is written
by this version and its documents then marked as an earlier reader's (reader_version 0, what the
schema-4 migration gives every document of an older library), so no old release is needed.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

from app.core.config import Settings
from app.core.services import build_services
from app.core.store.database import STORE_FILE
from tests.gui.reindex_screen import advised_window, two_pdfs
from tests.gui.screenshots import save, wait_for


def main(out: Path, language: str = "en") -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-reread-shot-"))
    _app, docs = two_pdfs(work)
    old = build_services(Settings(), work / "library")
    old.library.ingest([docs])
    old.close()
    with sqlite3.connect(work / "library" / STORE_FILE) as db:
        db.execute("UPDATE documents SET reader_version = 0")
    window = advised_window(work, language)
    suffix = "" if language == "en" else f"-{language[:2]}"
    save(window, out / f"reread-notice{suffix}.png")
    window.reindex_notice.reindex_button.click()
    wait_for(lambda: not window.ingest.batches, 180_000)
    assert window.app.folio is not None
    versions = {info.name: info.reader_version for info in window.app.folio.library.documents()}
    print("read again:", versions)
    save(window, out / f"reread-done{suffix}.png")
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0 if versions and all(versions.values()) else 1


if __name__ == "__main__":
    raise SystemExit(
        main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"), sys.argv[2] if len(sys.argv) > 2 else "en")
    )
