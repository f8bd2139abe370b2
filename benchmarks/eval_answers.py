"""Answer-quality and retrieval eval over benchmarks/eval/questions.json (`make eval`).

Builds (once, cached under benchmarks/.cache/) a library from the question set's documents, then
- retrieval: hit@1, hit@5, MRR, recall@5/@10 and search latency per language, before → after
  against benchmarks/results/retrieval-baseline.json when it exists;
- answers (unless --retrieval-only): accuracy, citation precision, answers with a right citation,
  support rate, refusal on unanswerable, false refusals, TTFT and tok/s per language.
Prints one line per question and Markdown tables; writes benchmarks/results/eval-<model>.json
(or eval-retrieval-<embedder>.json with --retrieval-only). Greedy decoding, fixed seed.

Usage: .venv/bin/python benchmarks/eval_answers.py [--model GGUF] [--embedder DIR] [--lang zh|en]
       [--limit N] [--ids en-01,zh-03] [--retrieval-only] [--max-tokens 256] [--threads N]
       [--ttft-target S] [--evidence on|off] [--kv-cache f16|q8_0] [--save-baseline]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.config import (  # noqa: E402
    ANSWER_FROM,
    EMBED_PRECISIONS,
    FIGURES_FROM,
    KV_CACHE_TYPES,
    PROMPT_STYLES,
    Settings,
)
from app.core.qa import Folio  # noqa: E402
from app.core.services import build_services  # noqa: E402
from benchmarks.evaluation import report, scoring  # noqa: E402
from benchmarks.evaluation.chats import summarize_chats  # noqa: E402
from benchmarks.evaluation.dataset import Question, QuestionSet, load_questions  # noqa: E402
from benchmarks.evaluation.library import prepared_library, working_copy  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
BASELINE = RESULTS / "retrieval-baseline.json"
SEED = 42

logging.getLogger("pypdf").setLevel(logging.ERROR)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, help="chat model GGUF (default: the bundled one)")
    parser.add_argument("--server", help="an OpenAI-compatible server's address: its model answers")
    parser.add_argument("--server-model", default="", help="the server's model (one of its /v1/models)")
    parser.add_argument("--thinking", action="store_true", help="ask with thinking on (a thinking model)")
    parser.add_argument("--embedder", type=Path, help="sentence-transformers folder (default: bundled)")
    parser.add_argument("--lang", choices=("zh", "en"), help="only this language's questions")
    parser.add_argument("--limit", type=int, help="only the first N questions of each language")
    parser.add_argument("--ids", help="only these question ids, comma-separated")
    parser.add_argument(
        "--half",
        choices=("calibration", "held_out"),
        help="only this half of the set (benchmarks/eval/split.json; fit on calibration, quote held_out)",
    )
    parser.add_argument("--retrieval-only", action="store_true", help="skip the answers")
    parser.add_argument("--no-chats", action="store_true", help="skip the chat scenarios (eval/chats.json)")
    parser.add_argument("--chats-only", action="store_true", help="only the chat scenarios (no question set)")
    parser.add_argument("--max-tokens", type=int, default=256, help="answer length limit (default 256)")
    parser.add_argument("--threads", type=int, default=0, help="llama.cpp threads (0: automatic)")
    parser.add_argument(
        "--ttft-target",
        type=float,
        default=0.0,
        help="seconds; the TTFT-driven passage budget (default 0: off, so that which passages reach "
        "the prompt does not depend on how busy the machine is; the app's default is 8)",
    )
    parser.add_argument(
        "--save-baseline", action="store_true", help=f"store the retrieval figures as {BASELINE.name}"
    )
    parser.add_argument("--questions", type=Path, help="another question set file")
    parser.add_argument(
        "--before",
        type=Path,
        help="an earlier run's results file (e.g. benchmarks/results/eval-before-judge.json): every half's "
        "tables read before → after over the same questions, with a line per question that changed",
    )
    parser.add_argument(
        "--evidence",
        choices=("on", "off"),
        default="on" if Settings().evidence_selection else "off",
        help="evidence selection: passages cut to the sentences that matter (default: the app's)",
    )
    parser.add_argument(
        "--answer-from",
        choices=ANSWER_FROM,
        default=Settings().answer_from,
        help="what the prompt shows of the located sentences (default: the app's)",
    )
    parser.add_argument(
        "--prompt-style",
        choices=PROMPT_STYLES,
        default=Settings().prompt_style,
        help="the answer prompt's instructions (worked: answer form and example; default: the app's)",
    )
    parser.add_argument(
        "--reask",
        choices=("on", "off"),
        default="on" if Settings().reask else "off",
        help="ask once more when an answer states nothing (default: the app's)",
    )
    parser.add_argument(
        "--figures-from",
        choices=FIGURES_FROM,
        default=Settings().figures_from,
        help="which numbers the answer may write (default: the app's)",
    )
    parser.add_argument(
        "--embed-precision",
        choices=EMBED_PRECISIONS,
        default="auto",
        help="the embedder's arithmetic (default auto: bf16 on native hardware, else fp32)",
    )
    parser.add_argument(
        "--kv-cache",
        choices=KV_CACHE_TYPES,
        default=Settings().kv_cache_type,
        help="the model's KV cache elements (default: the app's; q8_0 runs with flash attention)",
    )
    return parser.parse_args(argv)


def select(questions: QuestionSet, args: argparse.Namespace) -> list[Question]:
    chosen = list(questions.questions)
    if args.ids:
        wanted = {i.strip() for i in args.ids.split(",") if i.strip()}
        unknown = wanted - {q.id for q in chosen}
        if unknown:
            raise SystemExit(f"unknown question ids: {', '.join(sorted(unknown))}")
        chosen = [q for q in chosen if q.id in wanted]
    if args.lang:
        chosen = [q for q in chosen if q.lang == args.lang]
    if args.half:
        chosen = [q for q in chosen if q.half == args.half]
    if args.limit is not None:
        chosen = [q for lang in ("en", "zh") for q in [c for c in chosen if c.lang == lang][: args.limit]]
    return chosen


def eval_settings(args: argparse.Namespace) -> Settings:
    """Folio's defaults (never the user's settings file) with the model, embedder and threads given."""
    return Settings(
        model_path=str(args.model.resolve()) if args.model else "",
        embed_model_dir=str(args.embedder.resolve()) if args.embedder else "",
        n_threads=args.threads,
        temperature=0.0,
        seed=SEED,
        max_tokens=args.max_tokens,
        ttft_target_s=args.ttft_target,
        embed_precision=args.embed_precision,
        evidence_selection=args.evidence == "on",
        answer_from=args.answer_from,
        prompt_style=args.prompt_style,
        reask=args.reask == "on",
        figures_from=args.figures_from,
        kv_cache_type=args.kv_cache,
        server_url=args.server or "",
        server_model=args.server_model,
    )


def run_retrieval(folio: Folio, questions: Sequence[Question]) -> list[scoring.RetrievalRecord]:
    folio.library.search("warm-up 预热", scoring.SEARCH_K)  # loads the embedder, opens the index
    records = []
    print("\n## Retrieval, per question (* = hit in the right document)")
    for question in questions:
        if not question.answerable:
            continue
        started = time.perf_counter()
        result = folio.library.search(question.question, scoring.SEARCH_K)
        elapsed = (time.perf_counter() - started) * 1000.0
        record = scoring.score_retrieval(question, result.hits, elapsed)
        records.append(record)
        print(report.retrieval_line(record, question), flush=True)
    return records


def run_answers(
    folio: Folio, questions: Sequence[Question], max_tokens: int, thinking: bool
) -> list[scoring.AnswerRecord]:
    from app.core.answering.types import AskOptions

    options = AskOptions(max_tokens=max_tokens, temperature=0.0, seed=SEED, thinking=thinking)
    records = []
    print("\n## Answers, per question (cited pages; ! = not an answer page)")
    for question in questions:
        answer = folio.answering.ask(question.question, options)
        record = scoring.score_answer(question, answer.to_json())
        record.extra["judged"] = scoring.judge_inputs(answer)  # what the judge saw (calibrate_judge.py)
        if answer.reasked_from:  # the first answer, scored as if it had stood (report.reask_lines)
            first = scoring.score_answer(question, {"answer": answer.reasked_from, "finish_reason": "stop"})
            record.extra["first_correct"] = first.correct
        records.append(record)
        print(report.answer_line(record), flush=True)
    return records


def load_baseline(ids: set[str]) -> tuple[dict[str, Any], str] | None:
    """The baseline's retrieval summary over the questions of this run, and a note saying which."""
    if not BASELINE.is_file():
        return None
    data = json.loads(BASELINE.read_text(encoding="utf-8"))
    records = [scoring.retrieval_record_from_json(r) for r in data["questions"] if r["id"] in ids]
    if not records:
        return None
    missing = len(ids) - len(records)
    note = f"before = {BASELINE.relative_to(REPO)} ({data['date']}, {data['embedder_name']})"
    if missing:
        note += f"; {missing} question(s) of this run are not in it"
    return scoring.by_language(records, scoring.summarize_retrieval), note


