"""Chat model candidates side by side: size, TTFT, decode speed, memory, and a six-question quality probe.

Usage: .venv/bin/python benchmarks/bench_models.py [--models KEY|PATH ...] [--threads 1 2]
       [--prompt-tokens 1500] [--decode-tokens 64] [--no-probe]

For every installed chat model of app/core/generate/catalog.py (or the ones named), each in a
fresh subprocess so that memory figures are its own and only one model is in memory at a time:
- speed, once per thread count, loaded as Folio loads it (app.core.generate.engine.Engine,
  n_ctx 4096): TTFT of a cold ~1,500-token cited-answer prompt through Engine.stream, then decode
  tokens/s over a fixed number of greedy tokens (end-of-sequence ignored, so every model decodes
  the same count), and the process's RSS (current and peak);
- quality, with Folio's default settings and model_path set to the candidate: a three-page English
  PDF and a three-page Chinese Markdown file are ingested into a temporary library and three short
  questions in each language are asked through the real pipeline (temperature 0, 200 tokens).
  Each answer is printed with its citations; "right" means the answer holds the expected fact,
  "cited" that a citation points to the page that holds it.
Prints a table and writes benchmarks/results/models.json. Never run by the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.generate.catalog import KnownModel, by_file, chat_models  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "models.json"
N_CTX = 4096  # Folio's default context (Settings.n_ctx)
PROBE_MAX_TOKENS = 200

ENGLISH_PAGES = [
    [
        "Cape Merrow Lighthouse",
        "The lighthouse at Cape Merrow is 31 metres tall.",
        "It was finished in 1893 and guides ships past the Merrow reef.",
        "Its lamp shows a green flash every 12 seconds.",
        "The keeper's cottage beside the tower is now a small museum.",
    ],
    [
        "The Brenn Mill",
        "The old mill on the Brenn river ground flour until 1951.",
        "Its pond holds about 4,000 cubic metres of water.",
        "The mill wheel has 36 paddles and was rebuilt in oak in 1988.",
    ],
    [
        "Merrow Harbour",
        "The harbour office opens at 7 am on weekdays.",
        "A fishing licence costs 45 pounds a year and is sold at the harbour office.",
        "Boats longer than 12 metres must book a berth a week ahead.",
    ],
]
CHINESE_PAGES = [
    "# 青石镇钟楼\n\n青石镇的钟楼高二十八米，建于1902年。钟楼每到整点敲钟一次，钟声可以传到五公里以外。",
    "# 东山茶园\n\n镇东的茶园种植面积约为三百亩，主要出产绿茶。每年四月初开始采摘春茶，茶园对游客开放。",
    "# 青石渡口\n\n渡船每天早上六点开始运行，最后一班在晚上八点。单程票价为五元，儿童半价。",
]
PROBE_QUESTIONS = [
    # (language, question, document, page, pattern of the expected fact)
    ("en", "How tall is the lighthouse at Cape Merrow?", "merrow.pdf", 1, r"\b31(?![.,]\d)\b"),
    ("en", "Until which year did the Brenn mill grind flour?", "merrow.pdf", 2, r"\b1951\b"),
    ("en", "How much does a fishing licence cost?", "merrow.pdf", 3, r"\b45\b"),
    ("zh", "钟楼有多高？", "qingshi.md", 1, r"二十八|28"),
    ("zh", "东山茶园主要出产什么茶？", "qingshi.md", 2, r"绿茶"),
    ("zh", "渡船的单程票价是多少？", "qingshi.md", 3, r"五元|5\s*元"),
]


def memory_kb() -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak) of this process, from /proc (Linux)."""
    figures: dict[str, int] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                figures[key] = int(value.split()[0])
    return figures


# -- speed (one subprocess per model and thread count) -----------------------------------------


