"""The embedder: lazy load from a local folder, token counting, embedding, over one of two engines."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from app.core.embed.engine import CosineScales, Engine, Vectors, open_engine
from app.core.embed.identity import model_identity
from app.core.embed.precision import resolve_precision
from app.core.errors import ModelError
from app.core.messages import QT_TRANSLATE_NOOP

__all__ = ["FEW_TEXTS", "Embedder", "Vectors"]

# A call with at most this many texts (a query; an answer's or the passages' sentences) runs on one
# thread. With the other core busy (a PDF being parsed, another process), two threads wait on
# each other and a query takes many times longer than on one (benchmarks/README.md, "Retrieval at
# scale"). Ingestion batches are larger and keep every thread.
FEW_TEXTS = 48


class Embedder:
    """Embeds passages and queries; counts and splits text in the model's own word pieces.

    Nothing is imported or loaded until first use, so the app starts fast. Offline only: the
    folder holds a complete sentence-transformers model, or a model whose folio-embedder.json
    names another engine (embed/engine.py).
    """

    def __init__(self, model_dir: Path, batch_size: int = 32, precision: str = "auto") -> None:
        self.model_dir = model_dir
        self.name = model_dir.name
        self.batch_size = batch_size
        self.precision = resolve_precision(precision)  # "fp32" or "bf16" (embed/precision.py)
        self._engine: Engine | None = None
        self._identity: str | None = None
        self._lock = threading.Lock()
        # The engines are not thread-safe (the fast tokenizer says "Already borrowed"; the numpy
        # encoder sets its BLAS threads per call): the ingest and answer workers take turns.
        self._use_lock = threading.Lock()

    def _load(self) -> Engine:
        with self._lock:
            if self._engine is None:
                engine = open_engine(self.model_dir, self.batch_size, self.precision)
                engine.load()
                self._engine = engine
            return self._engine

    @property
    def identity(self) -> str:
        """Hash of the model's weights and config (the same model in any folder gives the same)."""
        if self._identity is None:
            try:
                self._identity = model_identity(self.model_dir)
            except (OSError, ValueError) as exc:
                raise ModelError(
                    QT_TRANSLATE_NOOP("Core", "cannot read embedding model {0}: {1}"), self.model_dir, exc
                ) from exc
        return self._identity

    @property
    def loaded(self) -> bool:
        return self._engine is not None

    def load(self) -> None:
        self._load()

    @property
    def multilingual(self) -> bool:
        """True when the model embeds Chinese and English alike (its engine says so)."""
        return self._load().multilingual

    @property
    def scales(self) -> CosineScales:
        """Where this model's cosines mean no evidence and full evidence (its engine's)."""
        return self._load().scales

    @property
    def dimension(self) -> int:
        return self._load().dimension

    @property
    def max_tokens(self) -> int:
        """Word pieces per input the model reads, special tokens included; the rest is cut off."""
        return self._load().max_tokens

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Word pieces per text, without the special tokens the model adds."""
        if not texts:
            return []
        engine = self._load()
        with self._use_lock:
            return engine.count_tokens(texts)

    def split_by_tokens(self, text: str, max_tokens: int) -> list[tuple[int, int]]:
        """Cut `text` into [start, end) character spans of at most `max_tokens` word pieces."""
        engine = self._load()
        with self._use_lock:
            return engine.split_by_tokens(text, max_tokens)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """L2-normalised float32 vectors of texts to be searched, one row per text (inner product =
        cosine). Passages, and the sentences compared with them."""
        return self._embed(texts, query=False)

    def embed_query(self, texts: Sequence[str]) -> Vectors:
        """As `embed`, for search queries (a model trained with a query prefix gets it here)."""
        return self._embed(texts, query=True)

    def _embed(self, texts: Sequence[str], query: bool) -> Vectors:
        engine = self._load()
        if not texts:
            return np.zeros((0, engine.dimension), dtype=np.float32)
        threads = 1 if len(texts) <= FEW_TEXTS else None
        with self._use_lock:
            vectors = engine.embed(list(texts), query, threads)
        return np.ascontiguousarray(vectors, dtype=np.float32)
