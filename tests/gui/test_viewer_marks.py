"""The viewer marks a passage on a scanned page from its OCR boxes, and shows a cited section of a
DOCX with the passage marked."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from app.core.passage import Citation
from app.core.qa import Folio
from app.core.store.layers import PageLayerInfo
from app.gui.pdf_viewer import PdfViewer, paragraph_display
from tests.docgen import scan_pages, write_docx
from tests.gui.waiting import wait_for
from tests.pdfgen import write_pdf

OCR_TEXT = "Bananas are tropical plants. A banana plant fruits only once in its life."
# The two lines write_pdf draws, as the OCR engine boxes them (points from the page's top-left).
OCR_BOXES = ((0, 28, 46.1, 49.9, 189.1, 67.2), (29, 73, 46.6, 63.8, 250.1, 82.6))


def test_paragraph_display_maps_offsets() -> None:
    text = "Install Run the installer. Reboot."
    display, to_display = paragraph_display(text, (8, 27))
    assert display == "Install\n\nRun the installer.\n\nReboot."
    assert display[to_display(8) : to_display(26)] == "Run the installer."
    assert display[to_display(27) : to_display(34)] == "Reboot."


def test_passage_on_a_scanned_page_is_marked_from_its_boxes(qtbot: QtBot, tmp_path: Path) -> None:
    source = write_pdf(tmp_path / "source.pdf", [["Apples grow on trees."], ["placeholder"], ["Cherries."]])
    scanned = scan_pages(source, [2], tmp_path / "scan.pdf")
    layer = PageLayerInfo(1, 2, True, "", OCR_TEXT, (), OCR_BOXES)

    def layers(path: str, page: int) -> PageLayerInfo | None:
        return layer if (path, page) == (str(scanned), 2) else None

    viewer = PdfViewer(layers=layers)
    qtbot.addWidget(viewer)
    viewer.resize(900, 700)
    viewer.show()
    citation = Citation(1, 1, "scan.pdf", str(scanned), 2, 2, 29, 73, OCR_TEXT[29:])
    viewer.show_citation(citation)
    assert viewer.highlighted and viewer.selected_text() == "A banana plant fruits only once in its life."
    assert "read by OCR" in viewer.title.text()
    wait_for(
        qtbot, viewer.view.pageNavigator().currentPageChanged, lambda: viewer.current_page() == 1, 10_000
    )
    qtbot.waitUntil(lambda: bool(viewer.view.mark_rects()), timeout=10_000)
    page = viewer.view.page_rect(1)
    (mark,) = viewer.view.mark_rects()  # only the second line holds the passage
    assert page.contains(mark.center().toPoint())
    scale = page.width() / 612
    assert abs(mark.left() - (page.left() + 46.6 * scale)) < 2
    image = viewer.view.viewport().grab().toImage()
    painted = QColor(image.pixel(int(mark.left()) + 3, int(mark.center().y())))
    assert painted.blue() < painted.red() - 40  # the orange mark is drawn there

    viewer.show_citation(replace(citation, text=OCR_TEXT, char_start=0))
    assert len(viewer.view.mark_rects()) == 2


def test_a_cited_docx_section_is_shown_with_the_passage_marked(
    qtbot: QtBot, folio: Folio, tmp_path: Path
) -> None:
    guide = write_docx(
        tmp_path / "guide.docx",
        [
            ("h1", "Setup"),
            ("p", "Unpack the box and check the cables."),
            ("h2", "Network"),
            ("p", "Plug the grey cable into the port marked LAN."),
            ("p", "The status light turns green within a minute."),
        ],
    )
    folio.library.ingest([guide])
    hit = folio.library.search("When does the status light turn green?", 1).hits[0]
    assert hit.section.startswith("Setup › Network")
    viewer = PdfViewer(layers=folio.library.store.page_layer)
    qtbot.addWidget(viewer)
    viewer.show()
    viewer.show_citation(Citation.from_hit(1, hit))
    assert not viewer.view.isVisible() and viewer.section_text.isVisible()
    assert viewer.title.text() == f"guide.docx — {hit.section}"
    shown = viewer.section_text.toPlainText()
    assert shown.startswith("Network\n\nPlug the grey cable")
    assert viewer.selected_text() == " ".join(hit.text.split())
