"""Does the cited passage make the answer more likely? The model's own likelihood of each recorded
answer with and without its passage, measured to decide whether it can tell right answers from wrong.

For each answer of the given `make eval` runs (the model's text without Folio's note and without
its [n] markers), the chat model scores the answer's tokens three ways, each a chat turn in the
model's own template: after the question alone ("none"), after the question and the passages the
answer cites ("cited"; the first prompt passage when it cites none) and after the question and the
sentences Folio found for it before the model ran ("found"; the cited passages when none were
found). The per-token log-probabilities are written to a JSON file, so that the analysis
(`--analyse`) never calls the model again: for each answer, the mean log-probability gain of the
passage over the question alone (pointwise mutual information), per answer and per sentence, and
how well each separates right answers from wrong ones (AUC), per language and across languages, on
the calibration half; then a threshold chosen there, reported on the held-out half.

    .venv/bin/python benchmarks/measure_likelihood.py RUN.json [RUN.json ...] --name NAME
    .venv/bin/python benchmarks/measure_likelihood.py --analyse FILE.json [FILE.json ...]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.answering.evidence.sentences import split_sentences  # noqa: E402
from app.core.answering.presentation.verdict_text import strip_note  # noqa: E402
from benchmarks.calibrate_refusal import auc  # noqa: E402
from benchmarks.evaluation import scoring  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions  # noqa: E402
from benchmarks.evaluation.judge_cases import ROWS, by_row, figures, table  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

MARKER = re.compile(r"\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")
SYSTEM = {
    "en": "Answer the question in one or two sentences.",
    "zh": "用一两句话回答问题。",
}
WAYS = ("none", "cited", "found")
MAX_PASSAGE_CHARS = 800  # the head of a passage: ~250 tokens, so that three ways cost < 1k tokens per answer
MAX_CITED = 2  # passages given in the "cited" way


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", type=Path, nargs="*", help="results files of benchmarks/eval_answers.py")
    parser.add_argument("--name", help="results/NAME.json gets the per-token log-probabilities")
    parser.add_argument(
        "--model", type=Path, default=REPO / "models" / "Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf"
    )
    parser.add_argument("--half", choices=("calibration", "held_out", "all"), default="all")
    parser.add_argument("--analyse", type=Path, nargs="*", help="measured files to analyse")
    parser.add_argument(
        "--verdicts",
        type=Path,
        help="with --analyse: the judge's verdicts by question id "
        "(calibrate_judge.py --keep --verdicts), in place of those the runs recorded",
    )
    parser.add_argument(
        "--signals",
        default="found_pmi_mean,cited_pmi_mean",
        help="with --analyse: the signals to fit a rule for, comma-separated",
    )
    return parser.parse_args(argv)


def cited_numbers(text: str) -> list[int]:
    """The passage numbers the answer's [n] markers name, in order, once each."""
    out: list[int] = []
    for marker in MARKER.finditer(text):
        for part in re.findall(r"\d+", marker.group()):
            if int(part) not in out:
                out.append(int(part))
    return out


@dataclass(frozen=True)
class Item:
    """One recorded answer to score."""

    id: str
    half: str
    row: str
    lang: str
    answerable: bool
    correct: bool
    refusal: bool
    verdict: str | None
    question: str
    answer: str  # without note or markers
    contexts: dict[str, str]  # way -> the text given before the question ("" for none)


def items_of(run: dict[str, Any], by_id: dict[str, Question], half: str) -> list[Item]:
    items = []
    for saved in run["answers"]:
        question = by_id.get(saved["id"])
        if question is None or (half != "all" and question.half != half):
            continue
        record = scoring.AnswerRecord(**saved)
        judged = record.extra.get("judged") or {}
        passages = [str(p["text"]) for p in judged.get("passages") or []]
        text = strip_note(record.answer)
        if not passages or not text.strip() or record.finish_reason not in ("stop", "length"):
            continue
        fresh = scoring.score_answer(question, {"answer": text, "finish_reason": record.finish_reason})
        numbers = ([n for n in cited_numbers(text) if 1 <= n <= len(passages)] or [1])[:MAX_CITED]
        cited = "\n\n".join(passages[n - 1][:MAX_PASSAGE_CHARS] for n in numbers)
        found = "\n".join(str(f["sentence"]) for f in judged.get("located") or [])
        bare = MARKER.sub("", text).strip()
        if not bare:
            continue
        items.append(
            Item(
                id=question.id,
                half=question.half,
                row=question.direction,
                lang=question.lang,
                answerable=question.answerable,
                correct=fresh.correct,
                refusal=fresh.refusal,
                verdict=record.extra.get("verdict"),
                question=question.question,
                answer=bare,
                contexts={"none": "", "cited": cited, "found": found or cited},
            )
        )
    return items


