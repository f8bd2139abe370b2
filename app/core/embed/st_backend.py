"""The sentence-transformers engine: any local sentence-transformers folder, on torch."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.core.embed.engine import CosineScales, Vectors
from app.core.errors import ModelError
from app.core.messages import QT_TRANSLATE_NOOP

# Fitted for all-MiniLM-L6-v2 (the gate's on the eval, attribution's on the labelled sentences);
# its cosines of Chinese text sit high whatever the text says, so they do not count for a
# Chinese question.
MINILM_SCALES = CosineScales(
    gate_floor=0.2, gate_ceiling=0.6, attribution_floor=0.4, attribution_ceiling=0.6, cjk_questions=False
)


class SentenceTransformerEngine:
    """Loads a sentence-transformers folder on first use; fp32, or bf16 autocast when asked."""

    multilingual = False  # the bundled all-MiniLM-L6-v2 is English-only; a user's folder is not known
    scales = MINILM_SCALES  # a user's folder gets MiniLM's, the sentence-transformers model Folio ships

    def __init__(self, model_dir: Path, batch_size: int, precision: str) -> None:
        self.model_dir = model_dir
        self.batch_size = batch_size
        self.precision = precision
        self._model: Any = None

    @staticmethod
    def recognizes(model_dir: Path) -> bool:
        """True for a folder holding a sentence-transformers (or plain transformers) model."""
        return (model_dir / "modules.json").is_file() or (model_dir / "config.json").is_file()

    def load(self) -> None:
        if self._model is not None:
            return
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        try:
            self._model = SentenceTransformer(str(self.model_dir), device="cpu", local_files_only=True)
        except Exception as exc:  # any load failure is the user's model folder
            raise ModelError(
                QT_TRANSLATE_NOOP("Core", "cannot load embedding model {0}: {1}"), self.model_dir, exc
            ) from exc

    @property
    def dimension(self) -> int:
        getter = getattr(self._model, "get_embedding_dimension", None)
        return int((getter or self._model.get_sentence_embedding_dimension)())

    @property
    def max_tokens(self) -> int:
        return int(self._model.max_seq_length)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        encoded = self._model.tokenizer(list(texts), add_special_tokens=False, truncation=False)["input_ids"]
        return [len(ids) for ids in encoded]

    def split_by_tokens(self, text: str, max_tokens: int) -> list[tuple[int, int]]:
        offsets = self._model.tokenizer(
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

    def embed(self, texts: Sequence[str], query: bool, threads: int | None) -> Vectors:
        del query  # a symmetric model: queries and passages are embedded alike
        limit = _torch_threads(threads) if threads else contextlib.nullcontext()
        arithmetic = _bf16_autocast() if self.precision == "bf16" else contextlib.nullcontext()
        with limit, arithmetic:
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)


@contextlib.contextmanager
def _torch_threads(count: int) -> Iterator[None]:
    import torch

    before = torch.get_num_threads()
    if before == count:
        yield
        return
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@contextlib.contextmanager
def _bf16_autocast() -> Iterator[None]:
    import torch

    with torch.autocast("cpu", dtype=torch.bfloat16):
        yield
