"""Model-level value types: sampling parameters, what a loaded model is, and file checks."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.core.config import Settings
from app.core.errors import ModelError
from app.core.messages import QT_TRANSLATE_NOOP

GGUF_MAGIC = b"GGUF"
_DEFAULTS = Settings()  # Sampling's defaults are the settings' defaults


@dataclass(frozen=True)
class Sampling:
    """How tokens are picked; temperature 0 means greedy."""

    temperature: float = _DEFAULTS.temperature
    top_k: int = _DEFAULTS.top_k
    top_p: float = _DEFAULTS.top_p
    min_p: float = _DEFAULTS.min_p
    repeat_penalty: float = _DEFAULTS.repeat_penalty
    seed: int = _DEFAULTS.seed
    max_tokens: int = _DEFAULTS.max_tokens

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sampling:
        known = set(cls.__dataclass_fields__)
        return cls(**{key: value for key, value in data.items() if key in known})


@dataclass(frozen=True)
class ChatRequest:
    """The chat messages a prompt's tokens render, for an engine that renders them itself (a server)."""

    messages: tuple[dict[str, str], ...]
    enable_thinking: bool


@dataclass(frozen=True)
class ModelInfo:
    """A loaded chat model, as the GUI and the answer JSON describe it."""

    name: str
    path: str
    n_ctx: int
    n_ctx_train: int
    supports_thinking: bool
    thinking_reason: str
    chat_template: str  # "gguf" or "chatml" (fallback)
    n_threads: int
    server: str = ""  # the base URL of the server that runs the model; "" on this computer
    tokenizer: str = "exact"  # "exact", or how the budget counts without the model's own tokenizer
    # the KV cache on this computer (generate/kv_cache.py); None and () for a server's model
    kv_cache_type: str | None = None
    kv_cache_bytes: int | None = None  # for n_ctx tokens, from the GGUF header
    kv_cache_types: tuple[str, ...] = ()  # the types llama.cpp takes for this model

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_model_file(path: Path) -> None:
    """Raise ModelError naming the file unless it exists and starts like a GGUF file."""
    if not path.exists():
        raise ModelError(QT_TRANSLATE_NOOP("Core", "model file not found: {0}"), path)
    if not path.is_file():
        raise ModelError(QT_TRANSLATE_NOOP("Core", "model path is not a file: {0}"), path)
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ModelError(QT_TRANSLATE_NOOP("Core", "cannot read the model file {0}: {1}"), path, exc) from exc
    if magic != GGUF_MAGIC:
        raise ModelError(QT_TRANSLATE_NOOP("Core", "not a GGUF model file: {0}"), path)
