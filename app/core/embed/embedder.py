"""The sentence-transformers embedder: lazy load from a local folder, token counting, embedding."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.embed.identity import model_identity
from app.core.embed.precision import resolve_precision
from app.core.errors import ModelError

Vectors = npt.NDArray[np.float32]
# A call with at most this many texts (a query; an answer's or the passages' sentences) runs on one
# torch thread. With the other core busy (a PDF being parsed, another process), two threads wait on
# each other and a query takes many times longer than on one (benchmarks/README.md, "Retrieval at
# scale"). Ingestion batches are larger and keep every thread.
FEW_TEXTS = 48


class Embedder:
    """Embeds passages and queries; counts and splits text in the model's own word pieces.

    Nothing is imported or loaded until first use, so the app starts fast. Offline only: the
    folder must hold a complete sentence-transformers model.
    """

    def __init__(self, model_dir: Path, batch_size: int = 32, precision: str = "auto") -> None:
        self.model_dir = model_dir
        self.name = model_dir.name
        self.batch_size = batch_size
        self.precision = resolve_precision(precision)  # "fp32" or "bf16" (embed/precision.py)
        self._model: Any = None
        self._identity: str | None = None
        self._lock = threading.Lock()
        # The fast tokenizer is not thread-safe ("Already borrowed"): the ingest and answer
        # workers take turns for each tokenize or encode call.
        self._use_lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                if (
                    not (self.model_dir / "modules.json").is_file()
                    and not (self.model_dir / "config.json").is_file()
                ):
                    raise ModelError(
                        f"embedding model folder {self.model_dir} is missing or is not a "
                        "sentence-transformers model"
                    )
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]

                try:
                    self._model = SentenceTransformer(
                        str(self.model_dir), device="cpu", local_files_only=True
                    )
                except Exception as exc:  # any load failure is the user's model folder
                    raise ModelError(f"cannot load embedding model {self.model_dir}: {exc}") from exc
            return self._model

    @property
    def identity(self) -> str:
        """Hash of the model's weights and config (the same model in any folder gives the same)."""
        if self._identity is None:
            try:
                self._identity = model_identity(self.model_dir)
            except (OSError, ValueError) as exc:
                raise ModelError(f"cannot read embedding model {self.model_dir}: {exc}") from exc
        return self._identity

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        self._load()

    @property
    def dimension(self) -> int:
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    @property
    def max_tokens(self) -> int:
        """Word pieces per input the model reads, special tokens included; the rest is cut off."""
        return int(self._load().max_seq_length)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Word pieces per text, without the special tokens the model adds."""
        if not texts:
            return []
        tokenizer = self._load().tokenizer
        with self._use_lock:
            encoded = tokenizer(list(texts), add_special_tokens=False, truncation=False)["input_ids"]
        return [len(ids) for ids in encoded]

    def split_by_tokens(self, text: str, max_tokens: int) -> list[tuple[int, int]]:
        """Cut `text` into [start, end) character spans of at most `max_tokens` word pieces."""
        tokenizer = self._load().tokenizer
        with self._use_lock:
            offsets = tokenizer(
                text, add_special_tokens=False, truncation=False, return_offsets_mapping=True
            )["offset_mapping"]
        if not offsets:
            return [(0, len(text))] if text.strip() else []
        spans: list[tuple[int, int]] = []
        for first in range(0, len(offsets), max_tokens):
            window = offsets[first : first + max_tokens]
            start = window[0][0] if first else 0
            next_start = offsets[first + max_tokens][0] if first + max_tokens < len(offsets) else len(text)
            spans.append((start, next_start))
        return spans

    def embed(self, texts: Sequence[str]) -> Vectors:
        """L2-normalised float32 vectors, one row per text (inner product = cosine)."""
        dim = self.dimension
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        model = self._load()
        threads = _one_thread() if len(texts) <= FEW_TEXTS else contextlib.nullcontext()
        with self._use_lock, threads, self._arithmetic():
            vectors = model.encode(
                list(texts),
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def _arithmetic(self) -> contextlib.AbstractContextManager[None]:
        """bfloat16 autocast for the encoder's matrix products, or nothing (float32)."""
        if self.precision != "bf16":
            return contextlib.nullcontext()
        return _bf16_autocast()


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    import torch

    before = torch.get_num_threads()
    if before == 1:
        yield
        return
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@contextlib.contextmanager
def _bf16_autocast() -> Iterator[None]:
    import torch

    with torch.autocast("cpu", dtype=torch.bfloat16):
        yield
