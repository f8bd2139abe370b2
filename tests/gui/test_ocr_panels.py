"""OCR in the panels: pages read by OCR in the library, OCR progress and a time left that weighs
OCR pages, the OCR switch in the settings dialog, new file types in the file dialog filter."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.core.config import Settings
from app.core.ingest.pipeline import OCR_PAGE_WEIGHT, IngestProgress
from app.core.store.records import DocumentInfo
from app.gui.ingest_controller import EtaEstimator
from app.gui.library_panel import LibraryPanel
from app.gui.main_window import document_filter
from app.gui.settings_dialog import SettingsDialog
from app.gui.transcript import Transcript


def _document(kind: str, pages: int, ocr_pages: int) -> DocumentInfo:
    now = datetime.now(UTC)
    return DocumentInfo(
        1, f"doc.{kind}", f"/tmp/doc.{kind}", kind, pages, 9, 1000, "ready", "0" * 64, now, now, ocr_pages
    )


def test_library_panel_says_how_many_pages_were_read_by_ocr(qtbot: QtBot) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.model.set_documents([_document("pdf", 40, 12)])
    status = panel.model.index(0, 3)
    assert panel.model.data(status) == "indexed · 12 pages read by OCR"
    tip = panel.model.data(status, Qt.ItemDataRole.ToolTipRole)
    assert "40 pages" in tip and "12 of them had no text layer and were read by OCR" in tip
    panel.model.set_documents([_document("epub", 7, 0)])
    assert panel.model.data(panel.model.index(0, 3)) == "indexed"
    assert "7 sections" in panel.model.data(panel.model.index(0, 3), Qt.ItemDataRole.ToolTipRole)


def test_time_left_weighs_pages_read_by_ocr() -> None:
    # 10 pages, of which the last 2 need OCR: after the 8 text pages most of the work is still ahead
    after_text = IngestProgress(0, 1, "/tmp/a.pdf", 8, 10, "parsing", 0, 2)
    assert after_text.file_fraction == 8 / (8 + 2 * OCR_PAGE_WEIGHT)
    reading = IngestProgress(0, 1, "/tmp/a.pdf", 9, 10, "parsing", 1, 2)
    assert reading.file_fraction == (8 + OCR_PAGE_WEIGHT) / (8 + 2 * OCR_PAGE_WEIGHT)
    eta = EtaEstimator(started_at=0.0)
    eta.update(0, 1, after_text.file_fraction)
    left = eta.eta_seconds(now=8.0)  # 8 s for the 8 text pages: the 2 OCR pages take far longer
    assert left is not None and left > 2 * OCR_PAGE_WEIGHT * 0.9
    done = IngestProgress(0, 1, "/tmp/a.pdf", 10, 10, "done", 2, 2)
    assert done.file_fraction == 1.0


def test_settings_dialog_turns_ocr_off(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(), None)
    qtbot.addWidget(dialog)
    assert dialog.ocr_enabled.isChecked()
    dialog.ocr_enabled.setChecked(False)
    assert dialog.values().ocr_enabled is False


def test_file_dialog_offers_the_new_types(qtbot: QtBot) -> None:
    for pattern in ("*.pdf", "*.docx", "*.epub", "*.html", "*.htm", "*.md", "*.txt"):
        assert pattern in document_filter()


def test_empty_window_names_every_readable_format(qtbot: QtBot) -> None:
    transcript = Transcript()
    qtbot.addWidget(transcript)
    hint = transcript.findChild(QLabel, "emptyHint").text()
    for name in ("PDF", "Word", "EPUB", "HTML", "Markdown", "text"):
        assert name in hint
