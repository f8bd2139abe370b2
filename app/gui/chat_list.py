"""The list of saved chats: New chat, reopen one, delete one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from app.gui.language import is_language_change

if TYPE_CHECKING:
    from app.core.api import ChatSummary


class ChatList(QWidget):
    """Shows ChatSummary rows, newest first; emits the user's choice."""

    new_requested = Signal()
    open_requested = Signal(int)
    delete_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setObjectName("chatList")
        self.new_button = QPushButton(self)
        self.delete_button = QPushButton(self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addStretch(1)
        buttons.addWidget(self.delete_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self.new_button.clicked.connect(self.new_requested)
        self.delete_button.clicked.connect(self._delete)
        self.list.itemActivated.connect(self._open)
        self.list.itemClicked.connect(self._open)
        self._current: int | None = None
        self._chats: list[ChatSummary] = []
        self.retranslate()

    def retranslate(self) -> None:
        self.new_button.setText(self.tr("New chat"))
        self.new_button.setToolTip(self.tr("Start a new chat (Ctrl+N)"))
        self.delete_button.setText(self.tr("Delete"))
        self.delete_button.setToolTip(self.tr("Delete the selected chat"))
        self.delete_button.setAccessibleDescription(self.tr("Delete the selected chat"))
        self.list.setAccessibleName(self.tr("Saved chats"))
        self.list.setAccessibleDescription(self.tr("Enter opens the chat"))
        self.set_chats(self._chats)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def set_chats(self, chats: list[ChatSummary]) -> None:
        self._chats = list(chats)
        self.list.clear()
        for chat in sorted(chats, key=lambda c: c.updated_at, reverse=True):
            title = chat.title or self.tr("Untitled chat")
            when = chat.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")
            item = QListWidgetItem(f"{title}\n{when} · " + self.tr("%n message(s)", "", chat.messages))
            item.setData(Qt.ItemDataRole.UserRole, chat.id)
            item.setToolTip(title)
            self.list.addItem(item)
            if chat.id == self._current:
                item.setSelected(True)

    def set_current(self, chat_id: int | None) -> None:
        self._current = chat_id
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setSelected(item.data(Qt.ItemDataRole.UserRole) == chat_id)

    def _open(self, item: QListWidgetItem) -> None:
        chat_id = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(chat_id, int) and chat_id != self._current:
            self.open_requested.emit(chat_id)

    def _delete(self) -> None:
        items = self.list.selectedItems()
        if items:
            chat_id = items[0].data(Qt.ItemDataRole.UserRole)
            if isinstance(chat_id, int):
                self.delete_requested.emit(chat_id)