class Scorer:
    """The chat model's log-probability of each answer token after a given chat turn."""

    def __init__(self, model: Path) -> None:
        from app.core.generate.cpu_kernels import new_llama

        self.llm = new_llama(
            model_path=str(model), n_ctx=3072, n_threads=2, logits_all=True, verbose=False, n_batch=512
        )

    def turn(self, lang: str, context: str, question: str) -> str:
        user = f"{context}\n\n{question}" if context else question
        return (
            f"<|im_start|>system\n{SYSTEM[lang]}<|im_end|>\n"
            f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
        )

    def score(self, prompt: str, answer: str) -> tuple[list[float], list[str]]:
        llm = self.llm
        head = llm.tokenize(prompt.encode(), add_bos=False, special=True)
        tail = llm.tokenize(answer.encode(), add_bos=False, special=False)
        tokens = head + tail
        if len(tokens) > llm.n_ctx():
            head = head[-(llm.n_ctx() - len(tail)) :]
            tokens = head + tail
        llm.reset()
        llm.eval(tokens)
        logits = np.asarray(llm.scores[len(head) - 1 : len(tokens) - 1], dtype=np.float64)
        top = logits.max(axis=1, keepdims=True)
        log_norm = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
        chosen = logits[np.arange(len(tail)), tail]
        pieces = [llm.detokenize([t]).decode("utf-8", "replace") for t in tail]
        return (chosen - log_norm).tolist(), pieces


def measure(args: argparse.Namespace) -> int:
    questions = load_questions()
    by_id = {q.id: q for q in questions.questions}
    items: list[Item] = []
    for path in args.runs:
        items.extend(items_of(json.loads(path.read_text(encoding="utf-8")), by_id, args.half))
    scorer = Scorer(args.model)
    out = []
    started = time.perf_counter()
    for k, item in enumerate(items, 1):
        entry: dict[str, Any] = {
            "id": item.id,
            "half": item.half,
            "row": item.row,
            "lang": item.lang,
            "answerable": item.answerable,
            "correct": item.correct,
            "refusal": item.refusal,
            "verdict": item.verdict,
            "answer": item.answer,
        }
        for way in WAYS:
            logprobs, pieces = scorer.score(
                scorer.turn(item.lang, item.contexts[way], item.question), item.answer
            )
            entry[way] = logprobs
            entry["pieces"] = pieces
        out.append(entry)
        elapsed = time.perf_counter() - started
        print(f"{k}/{len(items)} {item.id} {elapsed:.0f}s", flush=True)
    payload = {"model": str(args.model), "runs": [str(p) for p in args.runs], "answers": out}
    write_result(args.name, payload)
    return 0


# ----- analysis -----


def sentence_spans(answer: str, pieces: Sequence[str]) -> list[list[int]]:
    """The answer tokens of each sentence (by the judge's splitter), by character offsets."""
    bounds = [(s.start, s.end) for s in split_sentences(answer)] or [(0, len(answer))]
    spans: list[list[int]] = [[] for _ in bounds]
    offset = 0
    for k, piece in enumerate(pieces):
        middle = offset + len(piece) / 2
        for i, (start, end) in enumerate(bounds):
            if start <= middle < end or (i == len(bounds) - 1 and middle >= start):
                spans[i].append(k)
                break
        offset += len(piece)
    return [s for s in spans if s]


def features(entry: dict[str, Any]) -> dict[str, float]:
    """The candidate signals of one answer."""
    none = np.asarray(entry["none"])
    out: dict[str, float] = {}
    for way in ("cited", "found"):
        given = np.asarray(entry[way])
        gain = given - none
        out[f"{way}_pmi_mean"] = float(gain.mean())
        out[f"{way}_logp_mean"] = float(given.mean())
        spans = sentence_spans(entry["answer"], entry["pieces"])
        per_sentence = [float(gain[s].mean()) for s in spans]
        out[f"{way}_pmi_min_sentence"] = min(per_sentence)
        # how much of the answer the passage makes likely: share of tokens whose log-prob rose > 1 nat
        out[f"{way}_lifted_share"] = float((gain > 1.0).mean())
        out[f"{way}_pmi_sum"] = float(gain.sum())
    out["none_logp_mean"] = float(none.mean())
    return out


