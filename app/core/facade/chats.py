"""The chats facade: list, open, start, delete and export the saved chats."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core.store.conversations import ChatSummary, ConversationStore

if TYPE_CHECKING:
    from app.core.answering.types import Answer


class Chats:
    """The saved chats of one library; listing or opening one never builds the answering pipeline."""

    def __init__(self, conversations: ConversationStore) -> None:
        self.conversations = conversations

    def summaries(self) -> list[ChatSummary]:
        """Every chat, with its title, dates and answer count."""
        return self.conversations.summaries()

    def answers(self, chat_id: int) -> list[Answer]:
        """The answers of a chat, oldest first, each with its question, citations and figures."""
        from app.core.answering.types import chat_answers

        return chat_answers(self.conversations.messages(chat_id))

    def export(
        self, chat_id: int, fmt: str = "md", translate: Callable[[str, str], str] | None = None
    ) -> str:
        """The chat as Markdown ("md") or one self-contained HTML file ("html"): every answer with
        its question's date, model, verdict and sources (answering/presentation/export.py); its
        words through `translate` (the front end's language; English without one)."""
        from app.core.answering.presentation.export import check_format, render_chat
        from app.core.answering.presentation.export_rows import as_written

        fmt = check_format(fmt)
        return render_chat(
            self.conversations.title(chat_id), self.answers(chat_id), fmt, translate or as_written
        )

    def new(self, title: str = "") -> int:
        return self.conversations.create(title)

    def delete(self, chat_id: int) -> None:
        self.conversations.delete(chat_id)
