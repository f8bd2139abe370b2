"""Fit the grounding gate's cosine scale for an embedder on the eval, and check the threshold.

For every question of benchmarks/eval/questions.json, retrieve its passages from the eval library
(as `folio ask` does, with the embedder given) and compute `gate_score` on a grid of cosine floors
and ceilings (embed/engine.py CosineScales), with Chinese questions' cosines counted or not. The
scale chosen keeps false refusals of answerable questions (same-language and cross-language) at most
`--max-false-refusals` at the grounding threshold of the settings and separates answerable from
unanswerable questions best (AUC: how often an answerable question scores above an unanswerable
one; ties: fewer false refusals, then the highest floor). Also prints, for the
embedder's own scale, the per-language score distributions and the threshold that would fit each;
writes benchmarks/results/gate-<embedder>.json.

    .venv/bin/python benchmarks/calibrate_gate.py [--embedder models/use-multilingual-v3]
        [--max-false-refusals 0.05]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
from dataclasses import asdict, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.answering.evidence.gate import gate_score
from app.core.config import Settings
from app.core.embed.engine import CosineScales
from app.core.passage import Hit
from app.core.services import build_services
from benchmarks.evaluation.dataset import REPO, Question, load_questions
from benchmarks.evaluation.library import prepared_library, working_copy

FLOORS = [round(0.0 + 0.05 * i, 2) for i in range(9)]  # 0 … 0.4
CEILINGS = [round(0.3 + 0.05 * i, 2) for i in range(9)]  # 0.3 … 0.7


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


def separation(found: list[tuple[Question, list[Hit]]], scales: CosineScales) -> float:
    """AUC of the gate scores: the share of (answerable, unanswerable) pairs ordered right, ties half."""
    answerable = [gate_score(q.question, hits, scales).score for q, hits in found if q.answerable]
    unanswerable = [gate_score(q.question, hits, scales).score for q, hits in found if not q.answerable]
    pairs = [(a > u) + 0.5 * (a == u) for a in answerable for u in unanswerable]
    return sum(pairs) / max(1, len(pairs))


def rates(
    found: list[tuple[Question, list[Hit]]], scales: CosineScales, threshold: float
) -> tuple[float, float]:
    """(refusal rate of the unanswerable, false refusal rate of the answerable) at `threshold`."""
    answerable = [gate_score(q.question, hits, scales).score for q, hits in found if q.answerable]
    unanswerable = [gate_score(q.question, hits, scales).score for q, hits in found if not q.answerable]
    refused = sum(s < threshold for s in unanswerable) / max(1, len(unanswerable))
    false = sum(s < threshold for s in answerable) / max(1, len(answerable))
    return refused, false


def fit(
    found: list[tuple[Question, list[Hit]]], base: CosineScales, threshold: float, max_false: float
) -> dict[str, object]:
    """The grid's best scale at `threshold` (Chinese questions' cosines counted and not)."""
    rows: list[tuple[float, float, float, CosineScales]] = []
    for floor, ceiling, cjk in itertools.product(FLOORS, CEILINGS, (False, True)):
        if ceiling <= floor + 0.1:
            continue
        scales = replace(base, gate_floor=floor, gate_ceiling=ceiling, cjk_questions=cjk)
        refused, false = rates(found, scales, threshold)
        if false <= max_false:
            rows.append((round(separation(found, scales), 4), -false, floor, scales))
    if not rows:
        return {"scales": None}
    auc, _, _, scales = max(rows, key=lambda row: row[:3])
    refused, false = rates(found, scales, threshold)
    return {"scales": asdict(scales), "auc": auc, "refused_unanswerable": refused, "false_refusals": false}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--embedder", type=Path, help="embedding model folder (default: the default)")
    parser.add_argument("--max-false-refusals", type=float, default=0.05)
    args = parser.parse_args()
    questions = load_questions()
    settings = Settings(embed_model_dir=str(args.embedder.resolve()) if args.embedder else "")
    library = prepared_library(questions, settings)
    with tempfile.TemporaryDirectory(prefix="folio-gate-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            found = [
                (q, folio.library.search(q.question, settings.passages_k).hits) for q in questions.questions
            ]
            own = folio.library.embedder.scales
            name = folio.library.embedder.name
        finally:
            folio.close()
    threshold = settings.grounding_threshold
    scores: dict[str, dict[str, list[dict[str, object]]]] = {}
    for question, hits in found:
        score = gate_score(question.question, hits, own)
        group = "answerable" if question.answerable else "unanswerable"
        scores.setdefault(question.direction, {}).setdefault(group, []).append(
            {
                "id": question.id,
                "score": round(score.score, 4),
                "coverage": round(score.coverage, 4),
                "cosine": round(score.cosine, 4),
            }
        )
    summary: dict[str, object] = {"embedder": name, "scales": asdict(own), "threshold": threshold}
    for direction, groups in sorted(scores.items()):
        answerable = sorted(float(r["score"]) for r in groups.get("answerable", []))  # type: ignore[arg-type]
        unanswerable = sorted(float(r["score"]) for r in groups.get("unanswerable", []))  # type: ignore[arg-type]
        best, refused, false = choose(answerable, unanswerable, args.max_false_refusals)
        summary[direction] = {"threshold": best, "refused_unanswerable": refused, "false_refusals": false}
        print(f"{direction}: answerable   {' '.join(f'{s:.2f}' for s in answerable)}")
        print(f"{direction}: unanswerable {' '.join(f'{s:.2f}' for s in unanswerable)}")
        print(f"{direction}: threshold {best:.3f} refuses {refused:.2f} of unanswerable, {false:.2f} false\n")
    refused, false = rates(found, own, threshold)
    summary["own_scale"] = {
        "auc": round(separation(found, own), 4),
        "refused_unanswerable": refused,
        "false_refusals": false,
    }
    print(
        f"{name}'s scale {own}: at threshold {threshold} refuses {refused:.2f} of unanswerable, "
        f"{false:.2f} false"
    )
    summary["fit"] = fit(found, own, threshold, args.max_false_refusals)
    print(f"best scale on the grid: {json.dumps(summary['fit'])}")
    results = REPO / "benchmarks" / "results" / f"gate-{name}.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps({"summary": summary, "scores": scores}, ensure_ascii=False, indent=1))
    print(f"wrote {results.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
