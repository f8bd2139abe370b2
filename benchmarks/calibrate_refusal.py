"""Would the model's own probability of refusing tell unanswerable questions apart (issue 21)?

For every question of the eval set (or a selection), the pipeline's own stages run as an answer
would (retrieve, gate, locate, the prompt within its budget), then, instead of decoding, the probe
(`benchmarks/evaluation/probe.py`): the log-probability of the refusal's opening words as the answer's
first tokens, and the share of "yes" to "do the passages above answer this question?". Prints
per question, then per language how well each signal (and the gate's score) separates answerable
from unanswerable questions (ROC AUC), and, given a saved eval run (`--answers`), what the eval's
refusal and accuracy figures would be if Folio refused whenever a signal crossed a threshold
(the probe runs before the model writes, so a refused question is refused, and the others keep
the run's answers). Writes benchmarks/results/refusal_probe.json with record_env.

    .venv/bin/python benchmarks/calibrate_refusal.py [--answers benchmarks/results/eval-<model>.json]
        [--ids en-01,...] [--every N] [--threads N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from app.core.answering.evidence.locate import locate  # noqa: E402
from app.core.answering.options import resolve_options  # noqa: E402
from app.core.answering.pipeline.stages import prepare_prompt, question_passages  # noqa: E402
from app.core.answering.types import AskOptions  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.qa import Folio  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402
from benchmarks.evaluation.probe import probe  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

SIGNALS = ("gate", "refusal_logprob", "yes_share")  # each: higher means "answerable" after sign


def measure(folio: Folio, question: Question) -> dict[str, Any]:
    """The gate's score and the probe for one question, as the pipeline would see them."""
    answerer = folio.answering.answerer
    ask = resolve_options(
        question.question, AskOptions(max_tokens=256, temperature=0.0, seed=42), answerer.settings
    )
    threshold = ask.settings.grounding_threshold
    found = question_passages(
        folio.library.search, question.question, ask.passages_k, [], threshold, answerer.scales
    )
    record: dict[str, Any] = {
        "id": question.id,
        "lang": question.lang,
        "direction": question.direction,
        "kind": question.kind,
        "answerable": question.answerable,
        "gate": round(found.gate.score, 4),
        "passes_gate": found.passes(threshold),
    }
    if not record["passes_gate"]:
        return record
    engine = answerer.slot.target()
    info = engine.load()
    located = locate(question.question, found.hits, answerer.embed, answerer.scales)
    started = time.perf_counter()
    prompt = prepare_prompt(
        ask, engine, info, found.hits, [], answerer.embed, answerer.scales, started, False, located
    )
    with engine.lock:
        engine.cached_prefix(prompt.tokens)
        judged = time.perf_counter()
        result = probe(engine, prompt.tokens, prompt.passages, question.question)
        record["probe_ms"] = round((time.perf_counter() - judged) * 1000.0, 1)
    assert result is not None
    record.update(result.to_json(), prompt_tokens=len(prompt.tokens))
    return record


def auc(positives: Sequence[float], negatives: Sequence[float]) -> float | None:
    """P(a random answerable question scores above a random unanswerable one); ties count half."""
    if not positives or not negatives:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def signal(record: dict[str, Any], name: str) -> float | None:
    """The signal oriented so that higher means answerable (a likely refusal counts against)."""
    value = record.get(name)
    if value is None:
        return None
    return -float(value) if name == "refusal_logprob" else float(value)


