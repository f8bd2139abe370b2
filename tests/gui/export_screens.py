"""Screenshots of export and keyboard use: the File menu, an exported chat as HTML, the shortcuts, focus.

A real library (a real PDF, the real embedder); two answers saved through the real store, reopened
in the real window (the chat model is loaded, never run). From the repository root:
  xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.export_screens docs
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QTextBrowser

from app.core import paths
from app.core.answering.judge.checks import SentenceCheck
from app.core.answering.types import Answer, AnswerMetrics
from app.core.config import Settings
from app.core.generate.model import Sampling
from app.core.passage import Citation
from app.core.services import build_services
from app.gui.app import create_window, load_stylesheet
from app.gui.shortcuts_dialog import ShortcutsDialog
from tests.gui.screenshots import pause, save, wait_for
from tests.integration.test_export_roundtrip import PAGES
from tests.pdfgen import write_pdf


def _answer(question: str, text: str, citations: list[Citation], **extra: object) -> Answer:
    fields: dict[str, object] = {
        "question": question,
        "answer": text,
        "thinking": "",
        "citations": citations,
        "invalid_citations": [],
        "finish_reason": "stop",
        "model": paths.FAST_CHAT_MODEL_FILE,
        "budget": None,
        "metrics": AnswerMetrics(ttft_ms=812.0, tokens_per_s=41.5, completion_tokens=24),
        "spans": {"queue": 0.4, "retrieve": 38.0, "prefill": 640.0, "decode": 560.0},
        "grounded": True,
        "sampling": Sampling(),
    }
    fields.update(extra)
    return Answer(**fields)  # type: ignore[arg-type]


def saved_chat(settings: Settings, library: Path, pdf: Path) -> int:
    """Two answers in one chat, written through the real store: one answered, one cut off."""
    folio = build_services(settings, library)
    try:
        folio.library.ingest([pdf])
        hits = folio.library.search("restart the inverter red fault light", 3).hits
        inverter = next(h for h in hits if "Restart" in h.text)
        battery = folio.library.search("battery module kilowatt hours", 1).hits[0]
        start = inverter.text.index("Restart")
        span = (start, inverter.text.index("hour.") + len("hour."))
        text = "Restart the inverter when the red fault light stays on for an hour [1]."
        evidence = {1: (span,)}
        check = SentenceCheck(text, 0, len(text), (1,), "model", 0.82, True, "factual", (), evidence, True)
        first = _answer(
            "When should I restart the inverter?",
            text,
            [Citation.from_hit(1, inverter)],
            sentences=(check,),
            verdict="answered",
            support_rate=1.0,
        )
        chat_id, _ = folio.chats.conversations.save(first.record(), None)
        cut = _answer(
            "How much energy does a battery module hold?",
            "Each battery module holds five",
            [Citation.from_hit(1, battery)],
            finish_reason="length",
        )
        folio.chats.conversations.save(cut.record(), chat_id)
        return chat_id
    finally:
        folio.close()


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-export-shots-"))
    app = QApplication(sys.argv)
    app.setStyleSheet(load_stylesheet())
    settings = Settings(model_path=str(paths.fast_chat_model()), n_threads=2)
    library = work / "library"
    chat_id = saved_chat(settings, library, write_pdf(work / "solar-guide.pdf", PAGES))

    window = create_window(settings, library, settings_path=work / "settings.json")
    window.resize(1280, 820)
    window.show()
    window.app.start()
    wait_for(lambda: window.app.folio is not None and window.app.model_info is not None, 120_000)
    window.tabs.setCurrentIndex(1)
    window.chat.open_chat(chat_id)
    wait_for(lambda: len(window.transcript.answer_views) == 2, 30_000)
    pause(500)

    # visible focus: Tab from the question box to the first answer's sources
    window.activateWindow()
    window.question.edit.setFocus()
    view = window.transcript.answer_views[0]
    for _ in range(8):
        if QApplication.focusWidget() is view.sources:
            break
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        pause(80)
    save(window, out / "keyboard-focus.png")

    # File › Export chat… / Export answer…
    file_menu = window.menuBar().findChildren(QMenu)[0]
    file_menu.popup(window.mapToGlobal(QPoint(8, window.menuBar().height())))
    pause(400)
    shot = window.screen().grabWindow(0, window.x(), window.y(), 520, 320)
    shot.save(str(out / "export-menu.png"))
    print("wrote", out / "export-menu.png")
    file_menu.hide()

    # the exported chat, one HTML file, as a browser-like view shows it
    folio = window.app.folio
    assert folio is not None
    page = QTextBrowser()
    page.setHtml(folio.chats.export(chat_id, "html"))
    page.resize(900, 720)
    page.show()
    save(page, out / "export-html.png")
    (work / "export-sample.md").write_text(folio.chats.export(chat_id, "md"), encoding="utf-8")
    print("wrote", work / "export-sample.md")
    page.close()

    window.show_shortcuts()
    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None
    wait_for(dialog.isVisible, 5_000)
    save(dialog, out / "keyboard-shortcuts.png")
    dialog.close()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")))
