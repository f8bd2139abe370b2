"""One question asked of a new library through folio.answering.ask_stream, with every event kept."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.answering.types import Answer, AnswerEvent, AskOptions, Delta, Finished, Replaced
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.services import build_services


@dataclass(frozen=True)
class AskedOnce:
    """The events of one answer, the answer and the chat's stored copy of it."""

    events: list[AnswerEvent]
    answer: Answer
    stored: Answer  # as the chat reads it back

    @property
    def replaced(self) -> list[Replaced]:
        return [e for e in self.events if isinstance(e, Replaced)]

    def streamed(self, start: int = 0, end: int | None = None) -> str:
        """The answer text the events streamed between two event positions."""
        return "".join(
            e.text for e in self.events[start:end] if isinstance(e, Delta) and e.channel == "answer"
        )


def ask_once(
    settings: Settings, library: Path, embedder: Embedder, document: Path, question: str
) -> AskedOnce:
    """`document` ingested into a new library at `library`, then `question` asked (greedy, at most
    96 tokens) in a new chat."""
    folio = build_services(settings, library, embedder=embedder)
    try:
        assert not folio.library.ingest([document]).failed
        events = list(folio.answering.ask_stream(question, AskOptions(temperature=0.0, max_tokens=96)))
        final = events[-1]
        assert isinstance(final, Finished)
        assert final.answer.chat_id is not None
        stored = folio.chats.answers(final.answer.chat_id)[-1]
    finally:
        folio.close()
    return AskedOnce(events, final.answer, stored)
