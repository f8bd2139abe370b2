"""Simulated drag-and-drop of files onto a widget, as a file manager would send it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget

Point = tuple[int, int]


@dataclass
class FileDrag:
    """The drag-enter and drop events for file URLs, and the mime data they point to: the events do
    not own it, so it must live as long as they do (a collected QMimeData crashes the receiver)."""

    mime: QMimeData
    enter: QDragEnterEvent
    drop: QDropEvent


def file_drag(paths: list[Path], at: Point = (200, 200)) -> FileDrag:
    """A drag of files; a drop is ignored unless its drag-enter was sent and accepted first."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPoint(*at), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    drop = QDropEvent(QPointF(*at), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    return FileDrag(mime, enter, drop)


def drop_files(window: QWidget, paths: list[Path], at: Point = (200, 200)) -> bool:
    """Drag the files onto `window` and drop them; returns whether the drag was accepted."""
    drag = file_drag(paths, at)
    QApplication.sendEvent(window, drag.enter)
    QApplication.sendEvent(window, drag.drop)
    return drag.enter.isAccepted()
