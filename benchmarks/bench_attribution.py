"""Attribution cost: verify a ~300-token, ~15-sentence answer against 8 passages of ~200 tokens.

Usage: .venv/bin/python benchmarks/bench_attribution.py [--runs 40]
Times app.core.answering.judge.attribution.attribute three ways: lexical only; with the embedding cosines
but the sentence vectors already computed (the scoring cost alone); and the full path, which embeds the
answer's sentences in one batch with the real default embedder (the passages' vectors are precomputed, as
the store holds them). Prints median/p95 ms and writes benchmarks/results/attribution.json. Goal: < 50 ms.
Never run by the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from app.core import paths  # noqa: E402
from app.core.answering.evidence.sentences import split_sentences  # noqa: E402
from app.core.answering.judge.attribution import attribute  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402

T = TypeVar("T")
RESULTS = ROOT / "benchmarks" / "results" / "attribution.json"
GOAL_MS = 50.0
SUBJECTS = [
    ("Cape Merrow lighthouse", "lighthouse", "lantern", "warns ships off the reef"),
    ("Lune mill pond", "pond", "sluice", "stores water for the grain mill"),
    ("Harbour museum", "museum", "gallery", "keeps the records of the fishing fleet"),
    ("North ferry", "ferry", "ramp", "carries cars across the estuary"),
    ("Village library", "library", "reading room", "lends books and maps"),
    ("Merrow sea wall", "sea wall", "parapet", "protects the lower streets from storms"),
    ("Abbey bridge", "bridge", "main arch", "joins the two halves of the town"),
    ("Signal station", "station", "mast", "reports the weather to the coastguard"),
]
TEMPLATES = [
    "The {name} was built in {year} by the {builder} company, after {k} years of planning and argument.",
    "Its {part} is {n} metres long and weighs about {w} tonnes, which made it hard to bring by road.",
    "Visitors can reach the {short} on foot from the market square in {m} minutes along the old path.",
    "In winter the {short} is open from {h1} to {h2} o'clock, and in summer it stays open until {h3}.",
    "A survey in {year2} counted {c} visitors and {d} school groups at the {short} during the season.",
    "The {short} was repaired in {year3} after a storm damaged the {part} and flooded the cellars.",
    "Guides explain how the {short} {role} and why it still matters to the people of the coast.",
    "The county council pays {money} pounds a year to maintain the {short} and its surroundings.",
    "Photographs of the {short} taken in {year4} are kept in the county archive at Dunmore.",
    "Tickets cost {price} pounds for adults, and children under {age} years enter free of charge.",
]


def facts(rng: random.Random) -> dict[str, Any]:
    return {
        "year": rng.randint(1790, 1910),
        "builder": rng.choice(["Harland", "Pryce", "Okafor", "Lindqvist", "Marsh"]),
        "k": rng.randint(2, 9),
        "n": rng.randint(12, 90),
        "w": rng.randint(40, 900),
        "m": rng.randint(5, 40),
        "h1": rng.randint(8, 10),
        "h2": rng.randint(15, 17),
        "h3": rng.randint(18, 21),
        "year2": rng.randint(1990, 2024),
        "c": rng.randint(1000, 90000),
        "d": rng.randint(10, 400),
        "year3": rng.randint(1920, 2020),
        "money": rng.randint(2000, 80000),
        "year4": rng.randint(1880, 1960),
        "price": rng.randint(2, 15),
        "age": rng.randint(5, 16),
    }


def build(rng: random.Random) -> tuple[list[str], str, str]:
    """8 passages of 10 sentences each, an answer of 15 sentences with right, wrong and missing
    markers, one invented number and a connective opening, and the question it answers (the check
    judges each supported sentence against it: on the question, numbers bound to its subject)."""
    passages: list[str] = []
    table: list[dict[str, Any]] = []
    for name, short, part, role in SUBJECTS:
        values = {"name": name, "short": short, "part": part, "role": role, **facts(rng)}
        table.append(values)
        passages.append(" ".join(template.format(**values) for template in TEMPLATES))
    lines = ["Here is what I found in your documents:\n"]
    for i in range(14):
        n = i % len(SUBJECTS)
        v = table[n]
        marker = [f" [{n + 1}]", f" [{(n + 3) % 8 + 1}]", ""][i % 3]  # right, wrong, none
        short = v["short"]
        claims = [
            f"The {short} dates from {v['year']}, when the {v['builder']} company finished it after "
            f"{v['k']} years of planning{marker}.",
            f"According to the survey of {v['year2']}, about {v['c']} people visited the {short}{marker}.",
            f"Adults pay {v['price']} pounds a ticket, while children under {v['age']} go in free{marker}.",
            f"The council spends {v['money']} pounds every year on the upkeep of the {short} and its "
            f"surroundings{marker}.",
        ]
        lines.append(claims[i % len(claims)])
    lines[-1] = f"The {table[5]['short']} was moved inland in 1999 to save it from the sea."  # invented
    first = table[0]["short"]
    question = f"When was the {first} finished, how many people visit it and what does a ticket cost?"
    return passages, lines[0] + " ".join(lines[1:]), question


def timed(function: Callable[[], T], runs: int) -> tuple[dict[str, float], T]:
    function()  # warm-up
    samples: list[float] = []
    result = function()
    for _ in range(runs):
        started = time.perf_counter()
        result = function()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    figures = {
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))], 2),
        "min_ms": round(samples[0], 2),
        "runs": runs,
    }
    return figures, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    passages, answer, question = build(random.Random(7))
    embedder = Embedder(paths.default_embed_model())
    passage_vectors = embedder.embed(passages)  # what the store holds for the passages
    sentence_vectors: dict[str, np.ndarray] = {}

    def remembered(texts: list[str]) -> np.ndarray:
        missing = [t for t in texts if t not in sentence_vectors]
        if missing:
            sentence_vectors.update(zip(missing, embedder.embed(missing), strict=True))
        return np.stack([sentence_vectors[t] for t in texts])

    load_before = os.getloadavg()[0]
    bodies = [s.body for s in split_sentences(answer)]
    embedding, _ = timed(lambda: embedder.embed(bodies), args.runs)  # the model call alone
    lexical, _ = timed(lambda: attribute(answer, passages, question=question), args.runs)
    scoring, _ = timed(
        lambda: attribute(
            answer,
            passages,
            passage_vectors=passage_vectors,
            embed=remembered,
            scales=embedder.scales,
            question=question,
        ),
        args.runs,
    )
    full, result = timed(
        lambda: attribute(
            answer,
            passages,
            passage_vectors=passage_vectors,
            embed=embedder.embed,
            scales=embedder.scales,
            question=question,
        ),
        args.runs,
    )
    checks = [s for s in result.sentences if s.kind == "factual"]
    report = {
        "answer_tokens": sum(embedder.count_tokens([answer])),
        "answer_sentences": len(result.sentences),
        "passages": len(passages),
        "passage_tokens": embedder.count_tokens(passages),
        "lexical_only": lexical,
        "with_embeddings_precomputed": scoring,
        "with_sentence_embedding": full,
        "sentence_embedding_alone": embedding,
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "goal_ms": GOAL_MS,
        "verdicts": {
            "support_rate": result.support_rate,
            "model": sum(s.source == "model" for s in checks),
            "matched": sum(s.source == "matched" for s in checks),
            "none": sum(s.source == "none" for s in checks),
            "wrong_citations": list(result.wrong_citations),
        },
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "torch_threads": _threads()},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(
        f"answer: {report['answer_tokens']} tokens, {report['answer_sentences']} sentences; "
        f"passages: {len(passages)} × {min(report['passage_tokens'])}–{max(report['passage_tokens'])} tokens"
    )
    for label, figures in (
        ("lexical only", lexical),
        ("embedding cosines, sentence vectors cached", scoring),
        ("full: sentences embedded in one batch", full),
        ("(the embedder call alone)", embedding),
    ):
        verdict = "ok" if figures["median_ms"] < GOAL_MS else "over goal"
        print(
            f"{label:44} median {figures['median_ms']:7.2f} ms  p95 {figures['p95_ms']:7.2f} ms  ({verdict})"
        )
    print(
        f"verdicts: {report['verdicts']}; load average {report['load_average_1min']} on {os.cpu_count()} cpus"
    )
    print(f"wrote {RESULTS.relative_to(ROOT)}")


def _threads() -> int:
    import torch

    return int(torch.get_num_threads())


if __name__ == "__main__":
    main()
