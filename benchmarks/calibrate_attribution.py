"""Fit the attribution weights and thresholds on the labelled sentence set, and report precision/recall.

Usage: .venv/bin/python benchmarks/calibrate_attribution.py [--no-embedder] [--embedder DIR]
Grid-searches app.core.answering.judge.attribution.Calibration on tests/core/data/attribution_pairs.json
for the best F0.5 of "supported" (right passage required; precision counts double): first the lexical
weights and threshold (no vectors), then the embedding mix, the embedder's cosine scale
(CosineScales.attribution_floor/ceiling, embed/engine.py) and its threshold (real vectors of --embedder,
default all-MiniLM-L6-v2). Reports the fit on the whole set and leave-one-topic-out figures (each topic
scored with weights fitted on the others). Prints the figures and writes
benchmarks/results/attribution_calibration[-EMBEDDER].json. Never run by the test suite.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.answering.judge.attribution import CALIBRATION, Calibration, attribute  # noqa: E402
from app.core.embed.engine import CosineScales  # noqa: E402
from tests.core.attribution_cases import CachedEmbedder, Case, evaluate, load_cases  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "attribution_calibration.json"
BETA = 0.5  # precision weighs twice as much as recall
THRESHOLDS = [round(0.25 + 0.025 * i, 3) for i in range(15)]  # 0.25 … 0.6
LEXICAL_GRID = {
    "number_boost": [1.0, 1.5, 2.0],
    "missing_here": [0.2, 0.35, 0.5, 0.65],
    "missing_everywhere": [0.5, 0.65, 0.8],
}
# CJK sentences get no embedding share: all-MiniLM-L6-v2 is an English model and its cosines for
# Chinese sentences sit between 0.4 and 0.9 whatever the passage (see "cosines" in the results).
# The cosine grid spans both embedders' scales (USE's cosines sit lower than MiniLM's).
EMBEDDING_GRID = {
    "embedding_share": [0.0, 0.1, 0.2, 0.3, 0.5],
    "cosine_floor": [0.1, 0.2, 0.3, 0.4, 0.5],
    "cosine_ceiling": [0.4, 0.5, 0.6, 0.75, 0.9],
}

Row = tuple[bool, tuple[int, ...], float]  # supported, citations, support


def scores(
    topics: dict[str, list[str]],
    cases: list[Case],
    calibration: Calibration,
    embed: CachedEmbedder | None,
    threshold_field: str,
    scales: CosineScales | None = None,
) -> list[list[Row]]:
    """Each case's verdict through the full attribute() path, for every threshold in THRESHOLDS."""
    table: list[list[Row]] = []
    for threshold in THRESHOLDS:
        gate = replace(calibration, **{threshold_field: threshold})
        rows: list[Row] = []
        for case in cases:
            passages = topics[case.topic]
            vectors = embed(passages) if embed is not None else None
            result = attribute(
                case.sentence,
                passages,
                passage_vectors=vectors,
                embed=embed,
                scales=scales,
                calibration=gate,
            )
            check = result.sentences[0]
            rows.append((bool(check.supported), check.citations, check.support))
        table.append(rows)
    return table


def tally(cases: list[Case], rows: list[Row], keep: set[int]) -> tuple[int, int, int]:
    """True positives, false positives and positives among the cases whose index is in `keep`."""
    tp = fp = positives = 0
    for index, (case, (said, citations, _)) in enumerate(zip(cases, rows, strict=True)):
        if index not in keep:
            continue
        right = said and citations == case.passages
        positives += case.label == "supported"
        tp += case.label == "supported" and right
        fp += said and not (case.label == "supported" and right)
    return tp, fp, positives


def f_score(tp: int, fp: int, positives: int) -> float:
    """F-beta with beta = BETA: a sentence wrongly shown as supported costs more than a true one flagged."""
    weighted = (1 + BETA**2) * tp
    return weighted / (weighted + BETA**2 * (positives - tp) + fp) if positives else 0.0


def best(
    cases: list[Case], table: dict[tuple[float, ...], list[list[Row]]], keep: set[int]
) -> tuple[tuple[float, ...], int, float]:
    """(parameters, threshold index) with the best F-beta on `keep`; ties go to precision, then to the
    middle of the threshold range that scores the same (a margin on both sides)."""
    candidates: list[tuple[float, float, int, tuple[float, ...], int]] = []
    for key, by_threshold in table.items():
        results = [tally(cases, rows, keep) for rows in by_threshold]
        for i, (tp, fp, positives) in enumerate(results):
            same = sum(1 for other in results[max(0, i - 2) : i + 3] if other == results[i])
            precision = tp / (tp + fp) if tp + fp else 0.0
            candidates.append((f_score(tp, fp, positives), precision, same, key, i))
    score, _, _, key, index = max(candidates, key=lambda c: (c[0], c[1], c[2]))
    return key, index, score