def measure_speed(model_path: Path, threads: int, prompt_tokens: int, decode_tokens: int) -> dict[str, Any]:
    from app.core.generate.engine import Engine
    from app.core.generate.model import Sampling
    from benchmarks.bench_generate import passages, run_stream
    from benchmarks.bench_generate import prompt_tokens as render_prompt

    started = time.perf_counter()
    engine = Engine(model_path, n_ctx=N_CTX, n_threads=threads)
    info = engine.load()
    load_s = time.perf_counter() - started
    hits = passages(prompt_tokens - 150, engine)
    prompt = render_prompt(engine, hits, "Explain in detail why the first token takes long to appear.")
    warm = render_prompt(engine, hits[:1], "What is this manual about?")
    run_stream(engine, warm, Sampling(temperature=0.0, max_tokens=4))  # page the weights in
    llm = engine._llm
    with engine.lock:
        llm.reset()
    cpu = time.process_time()
    end, begun, _ = run_stream(engine, prompt, Sampling(temperature=0.0, max_tokens=1))
    prefill_cpu_s = time.process_time() - cpu
    assert end.first_token_at is not None, end.error
    ttft_ms = (end.first_token_at - begun) * 1000.0

    # Decode: a fixed count of greedy tokens after the cached prompt, end-of-sequence ignored.
    times: list[float] = []
    cpu_times: list[float] = []
    with engine.lock:
        for _token in llm.generate(prompt, top_k=1, temp=0.0, repeat_penalty=1.0, reset=True):
            times.append(time.perf_counter())
            cpu_times.append(time.process_time())
            if len(times) >= decode_tokens:
                break
    decode = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else 0.0
    decode_cpu = (cpu_times[-1] - cpu_times[0]) / (len(times) - 1) if len(times) > 1 else 0.0
    result = {
        "threads": threads,
        "load_s": round(load_s, 2),
        "prompt_tokens": len(prompt),
        "ttft_ms": round(ttft_ms, 1),
        "prefill_tokens_per_s": round(end.prefill_tokens_per_s or 0.0, 1),
        "decode_tokens": len(times),
        "decode_tokens_per_s": round(decode, 2),
        # CPU seconds the process used (all its threads): on a machine shared with other jobs the
        # wall-clock figures above stretch, these do not (with 1 thread they are the idle-machine
        # times; with 2, llama.cpp's spinning threads add CPU time that is no work).
        "prefill_cpu_s": round(prefill_cpu_s, 2),
        "prefill_tokens_per_cpu_s": round(len(prompt) / prefill_cpu_s, 1) if prefill_cpu_s else None,
        "decode_cpu_ms_per_token": round(decode_cpu * 1000.0, 2),
        "load_average": os.getloadavg(),
        "rss_mb": round(memory_kb()["VmRSS"] / 1024),
        "peak_rss_mb": round(memory_kb()["VmHWM"] / 1024),
        "n_ctx": info.n_ctx,
        "chat_template": info.chat_template,
    }
    engine.close()
    return result


# -- quality probe (one subprocess per model) --------------------------------------------------


def write_documents(folder: Path) -> list[Path]:
    from tests.pdfgen import write_pdf

    pdf = write_pdf(folder / "merrow.pdf", ENGLISH_PAGES)
    # Text files are paged every 60 lines (app/core/ingest/readers.py): one topic per page.
    markdown = folder / "qingshi.md"
    markdown.write_text("".join(page + "\n" * (60 - page.count("\n")) for page in CHINESE_PAGES), "utf-8")
    return [pdf, markdown]


def ask_options() -> Any:
    try:
        from app.core.answering.types import AskOptions  # after the answering restructure
    except ImportError:
        from app.core.answer import AskOptions
    return AskOptions(temperature=0.0, max_tokens=PROBE_MAX_TOKENS)


def run_probe(model_path: Path) -> list[dict[str, Any]]:
    from app.core.config import Settings
    from app.core.services import build_services

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="folio-bench-models-") as tmp:
        folder = Path(tmp)
        documents = write_documents(folder)
        # No TTFT-driven passage budget: every model sees the same passages, however busy the machine.
        settings = Settings().replace(model_path=str(model_path), ttft_target_s=0.0)
        folio = build_services(settings, folder / "library")
        try:
            report = folio.library.ingest(documents)
            failed = [f for f in report.files if f.status == "failed"]
            if failed:
                raise RuntimeError(f"ingest failed: {failed}")
            ask = folio.answering.ask
            options = ask_options()
            for language, question, document, page, pattern in PROBE_QUESTIONS:
                answer = ask(question, options)
                cited = [(c.document, c.page) for c in answer.citations]
                results.append(
                    {
                        "language": language,
                        "question": question,
                        "answer": answer.answer,
                        "citations": cited,
                        "right": bool(re.search(pattern, answer.answer)),
                        "cited_right_page": (document, page) in cited,
                        "finish_reason": answer.finish_reason,
                        "grounded": answer.grounded,
                        "ttft_ms": answer.metrics.ttft_ms,
                        "tokens_per_s": answer.metrics.tokens_per_s,
                        "completion_tokens": answer.metrics.completion_tokens,
                        "prompt_tokens": answer.metrics.prompt_tokens,
                    }
                )
        finally:
            folio.close()
    return results


# -- the driver --------------------------------------------------------------------------------


def candidates(names: list[str]) -> list[tuple[Path, KnownModel | None]]:
    """The models to measure: installed catalog chat models, or the named keys / paths."""
    if not names:
        found = [(paths.models_dir() / m.file, m) for m in chat_models()]
        return [(path, model) for path, model in found if path.is_file()]
    chosen: list[tuple[Path, KnownModel | None]] = []
    for name in names:
        known = next((m for m in chat_models() if m.key == name), None)
        path = paths.models_dir() / known.file if known else Path(name)
        if not path.is_file():
            raise SystemExit(
                f"no model file {path} (install it: packaging/install_models.py models --with KEY)"
            )
        chosen.append((path, known or by_file(path.name)))
    return chosen


