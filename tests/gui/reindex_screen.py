"""Screenshot of the re-index notice: the real app over a library the English-only MiniLM wrote.

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.reindex_screen docs
     ... -m tests.gui.reindex_screen docs zh_CN    # in Chinese: docs/reindex-notice-zh.png
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
from app.core.embed.embedder import Embedder
from app.core.services import build_services
from app.gui.app import create_window, load_stylesheet
from app.gui.fonts import ensure_cjk_font
from app.gui.main_window import MainWindow
from tests.gui.conftest import SOLAR_PAGES, make_pdf
from tests.gui.screenshots import save, wait_for


def two_pdfs(work: Path) -> tuple[QApplication, Path]:
    """The application as run_gui starts it, and a folder of two PDFs (the sample, a solar guide)."""
    app = QApplication(sys.argv[:1])  # first: the test PDFs are drawn with Qt
    ensure_cjk_font()  # as run_gui does
    app.setStyleSheet(load_stylesheet())
    docs = work / "docs"
    docs.mkdir()
    shutil.copy(paths.resources_dir() / "sample.pdf", docs / "varn-sample.pdf")
    make_pdf(docs / "solar-guide.pdf", SOLAR_PAGES)
    return app, docs


def advised_window(work: Path, language: str) -> MainWindow:
    """The real window over work/library, shown once its re-index bar is up and its model loaded."""
    settings = Settings(language=language)
    window = create_window(settings, work / "library", settings_path=work / "settings.json")
    window.resize(1280, 800)
    window.show()
    window.app.start()
    wait_for(lambda: window.reindex_notice.isVisible() and window.app.model_info is not None, 180_000)
    return window


def main(out: Path, language: str = "en") -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-reindex-shot-"))
    _app, docs = two_pdfs(work)
    # the library as the previous release wrote it: MiniLM was the default then
    old = build_services(Settings(), work / "library", embedder=Embedder(paths.english_embed_model()))
    old.library.ingest([docs])
    old.close()
    window = advised_window(work, language)
    save(window, out / ("reindex-notice.png" if language == "en" else f"reindex-notice-{language[:2]}.png"))
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(
        main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"), sys.argv[2] if len(sys.argv) > 2 else "en")
    )