def figures(cases: list[Case], rows: list[Row], keep: set[int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for language in ("en", "zh", "all"):
        subset = {i for i in keep if language == "all" or cases[i].language == language}
        tp, fp, positives = tally(cases, rows, subset)
        out[language] = {
            "precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(tp / positives, 3) if positives else None,
            "tp": tp,
            "fp": fp,
            "positives": positives,
        }
    return out


def fit(
    cases: list[Case],
    grid: dict[str, list[float]],
    base: Calibration,
    threshold_field: str,
    score_rows: Any,
) -> dict[str, Any]:
    names = list(grid)
    table: dict[tuple[float, ...], list[list[Row]]] = {}
    for values in itertools.product(*(grid[name] for name in names)):
        chosen_values = dict(zip(names, values, strict=True))
        if chosen_values.get("cosine_ceiling", 1.0) <= chosen_values.get("cosine_floor", 0.0):
            continue  # a scale needs room between no and full evidence
        table[values] = score_rows(replace(base, **dict(zip(names, values, strict=True))))
    everything = set(range(len(cases)))
    key, index, _ = best(cases, table, everything)
    chosen = replace(base, **dict(zip(names, key, strict=True)), **{threshold_field: THRESHOLDS[index]})
    # leave one topic out: each topic judged with the parameters fitted on the other topics
    held_out = {"tp": 0, "fp": 0, "positives": 0}
    per_language = {lang: {"tp": 0, "fp": 0, "positives": 0} for lang in ("en", "zh")}
    for topic in sorted({case.topic for case in cases}):
        inside = {i for i in everything if cases[i].topic == topic}
        fold_key, fold_index, _ = best(cases, table, everything - inside)
        tp, fp, positives = tally(cases, table[fold_key][fold_index], inside)
        for bucket in (held_out, per_language[topic.rsplit("_", 1)[1]]):
            bucket["tp"] += tp
            bucket["fp"] += fp
            bucket["positives"] += positives
    chosen_rows = table[key][index]
    distributions = {
        label: sorted(
            round(row[2], 2) for row, case in zip(chosen_rows, cases, strict=True) if case.label == label
        )
        for label in ("supported", "unsupported")
    }
    return {
        "calibration": chosen,
        "fit": figures(cases, chosen_rows, everything),
        "leave_one_topic_out": {
            name: {
                "precision": round(b["tp"] / (b["tp"] + b["fp"]), 3) if b["tp"] + b["fp"] else None,
                "recall": round(b["tp"] / b["positives"], 3) if b["positives"] else None,
            }
            for name, b in {"all": held_out, **per_language}.items()
        },
        "support_distributions": distributions,
    }


def cosines(topics: dict[str, list[str]], cases: list[Case], embed: CachedEmbedder) -> dict[str, Any]:
    """Per language: the cosine of each supported sentence with its passage, and of each unsupported
    sentence with its closest passage: how far the embedder tells them apart."""
    out: dict[str, dict[str, list[float]]] = {}
    for case in cases:
        vectors = embed(topics[case.topic])
        values = vectors @ embed([case.sentence])[0]
        if case.label == "supported":
            value = max(float(values[n - 1]) for n in case.passages)
        else:
            value = float(values.max())
        out.setdefault(case.language, {}).setdefault(case.label, []).append(round(value, 2))
    return {lang: {label: sorted(v) for label, v in labels.items()} for lang, labels in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-embedder", action="store_true", help="fit the lexical weights only")
    parser.add_argument("--embedder", type=Path, help="embedding model folder (default all-MiniLM-L6-v2)")
    args = parser.parse_args()
    topics, all_cases = load_cases()
    cases = [case for case in all_cases if case.label in ("supported", "unsupported")]
    lexical = fit(
        cases, LEXICAL_GRID, CALIBRATION, "threshold", lambda c: scores(topics, cases, c, None, "threshold")
    )
    report: dict[str, Any] = {"cases": len(all_cases), "judged_cases": len(cases), "lexical": lexical}
    chosen: Calibration = lexical["calibration"]
    if not args.no_embedder:
        from app.core import paths
        from app.core.embed.embedder import Embedder

        embedder = Embedder(args.embedder or paths.english_embed_model())
        embed = CachedEmbedder(embedder.embed)
        own = embedder.scales
        report["embedder"] = embedder.name
        report["embedder_scales"] = asdict(own)
        # another embedder than the one the weights were fitted with: only its cosine scale is fitted
        grid = (
            EMBEDDING_GRID
            if args.embedder is None
            else {name: values for name, values in EMBEDDING_GRID.items() if name.startswith("cosine_")}
        )
        semantic = fit(
            cases,
            grid,
            chosen,
            "threshold_embedded",
            lambda c: scores(topics, cases, c, embed, "threshold_embedded", own),
        )
        chosen = semantic["calibration"]
        report["embedding"] = semantic
        report["cosines"] = cosines(topics, cases, embed)
        report["check_with_embedder"] = evaluate(
            topics, all_cases, embed=embed, scales=own, calibration=chosen
        )
        report["check_with_embedder_own_scale"] = evaluate(
            topics,
            all_cases,
            embed=embed,
            scales=own,
            calibration=replace(chosen, cosine_floor=None, cosine_ceiling=None),
        )
    report["check_lexical"] = evaluate(topics, all_cases, calibration=chosen)
    report["chosen"] = asdict(chosen)
    for part in ("lexical", "embedding"):
        if part in report:
            report[part]["calibration"] = asdict(report[part]["calibration"])
    results = (
        RESULTS if args.embedder is None else RESULTS.with_name(f"{RESULTS.stem}-{args.embedder.name}.json")
    )
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"chosen: {asdict(chosen)}")
    for part in ("lexical", "embedding"):
        if part in report:
            print(f"{part:9} fit:          {json.dumps(report[part]['fit'])}")
            print(f"{part:9} leave-1-out:  {json.dumps(report[part]['leave_one_topic_out'])}")
    for part in ("check_lexical", "check_with_embedder", "check_with_embedder_own_scale"):
        if part in report:
            print(f"{part}: misses:")
            for miss in report[part]["misses"]:
                print("   ", miss)
    print(f"wrote {results.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