def separation(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per language and signal: AUC among the questions that passed the gate, and the counts."""
    table: dict[str, dict[str, Any]] = {}
    for lang in sorted({r["lang"] for r in records}):
        passed = [r for r in records if r["lang"] == lang and r["passes_gate"]]
        row: dict[str, Any] = {
            "n": len(passed),
            "answerable": sum(r["answerable"] for r in passed),
            "gated_out": sum(1 for r in records if r["lang"] == lang and not r["passes_gate"]),
        }
        for name in SIGNALS:
            scored = [(signal(r, name), r["answerable"]) for r in passed]
            row[name] = auc(
                [s for s, a in scored if a and s is not None],
                [s for s, a in scored if not a and s is not None],
            )
        table[lang] = row
    return table


def simulate(
    records: Sequence[dict[str, Any]], answers: dict[str, dict[str, Any]], name: str, cut: float
) -> dict[str, Any]:
    """The run's figures per language if Folio refused every gated-in question whose signal < cut."""
    out: dict[str, Any] = {}
    for lang in sorted({r["lang"] for r in records}):
        rows = [(r, answers[r["id"]]) for r in records if r["lang"] == lang and r["id"] in answers]
        answerable = [(r, a) for r, a in rows if r["answerable"]]
        unanswerable = [(r, a) for r, a in rows if not r["answerable"]]

        def refused(r: dict[str, Any], a: dict[str, Any]) -> bool:
            value = signal(r, name)
            return bool(a["refusal"]) or (r["passes_gate"] and value is not None and value < cut)

        right = sum(1 for r, a in answerable if a["correct"] and not refused(r, a))
        out[lang] = {
            "accuracy": right / len(answerable) if answerable else None,
            "refusal_unanswerable": sum(refused(r, a) for r, a in unanswerable) / len(unanswerable)
            if unanswerable
            else None,
            "false_refusals": sum(refused(r, a) for r, a in answerable) / len(answerable)
            if answerable
            else None,
        }
    return out


def print_simulation(
    records: Sequence[dict[str, Any]], answers: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    rows = [{"signal": "none (the run)", "cut": None, **simulate(records, answers, "gate", float("-inf"))}]
    for name in ("refusal_logprob", "yes_share"):
        values = sorted({v for r in records if (v := signal(r, name)) is not None})
        for q in (0.1, 0.2, 0.3, 0.4, 0.5):
            if values:
                cut = values[min(len(values) - 1, int(q * len(values)))]
                rows.append({"signal": name, "cut": round(cut, 3), **simulate(records, answers, name, cut)})
    print("\n| refuse when | cut | en accuracy / refusal unanswerable / false refusals | zh |")
    print("|---|---|---|---|")
    for row in rows:
        cells = []
        for lang in ("en", "zh"):
            f = row.get(lang) or {}
            cells.append(
                " / ".join(
                    "-" if f.get(k) is None else f"{f[k]:.2f}"
                    for k in ("accuracy", "refusal_unanswerable", "false_refusals")
                )
            )
        cut = "" if row["cut"] is None else f"< {row['cut']}"
        print(f"| {row['signal']} | {cut} | {cells[0]} | {cells[1]} |")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=Path, help="a saved eval run to simulate refusals on")
    parser.add_argument("--ids", help="only these question ids, comma-separated")
    parser.add_argument("--every", type=int, default=1, help="every Nth question of the set")
    parser.add_argument("--threads", type=int, default=0, help="llama.cpp threads (0: automatic)")
    parser.add_argument("--records", type=Path, help="a saved refusal_probe.json: no model, tables only")
    args = parser.parse_args(argv)
    if args.records:
        records = json.loads(args.records.read_text(encoding="utf-8"))["records"]
        return report(records, args.answers)
    questions = load_questions()
    chosen = list(questions.questions)[:: max(1, args.every)]
    if args.ids:
        wanted = set(args.ids.split(","))
        chosen = [q for q in questions.questions if q.id in wanted]
    settings = Settings(n_threads=args.threads, temperature=0.0, seed=42)
    library = prepared_library(questions, settings)
    records = []
    with tempfile.TemporaryDirectory(prefix="folio-probe-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            for question in chosen:
                record = measure(folio, question)
                records.append(record)
                shown = " ".join(
                    f"{k}={record[k]}" for k in ("gate", *SIGNALS[1:], "probe_ms") if k in record
                )
                mark = "A" if record["answerable"] else "U"
                print(f"{record['id']:7} {mark} {shown}", flush=True)
        finally:
            folio.close()
    return report(records, args.answers)


def report(records: list[dict[str, Any]], answers: Path | None) -> int:
    """Print the separation and (with a saved eval run) the simulation; write the results file."""
    table = separation(records)
    print("\n| lang | gated in (answerable) | gated out | AUC gate | AUC refusal words | AUC yes share |")
    print("|---|---|---|---|---|---|")
    for lang, row in table.items():
        aucs = " | ".join("-" if row[s] is None else f"{row[s]:.2f}" for s in SIGNALS)
        print(f"| {lang} | {row['n']} ({row['answerable']}) | {row['gated_out']} | {aucs} |")
    simulation: list[dict[str, Any]] = []
    if answers:
        saved = json.loads(answers.read_text(encoding="utf-8"))
        simulation = print_simulation(records, {a["id"]: a for a in saved["answers"]})
    out = write_result(
        "refusal_probe",
        {
            "answers": str(answers) if answers else None,
            "records": records,
            "separation": table,
            "simulation": simulation,
        },
    )
    print(f"\nwrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
