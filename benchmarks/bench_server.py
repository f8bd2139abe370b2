"""The HTTP path's overhead (issue 23): the same prompts through the in-process llama.cpp engine and
through llama-cpp-python's OpenAI-compatible server on 127.0.0.1, same model, same threads, side by
side in one run (alternating which goes first). TTFT is the time from the request to the first
token as the engine reports it (GenerationEnd.first_token_at); decode tok/s is the token stream's
own rate ((n - 1) / (last - first)), computed the same way for both. Goal: decode ≥ 0.95× and TTFT
≤ 1.05× + 50 ms of the in-process engine. Prints the figures and writes results/server.json.

    .venv/bin/python benchmarks/bench_server.py [--model GGUF] [--threads 2] [--questions 6]
        [--tokens 64]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from app.core import paths  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.generate.chat_engine import ChatEngine, engine_for  # noqa: E402
from app.core.generate.engine import Engine  # noqa: E402
from app.core.generate.model import ChatRequest, Sampling  # noqa: E402
from app.core.generate.steps import GenerationEnd  # noqa: E402
from app.core.passage import Hit  # noqa: E402
from app.core.prompt.budget import build_messages  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402
from tests.integration.llama_server import MODEL_NAME, LlamaServer  # noqa: E402

TOPICS = [
    ("lighthouse", "The Carrick Point lighthouse was built in {y}; its lamp stands {n} metres above sea."),
    ("bridge", "The Yong'an bridge was finished in {y}; it is {n} metres long and has seven arches."),
    ("mill", "The first mill of Harbourton opened in {y}; by 1900 it employed {n} workers."),
    ("tram", "Trams ran in Harbourton from {y} for {n} years before buses replaced them."),
    ("festival", "The Lantern Festival has been held every autumn since {y} and draws {n} visitors."),
    ("library", "The town library opened in {y} with {n} books, most of them donated."),
    ("harbour", "The harbour wall was raised in {y} after a storm, to {n} metres above the tide."),
    ("school", "The grammar school was founded in {y} and had {n} pupils in its first year."),
]  # fmt: skip


def prompt_for(index: int, passages: int) -> tuple[str, list[Hit]]:
    """A question and its passages: each prompt different from the others (no shared KV cache past
    the instructions), about 1,000 tokens."""
    hits = []
    for n in range(passages):
        name, template = TOPICS[(index + n) % len(TOPICS)]
        text = " ".join(
            template.format(y=1800 + 7 * index + n + k, n=10 + index + 3 * n + k) for k in range(6)
        )
        hits.append(Hit(n + 1, 1, f"{name}.pdf", f"/{name}.pdf", 1 + n, 1 + n, 0, len(text), text, 1.0, 0.5))
    return f"When was the {TOPICS[index % len(TOPICS)][0]} built or opened, and how big is it?", hits


def run_once(engine: ChatEngine, question: str, hits: Sequence[Hit], tokens: int) -> dict[str, Any]:
    messages = build_messages(question, hits, [])
    chat = ChatRequest(tuple(messages), False)
    prompt = engine.tokenize_prompt(engine.render_chat(messages, enable_thinking=False))
    end: GenerationEnd | None = None
    with engine.lock:
        started = time.perf_counter()
        for event in engine.stream(prompt, Sampling(temperature=0.0, max_tokens=tokens), chat=chat):
            if isinstance(event, GenerationEnd):
                end = event
    if end is None or end.first_token_at is None or end.last_token_at is None:
        raise RuntimeError(f"no answer: {end.error if end else 'no end'}")
    decode = (
        (end.completion_tokens - 1) / (end.last_token_at - end.first_token_at)
        if end.completion_tokens > 1
        else None
    )
    return {
        "prompt_tokens": len(prompt),
        "ttft_ms": (end.first_token_at - started) * 1000.0,
        "decode_tokens_per_s": decode,
        "completion_tokens": end.completion_tokens,
        "finish_reason": end.finish_reason,
        "counts_from": end.counts_from,
    }


def median(rows: Sequence[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in rows if r[key] is not None)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--questions", type=int, default=6)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--passages", type=int, default=6)
    args = parser.parse_args(argv)
    load_before = [round(x, 2) for x in os.getloadavg()]
    local = Engine(args.model, n_ctx=4096, n_threads=args.threads, n_threads_batch=args.threads)
    local.load()
    with tempfile.TemporaryDirectory(prefix="folio-bench-server-") as scratch:
        server = LlamaServer(
            args.model, Path(scratch) / "server.log", n_ctx=4096, threads=args.threads
        ).start()
        try:
            remote = engine_for(Settings(server_url=server.url, server_model=MODEL_NAME, n_ctx=4096))
            remote.load()
            question, hits = prompt_for(len(TOPICS) - 1, args.passages)  # warm-up, both
            run_once(local, question, hits, 8)
            run_once(remote, question, hits, 8)
            rows: dict[str, list[dict[str, Any]]] = {"local": [], "server": []}
            for index in range(args.questions):
                question, hits = prompt_for(index, args.passages)
                order = [("local", local), ("server", remote)]
                for name, engine in order if index % 2 == 0 else reversed(order):
                    rows[name].append(run_once(engine, question, hits, args.tokens))
                    r = rows[name][-1]
                    rate = r["decode_tokens_per_s"] or 0.0
                    print(
                        f"q{index} {name:6} prompt {r['prompt_tokens']:5} TTFT {r['ttft_ms']:7.0f} ms  "
                        f"decode {rate:5.1f} tok/s  ({r['completion_tokens']} tokens, {r['finish_reason']})",
                        flush=True,
                    )
            remote.close()
        finally:
            server.stop()
            local.close()
    load_after = [round(x, 2) for x in os.getloadavg()]
    summary = {
        name: {
            "ttft_ms_p50": median(r, "ttft_ms"),
            "decode_tokens_per_s_p50": median(r, "decode_tokens_per_s"),
        }
        for name, r in rows.items()
    }
    ttft_ratio = summary["server"]["ttft_ms_p50"] / summary["local"]["ttft_ms_p50"]
    decode_ratio = summary["server"]["decode_tokens_per_s_p50"] / summary["local"]["decode_tokens_per_s_p50"]
    ttft_extra = summary["server"]["ttft_ms_p50"] - summary["local"]["ttft_ms_p50"]
    ttft_goal = 1.05 * summary["local"]["ttft_ms_p50"] + 50.0
    print(
        "\n| engine | TTFT p50 | decode p50 |\n|---|---|---|\n"
        + "\n".join(
            f"| {n} | {s['ttft_ms_p50']:.0f} ms | {s['decode_tokens_per_s_p50']:.1f} tok/s |"
            for n, s in summary.items()
        )
    )
    ttft_met = "met" if summary["server"]["ttft_ms_p50"] <= ttft_goal else "missed"
    decode_met = "met" if decode_ratio >= 0.95 else "missed"
    print(
        f"\nserver / in-process: TTFT ×{ttft_ratio:.3f} ({ttft_extra:+.0f} ms; goal ≤ {ttft_goal:.0f} ms: "
        f"{ttft_met}), decode ×{decode_ratio:.3f} (goal ≥ 0.95: {decode_met}); "
        f"load {load_before} → {load_after}"
    )
    out = write_result(
        "server",
        {
            "model": str(args.model),
            "threads": args.threads,
            "rows": rows,
            "summary": summary,
            "ttft_ratio": ttft_ratio,
            "decode_ratio": decode_ratio,
            "load_before": load_before,
            "load_after": load_after,
        },
    )
    print(f"wrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
