"""Keyboard and screen readers: a window's Tab order, and form fields named by their row's label."""

from __future__ import annotations

import itertools

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

UNLABELLED = (QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView)  # widgets with no text of their own


def name_form_fields(form: QFormLayout) -> None:
    """Give every unlabelled field of each row (and such fields inside a row's widget) the row's
    label as its accessible name, unless it has one; what a screen reader says on reaching it."""
    for row in range(form.rowCount()):
        label_item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        field_item = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        label = label_item.widget() if label_item is not None else None
        field = field_item.widget() if field_item is not None else None
        if not isinstance(label, QLabel) or field is None or not label.text().strip():
            continue
        name = label.text().replace("&", "")
        for widget in [field, *field.findChildren(QWidget)]:
            if isinstance(widget, UNLABELLED) and not widget.accessibleName():
                widget.setAccessibleName(name)


def set_tab_order(front: list[QWidget], window: QWidget) -> None:
    """Tab visits `front` in that order, then every other Tab stop of `window` in its present order."""
    placed = set(front)
    rest: list[QWidget] = []
    widget = front[-1].nextInFocusChain()
    while widget is not None and widget is not front[-1]:
        if (
            widget not in placed
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and window.isAncestorOf(widget)
        ):
            rest.append(widget)
        widget = widget.nextInFocusChain()
    for first, second in itertools.pairwise(front + rest):
        QWidget.setTabOrder(first, second)
