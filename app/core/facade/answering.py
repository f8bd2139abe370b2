"""The answering facade: ask (streamed or whole), load the chat model, say which is loaded."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from app.core.cancel import CancelToken
from app.core.facade.lazy import Lazy

if TYPE_CHECKING:
    from app.core.answering.pipeline.model_slot import ModelSlot
    from app.core.answering.pipeline.pipeline import Answerer
    from app.core.answering.types import Answer, AnswerEvent, AskOptions, Delta
    from app.core.generate.model import ModelInfo


class Answering:
    """Questions over the library with the chat model. The model slot and the pipeline are built
    at first use by the providers the composition root hands over (app/core/services.py)."""

    def __init__(self, answerer: Lazy[Answerer], slot: Lazy[ModelSlot]) -> None:
        self._answerer = answerer
        self._slot = slot

    @property
    def answerer(self) -> Answerer:
        """The answering pipeline (built at first use)."""
        return self._answerer.get()

    @property
    def model_slot(self) -> ModelSlot:
        """The chat model in use and the one pending after a settings change (built at first use)."""
        return self._slot.get()

    def load_model(self) -> ModelInfo:
        """Load the configured chat model (slow the first time; a failed new model keeps the old),
        then cache the opening every answer's prompt shares, which the first question then reuses."""
        slot = self.model_slot
        info = slot.load()
        slot.prime()
        return info

    def model_info(self) -> ModelInfo | None:
        slot = self._slot.peek()
        return slot.info() if slot is not None else None

    def ask_stream(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterator[AnswerEvent]:
        """Validate now (UsageError), then stream the events of one answer: Retrieved, Delta…,
        Metrics…, Finished. The answer is saved in its chat (a new chat when `chat_id` is None)."""
        return self.answerer.ask_stream(question, options, chat_id, cancel)

    def ask(
        self,
        question: str,
        options: AskOptions | None = None,
        chat_id: int | None = None,
        cancel: CancelToken | None = None,
        on_delta: Callable[[Delta], None] | None = None,
    ) -> Answer:
        """Answer and return the finished Answer; `on_delta` sees the text as it streams."""
        from app.core.answering.pipeline.pipeline import answer_of

        return answer_of(self.ask_stream(question, options, chat_id, cancel), on_delta)

    def close(self) -> None:
        slot = self._slot.peek()
        if slot is not None:
            slot.close()
