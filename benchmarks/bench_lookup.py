"""Prompt-lookup decoding against plain decoding: decode tok/s side by side on eval-like prompts.

Each prompt is Folio's own (build_messages) over an eval question and the text of the pages that
hold its answer (benchmarks/eval/questions.json, pages extracted as Folio reads them), for the
default model with the settings' sampling. Per prompt, plain and lookup decoding run back to back
on one loaded model (order alternated), so the ratio lookup/plain compares the same prompt, model
and machine minute; the prompt's prefill is shared (the second run reuses the KV cache) and not
part of the decode rate (first token to last). Also: whether the two wrote the same tokens, and how
many draft tokens the model kept.

Usage: python benchmarks/bench_lookup.py [--prompts 12] [--tokens 128] [--lookup-tokens 10]
Prints the figures and writes benchmarks/results/lookup.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.generate.engine import Engine  # noqa: E402
from app.core.generate.model import Sampling  # noqa: E402
from app.core.generate.steps import GenerationEnd, TokenStep  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from app.core.prompt.budget import build_messages  # noqa: E402
from benchmarks.evaluation.dataset import Question, load_questions, page_texts  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

PASSAGE_CHARS = 900  # about Folio's 200-token chunks


def eval_prompts(count: int) -> list[tuple[Question, list[Hit]]]:
    """The first `count` answerable questions, English and Chinese taken in turn, each with its
    answer pages cut into passages (at most 6, as Folio's passages_k)."""
    questions = load_questions()
    by_lang: dict[str, list[Question]] = {}
    for q in questions.questions:
        if q.answerable and q.document and not q.cross:
            by_lang.setdefault(q.lang, []).append(q)
    chosen: list[Question] = []
    while len(chosen) < count and any(by_lang.values()):
        for lang in sorted(by_lang):
            if by_lang[lang] and len(chosen) < count:
                chosen.append(by_lang[lang].pop(0))
    prompts = []
    for q in chosen:
        assert q.document is not None
        doc = questions.document(q.document)
        hits: list[Hit] = []
        for page, text in page_texts(doc.file, q.pages).items():
            for start in range(0, len(text), PASSAGE_CHARS):
                piece = text[start : start + PASSAGE_CHARS]
                n = len(hits) + 1
                hits.append(
                    Hit(n, 1, doc.name, str(doc.file), page, page, start, start + len(piece), piece, 0.1, 0.6)
                )
        prompts.append((q, hits[:6]))
    return prompts


def run(
    engine: Engine, prompt: list[int], sampling: Sampling, lookup: int
) -> tuple[list[int], GenerationEnd]:
    engine.lookup_tokens = lookup
    tokens: list[int] = []
    end: GenerationEnd | None = None
    with engine.lock:
        for event in engine.stream(prompt, sampling):
            if isinstance(event, TokenStep):
                tokens.append(event.token)
            else:
                end = event
    assert end is not None and end.error is None, end
    return tokens, end


def decode_rate(end: GenerationEnd) -> float | None:
    if end.first_token_at is None or end.last_token_at is None or end.completion_tokens < 8:
        return None
    return (end.completion_tokens - 1) / max(end.last_token_at - end.first_token_at, 1e-9)


def spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prompts", type=int, default=12)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--lookup-tokens", type=int, default=Settings().lookup_tokens or 10)
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    parser.add_argument("--temperature", type=float, default=None, help="default: the settings'")
    args = parser.parse_args()
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    sampling = Sampling(max_tokens=args.tokens)
    if args.temperature is not None:
        sampling = Sampling(temperature=args.temperature, max_tokens=args.tokens)
    engine = Engine(args.model, n_ctx=4096)
    engine.load()
    rows: list[dict[str, Any]] = []
    for n, (question, hits) in enumerate(eval_prompts(args.prompts)):
        rendered = engine.render_chat(build_messages(question.question, hits, []), enable_thinking=False)
        prompt = engine.tokenize_prompt(rendered)
        order = [0, args.lookup_tokens] if n % 2 == 0 else [args.lookup_tokens, 0]
        results = {lookup: run(engine, prompt, sampling, lookup) for lookup in order}
        (plain, plain_end), (looked, end) = results[0], results[args.lookup_tokens]
        plain_rate, rate = decode_rate(plain_end), decode_rate(end)
        row = {
            "id": question.id,
            "prompt_tokens": len(prompt),
            "completion_tokens": [len(plain), len(looked)],
            "identical": plain == looked,
            "plain_tok_s": plain_rate,
            "lookup_tok_s": rate,
            "ratio": rate / plain_rate if rate and plain_rate else None,
            "drafted": end.drafted_tokens,
            "accepted": end.accepted_tokens,
        }
        rows.append(row)
        print(
            f"{question.id}: {len(prompt)} prompt tokens, {len(plain)}/{len(looked)} tokens, "
            f"plain {plain_rate or 0:.1f} tok/s, lookup {rate or 0:.1f} tok/s, "
            f"×{row['ratio'] or 0:.2f}, kept {end.accepted_tokens}/{end.drafted_tokens} drafted, "
            f"identical {row['identical']}",
            flush=True,
        )
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    result = {
        "model": args.model.name,
        "lookup_tokens": args.lookup_tokens,
        "sampling": sampling.to_json(),
        "n_threads": engine.n_threads,
        "prompts": len(rows),
        "identical": sum(1 for r in rows if r["identical"]),
        "plain_tok_s": spread([r["plain_tok_s"] for r in rows if r["plain_tok_s"]]),
        "lookup_tok_s": spread([r["lookup_tok_s"] for r in rows if r["lookup_tok_s"]]),
        "ratio": spread(ratios),
        "accepted_of_generated": sum(r["accepted"] for r in rows)
        / max(1, sum(r["completion_tokens"][1] for r in rows)),
        "rows": rows,
    }
    write_result("lookup", result)
    median = result["ratio"]["median"] if result["ratio"] else 0.0
    print(
        f"decode tok/s lookup / plain, median of {len(ratios)} prompts: ×{median:.2f}; "
        f"identical tokens {result['identical']}/{len(rows)}; "
        f"{result['accepted_of_generated']:.0%} of the answers' tokens came from kept drafts"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
