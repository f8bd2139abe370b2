"""Take the screenshots of the KV cache in view: the Token budget dialog of a follow-up (its reused
prefix) and Settings › Model with the KV cache type, from the real app and the default model.

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.kv_cache_screens docs
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.core.config import Settings
from app.core.services import build_services
from app.gui.answer_state import DONE
from app.gui.app import create_window, load_stylesheet
from app.gui.budget_dialog import BudgetDialog
from tests.gui.screenshots import pause, save, wait_for
from tests.gui.settings_screens import INVERTER_NOTES


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-kv-shots-"))
    os.environ["FOLIO_CONFIG_DIR"] = str(work / "config")
    library = work / "library"
    notes = work / "docs" / "inverter-notes.txt"
    notes.parent.mkdir()
    notes.write_text(INVERTER_NOTES, encoding="utf-8")
    prepared = build_services(Settings(), library)
    try:
        assert not prepared.library.ingest([notes]).failed
    finally:
        prepared.close()
    try:
        app = QApplication(sys.argv)
        app.setStyleSheet(load_stylesheet())
        window = create_window(Settings(), library, settings_path=work / "settings.json")
        window.resize(1280, 800)
        window.show()
        window.app.start()
        wait_for(lambda: window.app.model_info is not None, 180_000)
        for question in ("What does E5 on the inverter mean?", "And how long do I wait after it?"):
            state = window.chat.ask(question)
            assert state is not None
            wait_for(lambda state=state: state.phase == DONE and not window.chat.busy, 300_000)
        view = window.transcript.answer_views[-1]
        view.budget_link.linkActivated.emit("budget")
        wait_for(lambda: bool(window.findChildren(BudgetDialog)), 10_000)
        dialog = window.findChildren(BudgetDialog)[0]
        dialog.resize(520, 640)
        pause(300)
        save(dialog, out / "token-budget-kv-cache.png")
        dialog.reject()
        window.open_settings()
        settings = window.settings_dialog
        assert settings is not None
        settings.adjustSize()
        pause(300)
        save(settings, out / "settings-kv-cache.png")
        settings.kv_cache.showPopup()  # the list is a window of its own: grab the screen
        pause(500)
        frame = settings.frameGeometry()
        screen = QApplication.primaryScreen()
        screen.grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(
            str(out / "settings-kv-cache-list.png")
        )
        print("wrote", out / "settings-kv-cache-list.png")
        settings.kv_cache.hidePopup()
        settings.reject()
        window.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")))
