"""What the answering pipeline needs of a chat engine, and the one that Settings choose."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import Protocol

from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.generate.engine import Engine
from app.core.generate.model import ChatRequest, ModelInfo, Sampling
from app.core.generate.remote import RemoteEngine
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.server_key import key_for


class ChatEngine(Protocol):
    """The llama.cpp Engine in this process, or a RemoteEngine on a server."""

    lock: threading.Lock
    n_ctx: int
    continues: bool  # it can continue an answer from text written into the assistant turn

    @property
    def model_ref(self) -> str: ...

    @property
    def model_name(self) -> str: ...

    @property
    def loaded(self) -> bool: ...

    def matches(self, settings: Settings) -> bool: ...

    def load(self) -> ModelInfo: ...

    def info(self) -> ModelInfo | None: ...

    def close(self) -> None: ...

    def count_tokens(self, text: str) -> int: ...

    def text_tokens(self, text: str) -> list[int]: ...

    def tokenize_prompt(self, prompt: str) -> list[int]: ...

    def render_chat(self, messages: Sequence[dict[str, str]], enable_thinking: bool) -> str: ...

    def opens_thinking(self, prompt: str) -> bool: ...

    def escape_special(self, text: str) -> str: ...

    def cached_prefix(self, tokens: Sequence[int]) -> int: ...

    def prime(self, tokens: Sequence[int]) -> int: ...

    @property
    def known_prefill_rate(self) -> float | None: ...

    def prefill_rate(self) -> float | None: ...

    def stream(
        self,
        tokens: Sequence[int],
        sampling: Sampling,
        cancel: CancelToken | None = None,
        stops: Sequence[str] = (),
        start_thinking: bool = False,
        grammar: str | None = None,
        continuing: bool = False,
        chat: ChatRequest | None = None,
    ) -> Iterator[TokenStep | GenerationEnd]: ...


def engine_for(settings: Settings) -> ChatEngine:
    """The engine these settings name: a server's model when a server is set (its key from
    FOLIO_API_KEY or the key store), else the GGUF file on this computer. Nothing connects yet."""
    if settings.uses_server:
        return RemoteEngine.from_settings(settings, key_for(settings.server_url))
    return Engine.from_settings(settings)
