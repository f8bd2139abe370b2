"""Chats in the store: each answer saved with its trace, past turns read back, chats listed and deleted."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table, func, insert, select
from sqlalchemy.orm import Session, sessionmaker

from app.core.errors import UsageError
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.passage import Citation
from app.core.store.base import utcnow
from app.core.store.chats import Chat, Message, Trace

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


@dataclass(frozen=True)
class Turn:
    """A question and its complete answer in a chat, with the answer's trace (its budget says
    which passages its prompt showed, and how)."""

    question: str
    answer: str
    trace: dict[str, Any]


@dataclass(frozen=True)
class AnswerRecord:
    """What is saved of one answer: plain data, whatever layer produced it."""

    question: str
    text: str
    thinking: str
    finish_reason: str
    citations: list[Citation]
    trace: dict[str, Any] = field(default_factory=dict)


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


class ConversationStore:
    """Chats, messages and traces of one library."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def exists(self, chat_id: int) -> bool:
        with self.sessions() as session:
            return session.get(Chat, chat_id) is not None

    def turns(self, chat_id: int) -> list[Turn]:
        """The chat's questions with their complete answers and traces, oldest first (an answer
        that was cut off, cancelled or failed is left out with its question; never thinking)."""
        turns: list[Turn] = []
        with self.sessions() as session:
            chat = session.get(Chat, chat_id)
            if chat is None:
                return turns
            question: str | None = None
            for message in chat.messages:
                if message.role == "user":
                    question = message.content
                elif message.role == "assistant" and question is not None:
                    if message.finish_reason == "stop" and message.content.strip():
                        trace = dict(message.trace.data) if message.trace is not None else {}
                        turns.append(Turn(question, message.content, trace))
                    question = None
        return turns

    def save(self, record: AnswerRecord, chat_id: int | None) -> tuple[int, int]:
        """Store the question, the answer (marked by its finish reason) and its trace in one
        transaction; a new chat is created when `chat_id` is None or gone. Returns (chat, message)."""
        with self.sessions.begin() as session:
            chat = session.get(Chat, chat_id) if chat_id is not None else None
            if chat is None:
                chat = Chat(title=record.question[:TITLE_CHARS])
                session.add(chat)
            elif not chat.title:
                chat.title = record.question[:TITLE_CHARS]
            chat.updated_at = utcnow()
            session.add(Message(chat=chat, role="user", content=record.question))
            reply = Message(
                chat=chat,
                role="assistant",
                content=record.text,
                thinking=record.thinking,
                finish_reason=record.finish_reason,
                citations=[citation.to_json() for citation in record.citations],
            )
            session.add(reply)
            session.flush()
            trace = dict(record.trace)
            trace["chat_id"], trace["message_id"] = chat.id, reply.id
            session.add(Trace(message=reply, data=trace))
            session.flush()
            return chat.id, reply.id

    def summaries(self) -> list[ChatSummary]:
        """Every chat, most recently updated first."""
        with self.sessions() as session:
            counts = select(Message.chat_id, func.count(Message.id)).group_by(Message.chat_id).subquery()
            rows = session.execute(
                select(Chat, counts.c[1])
                .outerjoin(counts, counts.c.chat_id == Chat.id)
                .order_by(Chat.updated_at.desc(), Chat.id.desc())
            ).all()
            return [ChatSummary(c.id, c.title, c.created_at, c.updated_at, int(n or 0)) for c, n in rows]

    def title(self, chat_id: int) -> str:
        with self.sessions() as session:
            chat = session.get(Chat, chat_id)
            if chat is None:
                raise UsageError(f"no chat with id {chat_id}")
            return chat.title

    def messages(self, chat_id: int) -> list[StoredMessage]:
        with self.sessions() as session:
            chat = session.get(Chat, chat_id)
            if chat is None:
                raise UsageError(QT_TRANSLATE_NOOP("Core", "no chat with id {0}"), chat_id)
            return [to_stored(message) for message in chat.messages]

    def create(self, title: str = "") -> int:
        with self.sessions.begin() as session:
            chat = Chat(title=title.strip())
            session.add(chat)
            session.flush()
            return chat.id

    def delete(self, chat_id: int) -> None:
        with self.sessions.begin() as session:
            chat = session.get(Chat, chat_id)
            if chat is None:
                raise UsageError(QT_TRANSLATE_NOOP("Core", "no chat with id {0}"), chat_id)
            session.delete(chat)

    def copy_from(self, other: ConversationStore) -> int:
        """Every chat of `other`, with its messages and traces and their ids, into this store (a
        library re-indexed from `other`'s keeps its chats); returns the number of chats."""
        tables: list[Table] = [Chat.__table__, Message.__table__, Trace.__table__]  # type: ignore[list-item]
        with other.sessions() as source, self.sessions.begin() as target:
            for table in tables:
                rows = [dict(row._mapping) for row in source.execute(select(table))]
                if rows:
                    target.execute(insert(table), rows)
            return int(target.scalar(select(func.count()).select_from(Chat)) or 0)
