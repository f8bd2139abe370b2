"""KV cache memory, f16 vs q8_0: the header's figure, llama.cpp's own, and the process RSS at load.

Usage: python benchmarks/bench_kv_cache.py [--model GGUF] [--ctx 4096] [--prompt-tokens 1500]
Each type loads the model in a fresh process, through Folio's Engine (the app's own load), and
reports the RSS before and after the load and after a prefill of --prompt-tokens tokens (about the
eval's median prompt), and the peak (VmHWM); llama.cpp's "llama_kv_cache: size" line comes from a
second verbose load in the same process. Writes benchmarks/results/kv_cache.json (+ .env.json).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core import paths  # noqa: E402
from app.core.config import KV_CACHE_TYPES  # noqa: E402
from app.core.generate.cpu_kernels import new_llama  # noqa: E402
from benchmarks.record_env import write_result  # noqa: E402

KV_LOG = re.compile(r"llama_kv_cache: size = +([\d.]+) MiB")
MIB = 1 << 20
TEXT = "The KV cache keeps the keys and values of the prompt, so that decoding does not compute them again. "


def status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def measure(model: Path, n_ctx: int, kv_type: str, prompt_tokens: int) -> dict[str, Any]:
    """In this (fresh) process: load through the Engine, prefill, then llama.cpp's own log line."""
    from app.core.generate.engine import Engine
    from app.core.generate.kv_cache import llama_kv_options

    before = status_kib("VmRSS")
    engine = Engine(model, n_ctx=n_ctx, kv_cache_type=kv_type)
    started = time.perf_counter()
    info = engine.load()
    load_s = time.perf_counter() - started
    loaded = status_kib("VmRSS")
    tokens = engine.text_tokens(TEXT * (prompt_tokens // 15 + 1))[:prompt_tokens]
    llm = engine._require_llm()
    started = time.perf_counter()
    for start in range(0, len(tokens), engine.n_batch):
        llm.eval(tokens[start : start + engine.n_batch])
    prefill_s = time.perf_counter() - started
    prefilled = status_kib("VmRSS")
    peak = status_kib("VmHWM")
    engine.close()
    log = io.StringIO()
    with contextlib.redirect_stderr(log):
        new_llama(model_path=str(model), n_ctx=n_ctx, verbose=True, **llama_kv_options(kv_type)).close()
    found = KV_LOG.search(log.getvalue())
    return {
        "kv_type": kv_type,
        "n_ctx": info.n_ctx,
        "kv_bytes_header": info.kv_cache_bytes,
        "kv_mib_llama_cpp": float(found.group(1)) if found else None,
        "rss_before_mib": round(before / 1024, 1),
        "rss_loaded_mib": round(loaded / 1024, 1),
        "rss_after_prefill_mib": round(prefilled / 1024, 1),
        "rss_peak_mib": round(peak / 1024, 1),
        "load_s": round(load_s, 2),
        "prompt_tokens": len(tokens),
        "prefill_tokens_per_s": round(len(tokens) / prefill_s, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=paths.default_chat_model())
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--prompt-tokens", type=int, default=1500)
    parser.add_argument("--one", choices=KV_CACHE_TYPES, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.model, args.ctx, args.one, args.prompt_tokens)))
        return 0
    runs = []
    options = ["--model", str(args.model), "--ctx", str(args.ctx), "--prompt-tokens", str(args.prompt_tokens)]
    for kv_type in KV_CACHE_TYPES:
        child = subprocess.run(
            [sys.executable, __file__, *options, "--one", kv_type],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(child.stdout.strip().splitlines()[-1]))
    print(f"model {args.model.name}, n_ctx {args.ctx}, prefill {args.prompt_tokens} tokens\n")
    columns = ("KV type", "KV (header)", "KV (llama.cpp)", "RSS loaded", "RSS after prefill", "peak", "tok/s")
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")
    for run in runs:
        print(
            f"| {run['kv_type']} | {run['kv_bytes_header'] / MIB:.2f} MiB | {run['kv_mib_llama_cpp']} MiB "
            f"| {run['rss_loaded_mib']} MiB | {run['rss_after_prefill_mib']} MiB | {run['rss_peak_mib']} MiB "
            f"| {run['prefill_tokens_per_s']} |"
        )
    write_result("kv_cache", {"model": args.model.name, "runs": runs})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