def in_subprocess(args: list[str]) -> Any:
    """Run this script's worker mode; its last stdout line is the JSON result."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        return {"error": f"worker exited with {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def print_probe(name: str, probe: list[dict[str, Any]]) -> None:
    print(f"\n{name}: quality probe")
    for row in probe:
        mark = ("right" if row["right"] else "WRONG") + (
            ", cited" if row["cited_right_page"] else ", NOT cited"
        )
        answer = " ".join(row["answer"].split())
        ttft = row["ttft_ms"] or 0.0
        print(
            f"  [{row['language']}] {row['question']}  ->  {mark}; {row['finish_reason']}, TTFT {ttft:.0f} ms"
        )
        print(f"       {answer[:300]}")
        print(f"       citations: {row['citations']}")


def write_results(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Write what has been measured so far (after each model: a long run can be stopped). Rows of
    other models already in the file are kept, so that models can be measured in separate runs."""
    measured = {row["model"] for row in rows}
    kept: list[dict[str, Any]] = []
    if RESULTS.exists():
        previous = json.loads(RESULTS.read_text(encoding="utf-8"))
        kept = [row for row in previous.get("models", []) if row["model"] not in measured]
    result = {
        "models": kept + rows,
        "prompt_tokens_target": args.prompt_tokens,
        "decode_tokens": args.decode_tokens,
        "n_ctx": N_CTX,
        "machine": {
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        },
        "command": " ".join([".venv/bin/python", "benchmarks/bench_models.py", *sys.argv[1:]]),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--models", nargs="*", default=[], help="catalog keys or GGUF paths (default: installed)"
    )
    parser.add_argument("--threads", nargs="*", type=int, default=[1, 2])
    parser.add_argument("--prompt-tokens", type=int, default=1500)
    parser.add_argument("--decode-tokens", type=int, default=64)
    parser.add_argument("--no-probe", action="store_true")
    parser.add_argument("--worker", choices=["speed", "probe"], help=argparse.SUPPRESS)
    parser.add_argument("--path", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker == "speed":
        speed = measure_speed(args.path, args.threads[0], args.prompt_tokens, args.decode_tokens)
        print(json.dumps(speed))
        return 0
    if args.worker == "probe":
        print(json.dumps(run_probe(args.path), ensure_ascii=False))
        return 0

    rows: list[dict[str, Any]] = []
    for path, known in candidates(args.models):
        name = known.key if known else path.name
        row: dict[str, Any] = {
            "model": name,
            "file": path.name,
            "size_mb": round(path.stat().st_size / 1e6),
            "licence": known.licence if known else "unknown",
            "speed": [],
        }
        for threads in args.threads:
            worker = ["--worker", "speed", "--path", str(path), "--threads", str(threads)]
            worker += ["--prompt-tokens", str(args.prompt_tokens), "--decode-tokens", str(args.decode_tokens)]
            speed = in_subprocess(worker)
            row["speed"].append(speed)
            print(f"{name}, {threads} thread(s): {speed}", flush=True)
        if not args.no_probe:
            row["probe"] = in_subprocess(["--worker", "probe", "--path", str(path)])
            if isinstance(row["probe"], list):
                print_probe(name, row["probe"])
        row["command"] = " ".join([".venv/bin/python", "benchmarks/bench_models.py", *sys.argv[1:]])
        rows.append(row)
        write_results(rows, args)

    print(
        f"\n{'model':20} {'MB':>5} {'licence':10} {'thr':>3} {'TTFT ms':>8} {'prefill/s':>9} "
        f"{'decode/s':>8} {'pre/cpu-s':>9} {'dec cpu-ms':>10} {'RSS MB':>6}  probe right/cited (en, zh)"
    )
    for row in rows:
        probe = row.get("probe")
        summary = ""
        if isinstance(probe, list):
            for language in ("en", "zh"):
                rs = [r for r in probe if r["language"] == language]
                right, cited = sum(r["right"] for r in rs), sum(r["cited_right_page"] for r in rs)
                summary += f"{language} {right}/{cited} of {len(rs)}  "
        for speed in row["speed"]:
            if "error" in speed:
                print(f"{row['model']:20} {row['size_mb']:5} {row['licence']:10} error: {speed['error']}")
                continue
            print(
                f"{row['model']:20} {row['size_mb']:5} {row['licence']:10} {speed['threads']:3} "
                f"{speed['ttft_ms']:8.0f} {speed['prefill_tokens_per_s']:9.0f} "
                f"{speed['decode_tokens_per_s']:8.1f} {speed['prefill_tokens_per_cpu_s'] or 0:9.0f} "
                f"{speed['decode_cpu_ms_per_token']:10.1f} {speed['rss_mb']:6}  {summary}"
            )
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
