"""The eval library: ingested once from the question set's documents, cached by what shapes it."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from app.core.config import Settings
from app.core.embed.precision import resolve_precision
from app.core.services import build_services
from benchmarks.evaluation.dataset import REPO, QuestionSet

CACHE_ROOT = REPO / "benchmarks" / ".cache"
META_FILE = "eval-library.json"
# The code that decides what a library holds (chunks, keyword rows, vectors): a change there
# must not be scored against a library built by the old code.
INGEST_CODE = (
    "app/core/ingest",
    "app/core/store",
    "app/core/index",
    "app/core/embed",
    "app/core/keywords.py",
    "app/core/contents.py",
    "app/core/script.py",
    "app/core/passage.py",
)
VECTOR_FILE_SUFFIXES = {".safetensors", ".bin", ".json", ".txt", ".model", ".onnx", ".npz"}
INGEST_SETTINGS = ("chunk_tokens", "chunk_overlap_tokens", "embed_model_dir")


def _hash_files(files: Iterable[Path], root: Path, digest: Any) -> None:
    for file in sorted(files):
        digest.update(str(file.relative_to(root)).encode())
        digest.update(hashlib.sha256(file.read_bytes()).digest())


def _shapes_vectors(file: Path, model_dir: Path) -> bool:
    """Weights, configuration and tokenizer files; not READMEs, markers or hidden files."""
    parts = file.relative_to(model_dir).parts
    hidden = any(part.startswith(".") for part in parts)
    return file.is_file() and not hidden and file.suffix in VECTOR_FILE_SUFFIXES and not file.stem.isupper()


def embedder_identity(model_dir: Path) -> str:
    """SHA-256 over the embedding model's weights and configuration (names and contents), not the
    folder's name; a README or marker written into the folder does not change it."""
    digest = hashlib.sha256()
    _hash_files((p for p in model_dir.rglob("*") if _shapes_vectors(p, model_dir)), model_dir, digest)
    return digest.hexdigest()


def code_identity(repo: Path = REPO) -> str:
    digest = hashlib.sha256()
    for entry in INGEST_CODE:
        path = repo / entry
        files = path.rglob("*.py") if path.is_dir() else [path]
        _hash_files((f for f in files if "__pycache__" not in f.parts), repo, digest)
    return digest.hexdigest()


def cache_key(questions: QuestionSet, settings: Settings) -> dict[str, str]:
    """What the cached library depends on: documents, embedder weights, ingestion settings and code."""
    docs = hashlib.sha256()
    for doc in questions.documents:
        docs.update(doc.name.encode())
        docs.update(hashlib.sha256(doc.file.read_bytes()).digest())
    ingest: dict[str, object] = {
        name: getattr(settings, name) for name in INGEST_SETTINGS if name != "embed_model_dir"
    }
    ingest["embed_precision"] = resolve_precision(settings.embed_precision)  # as run on this machine
    return {
        "documents": docs.hexdigest(),
        "embedder": embedder_identity(settings.embed_model_path()),
        "settings": json.dumps(ingest, sort_keys=True),
        "code": code_identity(),
    }


def prepared_library(questions: QuestionSet, settings: Settings, cache_root: Path = CACHE_ROOT) -> Path:
    """The cached library folder for these documents and settings, built first if missing."""
    key = cache_key(questions, settings)
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    folder = cache_root / f"library-{name}"
    if (folder / META_FILE).is_file():
        return folder
    cache_root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix="building-", dir=cache_root))
    started = time.perf_counter()
    folio = build_services(settings, building)
    try:
        report = folio.library.ingest([doc.file for doc in questions.documents])
    finally:
        folio.close()
    if report.failed or report.cancelled:
        shutil.rmtree(building, ignore_errors=True)
        reasons = "; ".join(f"{f.path}: {f.error}" for f in report.failed) or "cancelled"
        raise RuntimeError(f"the eval library could not be built: {reasons}")
    meta = {
        "key": key,
        "embedder_dir": str(settings.embed_model_path()),
        "files": report.to_json()["files"],
        "build_s": round(time.perf_counter() - started, 1),
    }
    (building / META_FILE).write_text(json.dumps(meta, indent=1), encoding="utf-8")
    try:
        building.rename(folder)
    except OSError:  # another run finished the same library first
        shutil.rmtree(building, ignore_errors=True)
    return folder


def working_copy(library: Path, into: Path) -> Path:
    """A throwaway copy of the cached library: asking stores chats, the cache stays as built."""
    target = into / "library"
    shutil.copytree(library, target)
    return target
