"""What the one judge costs: a ~300-token answer over 8 passages, with the default embedder (median ms).

Times (a) the judge as the pipeline runs it after the answer, with the question's evidence already
worked out at locate (the word check, the answer's sentences embedded, the policy), and (b) the
evidence itself (the passages split and embedded once per question, before the model runs). Prints
the medians and writes benchmarks/results/judge_cost.json with record_env.

    .venv/bin/python benchmarks/bench_judge.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core import paths  # noqa: E402
from app.core.answering.checking import embedding_verifier  # noqa: E402
from app.core.answering.judge.evidence import Evidence  # noqa: E402
from app.core.answering.judge.judge import judge_answer  # noqa: E402
from app.core.answering.judge.policy import policy_for  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

QUESTION = "How often should the composite filter be replaced, and can it be washed?"
PASSAGE = (
    "Section {n}. The composite filter of the purifier lasts about 3000 hours in normal use, which is "
    "roughly six months when the purifier runs eight hours a day. The filter must not be washed with "
    "water: water destroys its activated carbon layer. The pre-filter can be cleaned every two weeks "
    "with a vacuum cleaner. Replace the filter when the indicator turns red, and reset the indicator by "
    "holding the filter key for five seconds. Page {n} of 8."
)
ANSWER_SENTENCES = [
    "The composite filter lasts about 3000 hours in normal use [1].",
    "That is roughly six months at eight hours a day [1].",
    "It must not be washed with water, because water destroys its activated carbon layer [1].",
    "Only the pre-filter can be cleaned, every two weeks, with a vacuum cleaner [2].",
    "Replace the filter when the indicator turns red [3].",
    "Then hold the filter key for five seconds to reset the indicator [3].",
]


def passages() -> list[Hit]:
    return [
        Hit(n, 1, "purifier.pdf", "/library/purifier.pdf", n, n, 0, 400, PASSAGE.format(n=n), 0.0, 0.5)
        for n in range(1, 9)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    embedder = Embedder(paths.models_dir() / paths.DEFAULT_EMBED_MODEL_DIR)
    embedder.load()
    hits = passages()
    answer = " ".join(ANSWER_SENTENCES * 3)  # ~300 tokens
    tokens = sum(embedder.count_tokens([answer]))
    vectors = embedder.embed([hit.text for hit in hits])
    verifier = embedding_verifier(lambda ids: vectors[[i - 1 for i in ids]], embedder.embed, embedder.scales)
    policy = policy_for(embedder.name)
    judge_ms, evidence_ms = [], []
    verdict = None
    for _ in range(args.runs + 1):  # the first is a warm-up
        started = time.perf_counter()
        evidence = Evidence(QUESTION, hits, embedder.embed)
        evidence.vectors()
        built = time.perf_counter()
        verdict = judge_answer(QUESTION, answer, hits, verifier, policy, embedder.embed, evidence).verdict
        done = time.perf_counter()
        evidence_ms.append((built - started) * 1000.0)
        judge_ms.append((done - built) * 1000.0)
    judge_ms, evidence_ms = judge_ms[1:], evidence_ms[1:]
    figures = {
        "answer_tokens": tokens,
        "passages": len(hits),
        "runs": args.runs,
        "judge_ms_median": statistics.median(judge_ms),
        "judge_ms_min": min(judge_ms),
        "judge_ms_max": max(judge_ms),
        "evidence_ms_median": statistics.median(evidence_ms),
        "verdict": verdict,
        "embedder": embedder.name,
    }
    print(
        f"judge: {figures['judge_ms_median']:.1f} ms median ({min(judge_ms):.1f}-{max(judge_ms):.1f}) for a "
        f"{tokens}-token answer over {len(hits)} passages; evidence (once per question, at locate): "
        f"{figures['evidence_ms_median']:.1f} ms; verdict {verdict}"
    )
    write_result("judge_cost", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
