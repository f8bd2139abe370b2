"""What an embedding engine provides, and which engine reads a given model folder."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from app.core.errors import ModelError
from app.core.messages import QT_TRANSLATE_NOOP

Vectors = npt.NDArray[np.float32]
# A model folder that is not a sentence-transformers one names its engine in this file.
ENGINE_FILE = "folio-embedder.json"


@dataclass(frozen=True)
class CosineScales:
    """Where one model's cosines mean no evidence (floor) and full evidence (ceiling): of a question
    with a passage or passage sentence (the grounding gate, evidence selection, the located
    sentences) and of an answer sentence with a passage (attribution). Each model has its own: a
    model's cosines sit where its training put them (benchmarks/calibrate_gate.py and
    calibrate_attribution.py fit them; benchmarks/README.md, "Cosine scales")."""

    gate_floor: float
    gate_ceiling: float
    attribution_floor: float
    attribution_ceiling: float
    cjk_questions: bool  # a Chinese question's cosine says something (a model trained on Chinese)


class Engine(Protocol):
    """One loaded model; the Embedder facade serialises calls, so an engine need not be thread-safe."""

    multilingual: bool  # trained on Chinese and English alike (retrieve.py ranks per script then)
    scales: CosineScales  # how its cosines read as evidence

    def load(self) -> None: ...

    @property
    def dimension(self) -> int: ...

    @property
    def max_tokens(self) -> int: ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...

    def split_by_tokens(self, text: str, max_tokens: int) -> list[tuple[int, int]]: ...

    def embed(self, texts: Sequence[str], query: bool, threads: int | None) -> Vectors: ...


def engine_spec(model_dir: Path) -> dict[str, object] | None:
    """The folder's ENGINE_FILE as a dict, or None when it has none; ModelError when unreadable."""
    path = model_dir / ENGINE_FILE
    if not path.is_file():
        return None
    try:
        spec = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(QT_TRANSLATE_NOOP("Core", "cannot read {0}: {1}"), path, exc) from exc
    if not isinstance(spec, dict) or not isinstance(spec.get("engine"), str):
        raise ModelError(QT_TRANSLATE_NOOP("Core", "{0} does not name an engine"), path)
    return spec


def is_model_folder(model_dir: Path) -> bool:
    """True for a folder one of the engines reads: one whose ENGINE_FILE names it, or a
    sentence-transformers model."""
    from app.core.embed.st_backend import SentenceTransformerEngine

    return (model_dir / ENGINE_FILE).is_file() or SentenceTransformerEngine.recognizes(model_dir)


def open_engine(model_dir: Path, batch_size: int, precision: str) -> Engine:
    """The engine for a model folder: the one its ENGINE_FILE names, else sentence-transformers."""
    from app.core.embed.st_backend import SentenceTransformerEngine

    spec = engine_spec(model_dir)
    if spec is not None:
        if spec["engine"] == "usem3":
            from app.core.embed.usem3_backend import UseM3Engine

            return UseM3Engine(model_dir, spec)
        raise ModelError(
            QT_TRANSLATE_NOOP("Core", "embedding model folder {0} names an unknown engine {1!r}"),
            model_dir,
            spec["engine"],
        )
    if not SentenceTransformerEngine.recognizes(model_dir):
        raise ModelError(
            QT_TRANSLATE_NOOP(
                "Core",
                "embedding model folder {0} is missing or is not a sentence-transformers model",
            ),
            model_dir,
        )
    return SentenceTransformerEngine(model_dir, batch_size, precision)
