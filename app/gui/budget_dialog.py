"""Where an answer's context went: tokens per part, passages used and dropped."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.api import format_bytes
from app.gui.i18n import QT_TRANSLATE_NOOP

ROWS = (
    ("system_tokens", QT_TRANSLATE_NOOP("BudgetDialog", "System prompt")),
    ("passages_tokens", QT_TRANSLATE_NOOP("BudgetDialog", "Passages")),
    ("history_tokens", QT_TRANSLATE_NOOP("BudgetDialog", "Chat history")),
    ("question_tokens", QT_TRANSLATE_NOOP("BudgetDialog", "Question")),
    ("template_tokens", QT_TRANSLATE_NOOP("BudgetDialog", "Chat template")),
    ("answer_reserve", QT_TRANSLATE_NOOP("BudgetDialog", "Reserved for the answer")),
    ("prompt_tokens", QT_TRANSLATE_NOOP("BudgetDialog", "Prompt total")),
    ("n_ctx", QT_TRANSLATE_NOOP("BudgetDialog", "Context size")),
)


def _tr(text: str) -> str:
    """A text marked with QT_TRANSLATE_NOOP where it is defined, translated; literals call
    QCoreApplication.translate themselves, so lupdate reads them."""
    return QCoreApplication.translate("BudgetDialog", text)


def budget_rows(budget: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) rows for the table, in reading order."""
    rows = [(_tr(label), str(budget[key])) for key, label in ROWS if key in budget]
    used = budget.get("passages_used") or []
    rows.append((QCoreApplication.translate("BudgetDialog", "Passages used"), str(len(used))))
    if budget.get("evidence_saved_tokens"):
        excerpts = len(budget.get("excerpts") or {})
        rows.append(
            (
                QCoreApplication.translate("BudgetDialog", "Passages cut to the sentences that matter"),
                QCoreApplication.translate("BudgetDialog", "{0} · {1} tokens left out").format(
                    excerpts, budget["evidence_saved_tokens"]
                ),
            )
        )
    dropped = budget.get("passages_dropped") or []
    rows.append((QCoreApplication.translate("BudgetDialog", "Passages dropped"), str(len(dropped))))
    for item in dropped:
        reason = (
            QCoreApplication.translate("BudgetDialog", "context full")
            if item.get("reason") == "context"
            else QCoreApplication.translate("BudgetDialog", "TTFT target")
        )
        rows.append(
            (
                "   "
                + QCoreApplication.translate("BudgetDialog", "{0}, p. {1}").format(
                    item.get("document", QT_TRANSLATE_NOOP("BudgetDialog", "?")), item.get("page", "?")
                ),
                QCoreApplication.translate("BudgetDialog", "{0} tokens · {1}").format(
                    item.get("tokens", QT_TRANSLATE_NOOP("BudgetDialog", "?")), reason
                ),
            )
        )
    if budget.get("history_turns_dropped"):
        rows.append(
            (
                QCoreApplication.translate("BudgetDialog", "History turns dropped"),
                str(budget["history_turns_dropped"]),
            )
        )
    kv_cache = budget.get("kv_cache")
    if kv_cache:
        rows.extend(kv_cache_rows(kv_cache))
    elif budget.get("cached_prompt_tokens"):
        rows.append(
            (
                QCoreApplication.translate("BudgetDialog", "Prompt tokens reused from cache"),
                str(budget["cached_prompt_tokens"]),
            )
        )
    return rows


def kv_cache_rows(kv_cache: dict[str, Any]) -> list[tuple[str, str]]:
    """The KV cache behind the answer: its size for the context, its type, the prompt tokens it
    already held and those evaluated; "not known" where the engine (a server) does not say."""
    unknown = _tr("not known")
    size, n_ctx = kv_cache.get("bytes"), kv_cache.get("n_ctx")
    if size is None:
        size_text = unknown
    elif n_ctx is None:
        size_text = format_bytes(size)
    else:
        size_text = _tr("{0} for {1} tokens").format(format_bytes(size), n_ctx)
    type_k, type_v = kv_cache.get("type_k"), kv_cache.get("type_v")
    if type_k is None and type_v is None:
        type_text = unknown
    else:
        type_text = _tr("keys {0} · values {1}").format(type_k or unknown, type_v or unknown)

    def count(key: str) -> str:
        value = kv_cache.get(key)
        return unknown if value is None else str(value)

    return [
        (_tr("KV cache size"), size_text),
        (_tr("KV cache type"), type_text),
        (_tr("Prompt tokens reused from the KV cache"), count("reused_tokens")),
        (_tr("Prompt tokens evaluated"), count("evaluated_tokens")),
    ]


class BudgetDialog(QDialog):
    """A read-only table of one answer's token budget."""

    def __init__(self, budget: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Token budget"))
        rows = budget_rows(budget)
        table = QTableWidget(len(rows), 2, self)
        table.setObjectName("budgetTable")
        table.setHorizontalHeaderLabels([self.tr("Part"), self.tr("Tokens")])
        table.verticalHeader().setVisible(False)
        for row, (label, value) in enumerate(rows):
            table.setItem(row, 0, QTableWidgetItem(label))
            table.setItem(row, 1, QTableWidgetItem(value))
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("How the context window was spent for this answer:"), self))
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.resize(460, 420)
        self.table = table
