"""The labelled attribution set (tests/core/data/attribution_pairs.json) and its precision/recall."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from app.core.answering.judge.attribution import CALIBRATION, Calibration, attribute
from app.core.embed.engine import CosineScales

DATA = Path(__file__).parent / "data" / "attribution_pairs.json"


@dataclass(frozen=True)
class Case:
    topic: str
    language: str
    sentence: str
    label: str  # supported, unsupported, refusal, connective
    passages: tuple[int, ...]  # the passage(s) that support a supported sentence, together
    note: str


def load_cases() -> tuple[dict[str, list[str]], list[Case]]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    cases = [
        Case(
            item["topic"],
            item["topic"].rsplit("_", 1)[1],
            item["sentence"],
            item["label"],
            _passages(item.get("passage")),
            item.get("note", ""),
        )
        for item in data["cases"]
    ]
    return data["topics"], cases


def _passages(value: int | list[int] | None) -> tuple[int, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


class CachedEmbedder:
    """Embeds each distinct text once with `embed` (the real embedder), so a calibration grid is cheap."""

    def __init__(self, embed: Callable[[list[str]], Any]) -> None:
        self._embed = embed
        self._cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, vector in zip(missing, np.asarray(self._embed(missing)), strict=True):
                self._cache[text] = vector
        return np.stack([self._cache[t] for t in texts])


def evaluate(
    topics: dict[str, list[str]],
    cases: Sequence[Case],
    *,
    embed: CachedEmbedder | None = None,
    scales: CosineScales | None = None,
    calibration: Calibration = CALIBRATION,
) -> dict[str, Any]:
    """Precision and recall of `supported` (a supported verdict counts only with the right passage),
    per language and overall, the kind accuracy for refusals and connectives, and the misses."""
    counts: dict[str, dict[str, int]] = {}
    misses: list[str] = []
    for case in cases:
        passages = topics[case.topic]
        vectors = embed(passages) if embed is not None else None
        result = attribute(
            case.sentence,
            passages,
            passage_vectors=vectors,
            embed=embed,
            scales=scales,
            calibration=calibration,
        )
        assert len(result.sentences) == 1, case.sentence
        check = result.sentences[0]
        for key in (case.language, "all"):
            tally = counts.setdefault(key, {"tp": 0, "fp": 0, "positives": 0, "kinds": 0, "kinds_right": 0})
            if case.label in ("refusal", "connective"):
                tally["kinds"] += 1
                tally["kinds_right"] += check.kind == case.label
                continue
            right = check.supported is True and check.citations == case.passages
            tally["positives"] += case.label == "supported"
            tally["tp"] += case.label == "supported" and right
            tally["fp"] += bool(check.supported) and not (case.label == "supported" and right)
        wrong = (
            check.kind != case.label
            if case.label in ("refusal", "connective")
            else bool(check.supported) != (case.label == "supported")
            or (case.label == "supported" and check.citations != case.passages)
        )
        if wrong:
            cited = list(check.citations)
            misses.append(
                f"{case.label:11} {check.support:.2f} cited={cited} kind={check.kind} {case.sentence}"
            )
    report: dict[str, Any] = {}
    for key, tally in counts.items():
        predicted = tally["tp"] + tally["fp"]
        report[key] = {
            "precision": round(tally["tp"] / predicted, 3) if predicted else None,
            "recall": round(tally["tp"] / tally["positives"], 3) if tally["positives"] else None,
            "supported_cases": tally["positives"],
            "kind_accuracy": round(tally["kinds_right"] / tally["kinds"], 3) if tally["kinds"] else None,
        }
    report["misses"] = misses
    return report
