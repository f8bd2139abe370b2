"""Chats in the store: past turns for the prompt, and each answer saved with its trace."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session, sessionmaker

from app.core.prompt.budget import HistoryTurn
from app.core.prompt.citations import Citation
from app.core.store.base import utcnow
from app.core.store.chats import Chat, Message, Trace

if TYPE_CHECKING:
    from app.core.answer import Answer

TITLE_CHARS = 80


@dataclass(frozen=True)
class ChatSummary:
    """A chat as a list shows it."""

    id: int
    title: str
    created_at: datetime
    updated_at: datetime
    messages: int


@dataclass(frozen=True)
class StoredMessage:
    """A saved question or answer; an answer that did not finish with "stop" is not complete."""

    id: int
    role: str
    content: str
    thinking: str
    finish_reason: str | None
    citations: list[Citation]
    created_at: datetime
    trace: dict[str, Any] | None

    @property
    def complete(self) -> bool:
        return self.role != "assistant" or self.finish_reason == "stop"


def to_stored(message: Message) -> StoredMessage:
    return StoredMessage(
        id=message.id,
        role=message.role,
        content=message.content,
        thinking=message.thinking,
        finish_reason=message.finish_reason,
        citations=[Citation.from_json(dict(c)) for c in (message.citations or [])],
        created_at=message.created_at,
        trace=dict(message.trace.data) if message.trace is not None else None,
    )


def chat_turns(sessions: sessionmaker[Session], chat_id: int) -> list[HistoryTurn]:
    """Question/answer pairs of a chat, oldest first; only complete answers, never their thinking."""
    turns: list[HistoryTurn] = []
    with sessions() as session:
        chat = session.get(Chat, chat_id)
        if chat is None:
            return turns
        question: str | None = None
        for message in chat.messages:
            if message.role == "user":
                question = message.content
            elif message.role == "assistant" and question is not None:
                if message.finish_reason == "stop" and message.content.strip():
                    turns.append(HistoryTurn(question, message.content))
                question = None
    return turns


def save_answer(sessions: sessionmaker[Session], answer: Answer, chat_id: int | None) -> tuple[int, int]:
    """Store the question, the answer (marked by its finish reason) and its trace in one transaction."""
    with sessions.begin() as session:
        chat = session.get(Chat, chat_id) if chat_id is not None else None
        if chat is None:
            chat = Chat(title=answer.question[:TITLE_CHARS])
            session.add(chat)
        elif not chat.title:
            chat.title = answer.question[:TITLE_CHARS]
        chat.updated_at = utcnow()
        session.add(Message(chat=chat, role="user", content=answer.question))
        reply = Message(
            chat=chat,
            role="assistant",
            content=answer.answer,
            thinking=answer.thinking,
            finish_reason=answer.finish_reason,
            citations=[citation.to_json() for citation in answer.citations],
        )
        session.add(reply)
        session.flush()
        trace = answer.trace()
        trace["chat_id"], trace["message_id"] = chat.id, reply.id
        session.add(Trace(message=reply, data=trace))
        session.flush()
        return chat.id, reply.id