@dataclass
class Scored:
    """One measured answer as the analysis reads it (the fields calibrate_judge's tables read)."""

    id: str
    half: str
    row: str
    answerable: bool
    correct: bool
    refusal: bool
    verdict: str | None
    f: dict[str, float]

    @classmethod
    def of(cls, entry: dict[str, Any], verdicts: dict[str, str | None]) -> Scored:
        verdict = verdicts[entry["id"]] if entry["id"] in verdicts else entry["verdict"]
        return cls(
            entry["id"], entry["half"], entry["row"], entry["answerable"], entry["correct"],
            entry["refusal"], verdict, features(entry),
        )  # fmt: skip


def auc_table(entries: Sequence[Scored], names: Sequence[str]) -> str:
    """AUC of each signal for right vs other answers (not refused), per row."""
    lines = ["| signal | " + " | ".join(f"{r} (right/other)" for r in ROWS) + " |"]
    lines.append("|---" * (len(ROWS) + 1) + "|")
    for name in names:
        cells = []
        for row in ROWS:
            chosen = [e for e in entries if (row == "all" or e.row == row) and not e.refusal]
            right = [e.f[name] for e in chosen if e.answerable and e.correct]
            other = [e.f[name] for e in chosen if not (e.answerable and e.correct)]
            value = auc(right, other)
            cells.append(f"{value:.2f} ({len(right)}/{len(other)})" if value is not None else "–")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


RULES = ("alone", "or", "and")  # the signal alone; the judge's "answered" or the signal; both
MIN_PRECISION = 0.9


def said_by(rule: str, entries: Sequence[Scored], name: str, threshold: float) -> list[str | None]:
    """The verdict a rule gives each answer: "answered" or None (never for a refusal)."""
    out: list[str | None] = []
    for e in entries:
        signal = e.f[name] >= threshold
        judged = e.verdict == "answered"
        said = signal if rule == "alone" else (judged or signal) if rule == "or" else (judged and signal)
        out.append("answered" if said and not e.refusal else None)
    return out


def fit_threshold(entries: Sequence[Scored], name: str, rule: str) -> float | None:
    """The threshold of the most coverage at precision >= MIN_PRECISION with unanswerable questions
    held back >= 0.9 over `entries` (the calibration half); None when no threshold reaches it."""
    best: tuple[float, float] | None = None
    for threshold in sorted({e.f[name] for e in entries}):
        f = figures(entries, said_by(rule, entries, name, threshold))
        if f["precision"] is None or f["precision"] < MIN_PRECISION or (f["held_back"] or 1.0) < 0.9:
            continue
        if best is None or (f["coverage"] or 0.0) > best[1]:
            best = (threshold, f["coverage"] or 0.0)
    return best[0] if best else None


def analyse(paths: Sequence[Path], verdicts_file: Path | None, signals: Sequence[str]) -> int:
    verdicts = json.loads(verdicts_file.read_text(encoding="utf-8")) if verdicts_file else {}
    entries = [
        Scored.of(entry, verdicts)
        for path in paths
        for entry in json.loads(path.read_text(encoding="utf-8"))["answers"]
    ]
    names = list(entries[0].f) if entries else []
    halves = {half: [e for e in entries if e.half == half] for half in ("calibration", "held_out")}
    source = f"the verdicts of {verdicts_file.name}" if verdicts_file else "the verdicts the runs recorded"
    for half, chosen in halves.items():
        if chosen:
            print(f"\n## {half}: AUC, right vs other answers (not refused; other includes unanswerable)\n")
            print(auc_table(chosen, names))
    for name in signals:
        for rule in RULES:
            threshold = fit_threshold(halves["calibration"], name, rule)
            if threshold is None:
                print(
                    f"\n{name} {rule}: no threshold reaches precision {MIN_PRECISION} on the calibration half"
                )
                continue
            for half, chosen in halves.items():
                if chosen:
                    judged = by_row(chosen, [e.verdict for e in chosen])
                    ruled = by_row(chosen, said_by(rule, chosen, name, threshold))
                    print(f"\n{half}: the judge alone ({source}) → {rule} {name} >= {threshold:.3f}\n")
                    print(table(judged, ruled))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.analyse:
        return analyse(args.analyse, args.verdicts, args.signals.split(","))
    if not args.runs or not args.name:
        print("give RUN.json files and --name, or --analyse FILE.json", file=sys.stderr)
        return 2
    return measure(args)


if __name__ == "__main__":
    raise SystemExit(main())
