"""What the one judge costs: a ~300-token answer over 8 passages, with the default embedder (median ms).

Times (a) the judge as the pipeline runs it after the answer, with the question's evidence already
worked out at locate (the word check, the answer's sentences embedded, the policy), and (b) the
evidence itself (the passages split and embedded once per question, before the model runs); both
the app's way (one RecentVectors shared by the check and the judge, so each sentence is embedded
once) and the embedder called by each, in turn in the same run. Prints the medians and writes
benchmarks/results/judge_cost.json with record_env.

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
from app.core.answering.evidence.evidence import Evidence  # noqa: E402
from app.core.answering.judge.checking import embedding_verifier  # noqa: E402
from app.core.answering.judge.judge import judge_answer  # noqa: E402
from app.core.answering.judge.policy import policy_for  # noqa: E402
from app.core.embed.embedder import Embedder  # noqa: E402
from app.core.embed.recent import RecentVectors  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

QUESTION = "How often should the composite filter be replaced, and can it be washed?"
# every sentence differs from passage to passage, as in a real library (a repeated one is embedded once)
PASSAGE = (
    "Section {n}. The composite filter of purifier model A{n} lasts about 3000 hours in normal use, which "
    "is roughly six months when the purifier runs eight hours a day. The filter of model A{n} must not be "
    "washed with water: water destroys its activated carbon layer. The pre-filter of model A{n} can be "
    "cleaned every two weeks with a vacuum cleaner. Replace the filter of model A{n} when the indicator "
    "turns red, and reset the indicator by holding the filter key for five seconds. Page {n} of 8."
)
ANSWER_SENTENCES = [
    "The composite filter lasts about 3000 hours in normal use [1].",
    "That is roughly six months at eight hours a day [1].",
    "It must not be washed with water, because water destroys its activated carbon layer [1].",
    "Only the pre-filter can be cleaned, every two weeks, with a vacuum cleaner [2].",
    "Replace the filter when the indicator turns red [3].",
    "Then hold the filter key for five seconds to reset the indicator [3].",
]


# the app's way (embedder_checking: one RecentVectors for the check and the judge) and the embedder called
# by each as before (the answer's sentences embedded by the check, then again by the judge)
WAYS = ("embedded once", "embedded twice")


def passages() -> list[Hit]:
    return [
        Hit(n, 1, "purifier.pdf", "/library/purifier.pdf", n, n, 0, 400, PASSAGE.format(n=n), 0.0, 0.5)
        for n in range(1, 9)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--tokens", type=int, default=300, help="the answer's length in the embedder's tokens"
    )
    args = parser.parse_args()
    embedder = Embedder(paths.models_dir() / paths.DEFAULT_EMBED_MODEL_DIR)
    embedder.load()
    hits = passages()
    # distinct sentences (a repeated sentence would be embedded once) up to ~300 tokens
    varied = [f"{s[:-5]}, as point {k} says{s[-5:]}" for k in range(3) for s in ANSWER_SENTENCES]
    chosen: list[str] = []
    while varied and sum(embedder.count_tokens([" ".join(chosen)])) < args.tokens:
        chosen.append(varied.pop(0))
    answer = " ".join(chosen)
    tokens = sum(embedder.count_tokens([answer]))
    vectors = embedder.embed([hit.text for hit in hits])
    policy = policy_for(embedder.name)
    timings: dict[str, dict[str, list[float]]] = {way: {"judge": [], "evidence": []} for way in WAYS}
    verdicts: dict[str, str | None] = {}
    for run in range(args.runs + 1):  # the first is a warm-up
        for way in WAYS:  # side by side, in turn
            # as embedder_checking builds them, new for each run so that nothing is remembered across runs
            embed = RecentVectors(embedder.embed) if way == "embedded once" else embedder.embed
            verifier = embedding_verifier(lambda ids: vectors[[i - 1 for i in ids]], embed, embedder.scales)
            started = time.perf_counter()
            evidence = Evidence(QUESTION, hits, embed)
            evidence.vectors()
            built = time.perf_counter()
            verdicts[way] = judge_answer(QUESTION, answer, hits, verifier, policy, embed, evidence).verdict
            done = time.perf_counter()
            if run:
                timings[way]["evidence"].append((built - started) * 1000.0)
                timings[way]["judge"].append((done - built) * 1000.0)
    figures: dict[str, object] = {
        "answer_tokens": tokens,
        "passages": len(hits),
        "runs": args.runs,
        "embedder": embedder.name,
    }
    medians: dict[str, float] = {}
    for way, slug in zip(WAYS, ("", "_embedded_twice"), strict=True):
        judge_ms, evidence_ms = timings[way]["judge"], timings[way]["evidence"]
        medians[way] = statistics.median(judge_ms)
        figures[f"judge_ms_median{slug}"] = statistics.median(judge_ms)
        figures[f"judge_ms_min{slug}"] = min(judge_ms)
        figures[f"judge_ms_max{slug}"] = max(judge_ms)
        figures[f"evidence_ms_median{slug}"] = statistics.median(evidence_ms)
        figures[f"verdict{slug}"] = verdicts[way]
        print(
            f"judge ({way}): {statistics.median(judge_ms):.1f} ms median ({min(judge_ms):.1f}-"
            f"{max(judge_ms):.1f}) for a {tokens}-token answer over {len(hits)} passages; evidence (once "
            f"per question, at locate): {statistics.median(evidence_ms):.1f} ms; verdict {verdicts[way]}"
        )
    ratio = medians["embedded once"] / medians["embedded twice"]
    figures["judge_ratio_once_to_twice"] = ratio
    print(f"judge, embedded once / embedded twice: {ratio:.2f}")
    write_result("judge_cost", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
