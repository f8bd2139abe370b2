"""The latency plot: TTFT and TPOT p50/p95 by prompt length, drawn with Qt (QImage + QPainter) to a PNG."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 1400, 620
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 90, 30, 90, 80
GAP = 110  # between the two panels
P50_COLOR, P95_COLOR = "#1f5fbf", "#d9622b"


def nice_step(span: float, ticks: int = 5) -> float:
    """A 1, 2 or 5 × 10^n step that cuts `span` into about `ticks` parts."""
    raw = span / max(ticks, 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for factor in (1.0, 2.0, 5.0, 10.0):
        if raw <= factor * power:
            return factor * power
    return 10.0 * power


def axis_max(values: Sequence[float]) -> tuple[float, float]:
    """The axis top (a whole number of nice steps above the largest value) and the step."""
    top = max(values, default=1.0) or 1.0
    step = nice_step(top * 1.1)
    return step * math.ceil(top * 1.1 / step), step


def tick_label(value: float, step: float) -> str:
    return f"{value:.0f}" if step >= 1 else f"{value:.1f}"


def draw_panel(
    painter: Any,
    left: int,
    width: int,
    title: str,
    y_label: str,
    xs: Sequence[float],
    series: Sequence[tuple[str, str, Sequence[float | None]]],
) -> None:
    """One line chart: x = prompt tokens, one line per (name, colour, values); values are labelled."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QPen

    top, height = MARGIN_TOP, HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    x_top, x_step = axis_max(xs)
    y_top, y_step = axis_max([v for _, _, values in series for v in values if v is not None])

    def point(x: float, y: float) -> QPointF:
        return QPointF(left + width * x / x_top, top + height * (1 - y / y_top))

    small, normal, bold = QFont(), QFont(), QFont()
    small.setPointSize(10)
    normal.setPointSize(12)
    bold.setPointSize(13)
    bold.setBold(True)
    painter.setFont(bold)
    painter.setPen(QColor("#000000"))
    painter.drawText(QRectF(left, top - 40, width, 30), Qt.AlignmentFlag.AlignCenter, title)
    painter.setFont(small)
    grid = QPen(QColor("#dddddd"), 1)
    for i in range(round(y_top / y_step) + 1):
        y = i * y_step
        painter.setPen(grid)
        painter.drawLine(point(0, y), point(x_top, y))
        painter.setPen(QColor("#333333"))
        at = point(0, y)
        painter.drawText(
            QRectF(at.x() - 60, at.y() - 10, 54, 20),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            tick_label(y, y_step),
        )
    for i in range(round(x_top / x_step) + 1):
        x = i * x_step
        painter.setPen(grid)
        painter.drawLine(point(x, 0), point(x, y_top))
        painter.setPen(QColor("#333333"))
        at = point(x, 0)
        painter.drawText(
            QRectF(at.x() - 40, at.y() + 6, 80, 20), Qt.AlignmentFlag.AlignCenter, tick_label(x, x_step)
        )
    painter.setPen(QPen(QColor("#000000"), 2))
    painter.drawLine(point(0, 0), point(x_top, 0))
    painter.drawLine(point(0, 0), point(0, y_top))
    painter.setFont(normal)
    painter.drawText(
        QRectF(left, top + height + 34, width, 24),
        Qt.AlignmentFlag.AlignCenter,
        "prompt tokens (median of the bucket's runs)",
    )
    painter.save()
    painter.translate(left - 68, top + height / 2)
    painter.rotate(-90)
    painter.drawText(QRectF(-height / 2, -14, height, 28), Qt.AlignmentFlag.AlignCenter, y_label)
    painter.restore()

    for row, (name, color, values) in enumerate(series):
        pen = QPen(QColor(color), 3)
        if row:
            pen.setStyle(Qt.PenStyle.DashLine)
        shown = [(x, v) for x, v in zip(xs, values, strict=True) if v is not None]
        points = [point(x, v) for x, v in shown]
        painter.setPen(pen)
        for a, b in pairwise(points):
            painter.drawLine(a, b)
        painter.setBrush(QColor(color))
        painter.setPen(QPen(QColor(color), 1))
        painter.setFont(small)
        for (_, v), at in zip(shown, points, strict=True):
            painter.drawEllipse(at, 5, 5)
            below_axis = not row and at.y() + 26 > top + height  # a p50 label would cross the x axis
            painter.drawText(
                QRectF(at.x() + 8, at.y() - 9, 120, 18)
                if below_axis
                else QRectF(at.x() - 60, at.y() + (-26 if row else 8), 120, 18),  # p95 above, p50 below
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
                if below_axis
                else Qt.AlignmentFlag.AlignCenter,
                f"{v:.1f}" if v < 100 else f"{v:.0f}",
            )
        # legend, top left inside the panel
        painter.setPen(pen)
        y = top + 14 + 22 * row
        painter.drawLine(QPointF(left + 16, y), QPointF(left + 56, y))
        painter.setPen(QColor("#000000"))
        painter.setFont(normal)
        painter.drawText(
            QRectF(left + 64, y - 10, 200, 20),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            name,
        )


def draw_latency_plot(buckets: Sequence[dict[str, Any]], path: Path, title: str) -> Path:
    """Left: TTFT p50/p95 (s); right: TPOT p50/p95 (ms); x = the buckets' median prompt tokens."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter

    app = QGuiApplication.instance() or QGuiApplication([])
    measured = [b for b in buckets if b["runs"]]
    xs = [float(b["prompt_tokens_median"]) for b in measured]

    def values(figure: str, which: str, scale: float = 1.0) -> list[float | None]:
        return [b[figure][which] * scale if b[figure] else None for b in measured]

    image = QImage(WIDTH, HEIGHT, QImage.Format.Format_RGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    heading = QFont()
    heading.setPointSize(13)
    painter.setFont(heading)
    painter.setPen(QColor("#000000"))
    painter.drawText(QRectF(0, 8, WIDTH, 28), Qt.AlignmentFlag.AlignCenter, title)
    panel = (WIDTH - MARGIN_LEFT - MARGIN_RIGHT - GAP) // 2
    draw_panel(
        painter,
        MARGIN_LEFT,
        panel,
        "Time to first token (cold)",
        "TTFT (s)",
        xs,
        [
            ("p50", P50_COLOR, values("ttft_ms", "p50", 0.001)),
            ("p95", P95_COLOR, values("ttft_ms", "p95", 0.001)),
        ],
    )
    draw_panel(
        painter,
        MARGIN_LEFT + panel + GAP,
        panel,
        "Time per output token",
        "TPOT (ms per token)",
        xs,
        [("p50", P50_COLOR, values("tpot_ms", "p50")), ("p95", P95_COLOR, values("tpot_ms", "p95"))],
    )
    painter.end()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(path)):
        raise OSError(f"could not write {path}")
    del app
    return path
