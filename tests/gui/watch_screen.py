"""Screenshot of the Library tab with watched folders: one watched, one offline, a deleted file to confirm.

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.watch_screen docs
(QT_QPA_PLATFORM=xcb: the real window system, as the README screenshots)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.core import paths
from app.core.config import Settings
from app.core.services import build_services
from app.gui.app import create_window, load_stylesheet
from tests.gui.conftest import SOLAR_PAGES, make_pdf
from tests.gui.screenshots import save, wait_for


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-watch-shot-"))
    app = QApplication(sys.argv)  # first: the test PDFs are drawn with Qt
    app.setStyleSheet(load_stylesheet())
    papers = work / "home" / "papers"
    reports = work / "usb-drive" / "reports"
    for folder in (papers / "energy", reports):
        folder.mkdir(parents=True)
    shutil.copy(paths.resources_dir() / "sample.pdf", papers / "varn-sample.pdf")
    make_pdf(papers / "energy" / "solar-guide.pdf", SOLAR_PAGES)
    (papers / "garden-notes.md").write_text("# Garden\nWater the tomatoes every second day.\n", "utf-8")
    (reports / "quarterly-report.txt").write_text("Sales rose in the third quarter.\n", "utf-8")
    (reports / "minutes.txt").write_text("The board met on Tuesday.\n", "utf-8")
    settings = Settings(model_path=str(paths.fast_chat_model()))
    folio = build_services(settings, work / "library")
    for folder in (papers, reports):
        folio.library.watch_folder(folder)
        folio.library.ingest(folio.library.scan_folder(str(folder.resolve())).to_ingest)
    folio.close()
    (papers / "garden-notes.md").unlink()  # deleted while Folio was closed: asked at start-up
    shutil.move(work / "usb-drive", work / "unplugged")  # the drive is removed
    window = create_window(settings, work / "library", settings_path=work / "settings.json")
    window.resize(1280, 800)
    window.show()
    window.app.start()
    wait_for(
        lambda: (
            len(window.folders.states) == 2
            and any(state.offline for state in window.folders.states)
            and window.deletion_notice.isVisible()
            and window.app.model_info is not None
            and window.app.embedder_ready
            and len(window.library.model.documents) == 5
        ),
        180_000,
    )
    save(window, out / "watched-folders.png")
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")))
