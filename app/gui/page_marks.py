"""A QPdfView that also paints highlight boxes given in page points: passages on scanned pages.

QtPdf's search cannot see text that was read by OCR, so the viewer marks the recognised lines
itself. QPdfView does not say where it puts each page; `page_rect` works the layout out again
from what it does expose (zoom mode, margins, spacing, scroll bars), as QPdfView lays pages out
in MultiPage mode (Qt 6.11, QPdfViewPrivate::calculateDocumentLayout).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRect, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPaintEvent, QPen
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QWidget

MARK_FILL = QColor(255, 200, 0, 90)
MARK_EDGE = QColor(230, 140, 0)


class MarkedPdfView(QPdfView):
    """Paints `marks` (boxes in PDF points from the top-left of one page) over that page."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.marked_page = -1
        self.marks: list[QRectF] = []

    def set_marks(self, page: int, boxes: Sequence[tuple[float, float, float, float]]) -> None:
        """Mark `boxes` (x0, y0, x1, y1 in points) on 0-based `page`; no boxes clears the marks."""
        self.marked_page = page if boxes else -1
        self.marks = [QRectF(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]
        self.viewport().update()

    def clear_marks(self) -> None:
        self.set_marks(-1, [])

    def page_rect(self, page: int) -> QRect:
        """Where 0-based `page` is drawn in the viewport (MultiPage mode); null if unknown."""
        document: QPdfDocument | None = self.document()
        if (
            document is None
            or document.status() != QPdfDocument.Status.Ready
            or self.pageMode() != QPdfView.PageMode.MultiPage
            or not 0 <= page < document.pageCount()
        ):
            return QRect()
        screen = QGuiApplication.primaryScreen()
        resolution = (screen.logicalDotsPerInch() if screen is not None else 96.0) / 72.0
        margins, spacing = self.documentMargins(), self.pageSpacing()
        width = self.viewport().width()
        sizes: list[QSize] = []
        for index in range(document.pageCount()):
            size = QSizeF(document.pagePointSize(index) * resolution).toSize()
            if self.zoomMode() == QPdfView.ZoomMode.Custom:
                size = QSizeF(document.pagePointSize(index) * resolution * self.zoomFactor()).toSize()
            elif self.zoomMode() == QPdfView.ZoomMode.FitToWidth and size.width() > 0:
                factor = (width - margins.left() - margins.right()) / size.width()
                size = size * factor
            elif self.zoomMode() == QPdfView.ZoomMode.FitInView:
                room = QSize(width - margins.left() - margins.right(), self.viewport().height() - spacing)
                size = size.scaled(room, Qt.AspectRatioMode.KeepAspectRatio)
            sizes.append(size)
        total_width = max(s.width() for s in sizes) + margins.left() + margins.right()
        y = margins.top() + sum(s.height() + spacing for s in sizes[:page])
        x = (max(total_width, width) - sizes[page].width()) // 2
        return QRect(
            x - self.horizontalScrollBar().value(),
            y - self.verticalScrollBar().value(),
            sizes[page].width(),
            sizes[page].height(),
        )

    def mark_rects(self) -> list[QRectF]:
        """The marks in viewport coordinates, as painted."""
        document = self.document()
        if self.marked_page < 0 or document is None:
            return []
        frame = self.page_rect(self.marked_page)
        points = document.pagePointSize(self.marked_page)
        if frame.isNull() or points.width() <= 0 or points.height() <= 0:
            return []
        sx, sy = frame.width() / points.width(), frame.height() / points.height()
        return [
            QRectF(frame.x() + r.x() * sx, frame.y() + r.y() * sy, r.width() * sx, r.height() * sy)
            for r in self.marks
        ]

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        rects = self.mark_rects()
        if not rects:
            return
        painter = QPainter(self.viewport())
        painter.setPen(QPen(MARK_EDGE, 1.5))
        painter.setBrush(MARK_FILL)
        for rect in rects:
            painter.drawRect(rect.adjusted(-2, -1, 2, 1))
        painter.end()
