"""Choose the grounding gate's threshold from the eval: gate scores of answerable vs unanswerable questions.

For every question of benchmarks/eval/questions.json, retrieve its passages from the eval library
(as `folio ask` does) and compute `gate_score`. Print the score distributions per language and the
threshold that keeps false refusals of answerable questions at most `--max-false-refusals` while
refusing as many unanswerable questions as possible; write benchmarks/results/gate.json.

    .venv/bin/python benchmarks/calibrate_gate.py [--max-false-refusals 0.05]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.answering.gate import gate_score
from app.core.config import Settings
from app.core.qa import build_services
from benchmarks.evaluation.dataset import REPO, load_questions
from benchmarks.evaluation.library import prepared_library, working_copy

RESULTS = REPO / "benchmarks" / "results" / "gate.json"


def choose(
    answerable: list[float], unanswerable: list[float], max_false: float
) -> tuple[float, float, float]:
    """(threshold, refusal rate on unanswerable, false refusal rate): the highest threshold whose
    false refusals stay within `max_false` (ties: the lowest such threshold, furthest from the answerable)."""
    candidates = sorted({0.0, *answerable, *unanswerable})
    best = (0.0, 0.0, 0.0)
    for threshold in candidates:
        false = sum(score < threshold for score in answerable) / max(1, len(answerable))
        if false > max_false:
            break
        refused = sum(score < threshold for score in unanswerable) / max(1, len(unanswerable))
        if refused > best[1] or (refused == best[1] and threshold <= best[0]):
            best = (threshold, refused, false)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--max-false-refusals", type=float, default=0.05)
    args = parser.parse_args()
    questions = load_questions()
    settings = Settings()
    library = prepared_library(questions, settings)
    scores: dict[str, dict[str, list[dict[str, object]]]] = {}
    with tempfile.TemporaryDirectory(prefix="folio-gate-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            # the gate was calibrated on same-language questions (cross-language ones: issue 22)
            for question in (q for q in questions.questions if not q.cross):
                hits = folio.search(question.question, settings.passages_k).hits
                score = gate_score(question.question, hits)
                group = "answerable" if question.answerable else "unanswerable"
                scores.setdefault(question.lang, {}).setdefault(group, []).append(
                    {
                        "id": question.id,
                        "score": round(score.score, 4),
                        "coverage": round(score.coverage, 4),
                        "cosine": round(score.cosine, 4),
                    }
                )
        finally:
            folio.close()
    summary: dict[str, object] = {}
    every_answerable: list[float] = []
    every_unanswerable: list[float] = []
    for lang, groups in sorted(scores.items()):
        answerable = sorted(float(r["score"]) for r in groups.get("answerable", []))  # type: ignore[arg-type]
        unanswerable = sorted(float(r["score"]) for r in groups.get("unanswerable", []))  # type: ignore[arg-type]
        every_answerable += answerable
        every_unanswerable += unanswerable
        threshold, refused, false = choose(answerable, unanswerable, args.max_false_refusals)
        summary[lang] = {"threshold": threshold, "refused_unanswerable": refused, "false_refusals": false}
        print(f"{lang}: answerable   {' '.join(f'{s:.2f}' for s in answerable)}")
        print(f"{lang}: unanswerable {' '.join(f'{s:.2f}' for s in unanswerable)}")
        print(f"{lang}: threshold {threshold:.3f} refuses {refused:.2f} of unanswerable, {false:.2f} false\n")
    threshold, refused, false = choose(every_answerable, every_unanswerable, args.max_false_refusals)
    summary["all"] = {"threshold": threshold, "refused_unanswerable": refused, "false_refusals": false}
    print(
        f"both languages: threshold {threshold:.3f} refuses {refused:.2f} of unanswerable, {false:.2f} false"
    )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"summary": summary, "scores": scores}, ensure_ascii=False, indent=1))
    print(f"wrote {RESULTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
