"""An embedding model's identity: a hash of its weight, tokenizer and config files, not its folder name."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

# Files that decide what vectors a model produces; documentation, licences, training metadata
# and other runtimes' copies of the weights (onnx/, openvino/) do not.
_HASHED_SUFFIXES = frozenset({".json", ".safetensors", ".bin", ".txt", ".model", ".pt", ".pth", ".npz"})
_SKIPPED_NAMES = frozenset({"data_config.json"})
_SKIPPED_DIRS = frozenset({".cache", ".git", "onnx", "openvino"})

_cache: dict[tuple[str, tuple[tuple[str, int, int], ...]], str] = {}
_cache_lock = threading.Lock()


def _model_files(folder: Path) -> list[tuple[str, Path]]:
    """(path relative to the folder, file) of every hashed file, sorted, symlinks followed."""
    found: list[tuple[str, Path]] = []
    for root, dirs, files in os.walk(folder, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for name in files:
            path = Path(root) / name
            if path.suffix.lower() in _HASHED_SUFFIXES and name not in _SKIPPED_NAMES:
                found.append((path.relative_to(folder).as_posix(), path))
    return sorted(found)


def model_identity(folder: Path) -> str:
    """ "sha256:<hex>" over the model's files (relative name + content). Two folders holding the
    same model give the same identity, whatever they are called. Cached per process by the
    files' sizes and modification times, so a second call costs a stat per file."""
    files = _model_files(folder)
    if not files:
        raise ValueError(f"{folder} holds no model files")
    stamp = tuple((rel, path.stat().st_size, path.stat().st_mtime_ns) for rel, path in files)
    key = (str(folder.resolve()), stamp)
    with _cache_lock:
        cached = _cache.get(key)
    if cached is not None:
        return cached
    digest = hashlib.sha256()
    for rel, path in files:
        digest.update(rel.encode("utf-8") + b"\0")
        with path.open("rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    identity = "sha256:" + digest.hexdigest()
    with _cache_lock:
        _cache[key] = identity
    return identity
