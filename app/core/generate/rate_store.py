"""The prefill rate a model reached on this computer, kept between runs in the cache dir.

A new process (a cold `folio ask`) would otherwise evaluate a 256-token calibration text before its
first answer, seconds of prefill on a 2-core laptop, only to size the passage budget. The rate is
keyed by what it depends on: the model file (path, size, modification time), the prompt threads
and batch size, and the llama.cpp build (its version and the kernels' system info); any change
measures again. The engine keeps refining it from real answers and stores each refinement.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from app.core import paths

CALIBRATION_TEXT = (
    "Folio measures how fast this model reads a prompt, so that it can keep the time to the first "
    "token under the target by sending fewer passages when the machine is slow. "
)
FILE_NAME = "prefill-rates.json"
MAX_ENTRIES = 32  # models x thread settings; the oldest go first


def rate_key(model: Path, n_threads_batch: int, n_batch: int, system_info: str) -> str | None:
    """The key of a model's rate under these settings and this build; None if the file is unreadable."""
    try:
        stat = model.stat()
        version = metadata.version("llama-cpp-python")
    except (OSError, metadata.PackageNotFoundError):
        return None
    parts = [str(model.resolve()), str(stat.st_size), str(stat.st_mtime_ns), str(n_threads_batch)]
    parts += [str(n_batch), version, system_info]
    return hashlib.sha256("|".join(parts).encode("utf-8")).hexdigest()[:32]


def _path() -> Path:
    return paths.cache_dir() / FILE_NAME


def _read() -> dict[str, float]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float) and v > 0}


def stored_rate(key: str | None) -> float | None:
    """The stored prefill tokens per second under `key`, if any."""
    return _read().get(key) if key else None


def store_rate(key: str | None, rate: float) -> None:
    """Keep `rate` under `key` (atomically; a cache that cannot be written is skipped)."""
    if not key or rate <= 0:
        return
    rates = _read()
    rates.pop(key, None)
    rates[key] = round(rate, 3)
    kept = dict(list(rates.items())[-MAX_ENTRIES:])
    target = _path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".rates-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(kept, out)
        os.replace(temporary, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def measure_prefill_rate(llm: Any) -> float:
    """Prompt tokens per second of a loaded `Llama`, timed on 256 tokens of a calibration text after
    a warm-up; the KV cache is left empty."""
    text = CALIBRATION_TEXT * 16
    tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)[:256]
    llm.reset()
    llm.eval(tokens[:16])  # warm-up: first graph allocation
    llm.reset()
    started = time.perf_counter()
    llm.eval(tokens)
    elapsed = time.perf_counter() - started
    llm.reset()
    return len(tokens) / max(elapsed, 1e-6)