def load_before(
    path: Path | None, questions: QuestionSet
) -> tuple[list[scoring.RetrievalRecord], list[scoring.AnswerRecord]]:
    """An earlier run's records (eval_answers.py's results file), its answers scored again from their
    text with today's scoring so that before and after are scored alike; none without a path."""
    if path is None:
        return [], []
    data = json.loads(path.read_text(encoding="utf-8"))
    by_id = {q.id: q for q in questions.questions}
    retrieval = [scoring.retrieval_record_from_json(r) for r in data.get("retrieval") or []]
    answers = [
        scoring.rescored(scoring.AnswerRecord(**r), by_id[r["id"]])
        for r in data.get("answers") or []
        if r["id"] in by_id
    ]
    return retrieval, answers


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    questions = load_questions(args.questions) if args.questions else load_questions()
    retrieval_before, answers_before = load_before(args.before, questions)
    chosen = select(questions, args)
    if not chosen:
        raise SystemExit("no question matches the selection")
    settings = eval_settings(args)
    settings.validate()
    started = time.perf_counter()
    library = prepared_library(questions, settings)
    print(f"library: {library.relative_to(REPO)} (ready in {time.perf_counter() - started:.1f} s)")
    model = settings.chat_model_path()
    # what answers: the GGUF file, or the server's model (its name, which may hold dots, kept whole)
    model_name = f"{settings.server_model} at {settings.server_url}" if settings.uses_server else model.name
    model_stem = settings.server_model.replace("/", "-") if settings.uses_server else model.stem
    embedder = settings.embed_model_path()

    with tempfile.TemporaryDirectory(prefix="folio-eval-") as scratch:
        folio = build_services(settings, working_copy(library, Path(scratch)))
        try:
            retrieval = [] if args.chats_only else run_retrieval(folio, chosen)
            answers = (
                []
                if args.retrieval_only or args.chats_only
                else run_answers(folio, chosen, args.max_tokens, args.thinking)
            )
            chats = []
            whole = not any((args.lang, args.limit, args.ids, args.half))
            if args.chats_only or (whole and not args.retrieval_only and not args.no_chats):
                from app.core.answering.types import AskOptions
                from benchmarks.evaluation.chats import run_chats

                chats = run_chats(folio, AskOptions(max_tokens=args.max_tokens, temperature=0.0, seed=SEED))
        finally:
            folio.close()

    retrieval_summary = scoring.by_language(retrieval, scoring.summarize_retrieval)
    baseline = load_baseline({r.id for r in retrieval})
    print(f"\n## Retrieval ({embedder.name}, {len(retrieval)} questions with answer pages)\n")
    if baseline:
        print(f"{baseline[1]}; after = this run\n")
    print(report.table(retrieval_summary, report.RETRIEVAL_COLUMNS, baseline[0] if baseline else None))
    split = {"retrieval": report.split_summaries(retrieval, questions, scoring.summarize_retrieval)}
    halves_text, halves = report.half_tables(
        retrieval,
        questions,
        scoring.summarize_retrieval,
        scoring.by_language,
        report.RETRIEVAL_COLUMNS,
        retrieval_before,
    )
    split["retrieval_halves"] = halves
    print(halves_text)
    if args.before:
        changed = report.changed_retrieval(retrieval_before, retrieval)
        print(f"\n### Retrieval: {len(changed)} question(s) changed since {args.before.name}\n")
        print("\n".join(changed))
    print("\n### Retrieval by source of the document, and traps\n")
    print(report.table(split["retrieval"], report.RETRIEVAL_COLUMNS))
    answer_summary: dict[str, Any] = {}
    if answers:
        answer_summary = scoring.by_language(answers, scoring.summarize_answers)
        budget = f"TTFT target {args.ttft_target:g} s" if args.ttft_target else "no TTFT passage budget"
        print(f"\n## Answers ({model_name}, max {args.max_tokens} tokens, greedy, seed {SEED}, {budget})\n")
        print(report.table(answer_summary, report.ANSWER_COLUMNS))
        split["answers"] = report.split_summaries(answers, questions, scoring.summarize_answers)
        halves_text, halves = report.half_tables(
            answers,
            questions,
            scoring.summarize_answers,
            scoring.by_language,
            report.ANSWER_COLUMNS,
            answers_before,
        )
        split["answer_halves"] = halves
        print(halves_text)
        if args.before:
            changed = report.changed_answers(answers_before, answers)
            print(f"\n### Answers: {len(changed)} question(s) changed since {args.before.name}\n")
            print("\n".join(changed))
        print(report.reask_lines(answers))
        print("\n### Answers by source of the document (generated, real), and traps\n")
        print(report.table(split["answers"], report.ANSWER_COLUMNS))

    if chats:
        summary = summarize_chats(chats)
        print(
            f"\nChat scenarios: {summary['ok']} of {summary['turns']} turns right (history as expected "
            f"{summary['history_right']}, answer in the question's language {summary['language_right']})"
        )
    selection = {"lang": args.lang, "limit": args.limit, "ids": args.ids, "half": args.half}

    document = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "model": None if args.retrieval_only else (model_name if settings.uses_server else str(model)),
        "embedder": str(embedder),
        "settings": settings.to_dict(),
        "max_tokens": args.max_tokens,
        "selection": selection,
        "before": str(args.before) if args.before else None,
        "library": library.name,
        "summary": {"retrieval": retrieval_summary, "answers": answer_summary, "split": split},
        "chats": summarize_chats(chats) if chats else None,
        "retrieval": [asdict(r) for r in retrieval],
        "answers": [r.to_json() for r in answers],
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    default = settings.evidence_selection == Settings().evidence_selection
    variant = "" if default else f"-evidence-{args.evidence}"
    if settings.answer_from != Settings().answer_from:
        variant += f"-from-{settings.answer_from}"
    if settings.prompt_style != Settings().prompt_style:
        variant += f"-prompt-{settings.prompt_style}"
    if settings.reask != Settings().reask:
        variant += f"-reask-{args.reask}"
    if settings.figures_from != Settings().figures_from:
        variant += f"-figures-{settings.figures_from}"
    if settings.kv_cache_type != Settings().kv_cache_type:
        variant += f"-kv-{settings.kv_cache_type}"
    if args.thinking:
        variant += "-thinking"
    name = f"eval-{model_stem}{variant}.json"
    if args.retrieval_only:
        name = f"eval-retrieval-{embedder.name}.json"
    out = RESULTS / name
    out.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"\nwrote {out.relative_to(REPO)}")
    if args.save_baseline:
        if any(selection.values()):
            raise SystemExit("--save-baseline needs the whole question set (no --lang/--limit/--ids)")
        saved = {k: document[k] for k in ("date", "embedder", "library")}
        saved["embedder_name"] = embedder.name
        saved["retrieval"] = retrieval_summary
        saved["questions"] = document["retrieval"]
        BASELINE.write_text(json.dumps(saved, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"wrote {BASELINE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
