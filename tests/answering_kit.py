"""Build an Answerer from its real parts (settings owner, conversation store, model slot), for the
tests that drive the question pipeline without the whole facade."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from app.core.answering.pipeline.model_slot import ModelSlot
from app.core.answering.pipeline.pipeline import Answerer, answer_of
from app.core.answering.pipeline.stages import Search
from app.core.answering.types import Answer, AskOptions, Delta
from app.core.config import Settings, SettingsOwner
from app.core.generate.engine import Engine
from app.core.store.conversations import ConversationStore


def make_answerer(
    settings: Settings, sessions: sessionmaker[Session], search: Search, engine: Engine | None = None
) -> Answerer:
    owner = SettingsOwner(settings)
    return Answerer(owner, ConversationStore(sessions), search, ModelSlot(owner, engine))


def ask(
    answerer: Answerer,
    question: str,
    options: AskOptions | None = None,
    chat_id: int | None = None,
    on_delta: Callable[[Delta], None] | None = None,
) -> Answer:
    """The finished answer of one question (Folio.ask's collection of the event stream)."""
    return answer_of(answerer.ask_stream(question, options, chat_id), on_delta)
