"""Screenshots of a whole-document answer in the real window (real models, a temporary library).

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.whole_document_screens docs
Writes whole-document-progress.png (a step running) and whole-document.png (the finished answer).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.core import paths
from app.core.config import Settings
from app.gui.app import create_window, load_stylesheet
from tests.gui.conftest import SOLAR_PAGES, make_pdf
from tests.gui.dragdrop import drop_files
from tests.gui.screenshots import save, wait_for

QUESTION = "Summarise varn-sample.pdf"


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-whole-"))
    app = QApplication(sys.argv)
    app.setStyleSheet(load_stylesheet())
    docs = work / "docs"
    docs.mkdir()
    shutil.copy(paths.resources_dir() / "sample.pdf", docs / "varn-sample.pdf")
    make_pdf(docs / "solar-guide.pdf", SOLAR_PAGES)
    settings = Settings(temperature=0.0)
    window = create_window(settings, work / "library", settings_path=work / "settings.json")
    window.resize(1280, 800)
    window.app.reporter.shown.connect(lambda kind, message: print("dialog:", kind, message, flush=True))
    window.show()
    window.app.start()
    wait_for(lambda: window.app.model_info is not None and window.app.embedder_ready, 180_000)
    drop_files(window, [docs], at=(300, 300))
    wait_for(lambda: not window.ingest.busy and window.library.model.rowCount() == 2, 180_000)
    window.question.edit.setPlainText(QUESTION)
    QTest.keyClick(window.question.edit, Qt.Key.Key_Return)
    wait_for(lambda: bool(window.transcript.answer_views), 60_000)
    view = window.transcript.answer_views[-1]
    wait_for(lambda: "Step" in view.steps.text() or not window.chat.busy, 300_000)
    save(window, out / "whole-document-progress.png")
    wait_for(lambda: window.chat.active is None and not window.chat.busy, 600_000)
    window.transcript.verticalScrollBar().setValue(window.transcript.verticalScrollBar().maximum())
    save(window, out / "whole-document.png")
    print("answer:", view.state.answer_text, flush=True)
    print("steps:", view.steps.text(), flush=True)
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")))
