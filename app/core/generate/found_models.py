"""Find the GGUF chat models other apps keep (LM Studio, GPT4All, Jan, Ollama) and in chosen folders."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from app.core.cancel import CancelToken
from app.core.generate.gguf_header import GgufHeaderError
from app.core.generate.model_facts import FoundModel, NotAChatModel, describe_model

OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
OLLAMA_REGISTRY = "registry.ollama.ai"
# The Linux service of Ollama's installer keeps its models in its own user's home.
OLLAMA_SERVICE_MODELS = Path("/usr/share/ollama/.ollama/models")
MAX_DEPTH = 6  # below a folder: LM Studio's publisher/repository/file is 3
MAX_ENTRIES = 50_000  # a folder chosen by mistake (the home folder) is not walked to its end
_SPLIT = re.compile(r"-(\d{5})-of-(\d{5})\.gguf$", re.IGNORECASE)  # gguf-split parts
_GENERIC_STEMS = {"model", "ggml-model", "weights"}  # Jan's <id>/model.gguf: the folder names it


@dataclass(frozen=True)
class ModelFolder:
    """A folder to search: plain GGUF files below it, or an Ollama store (manifests and blobs)."""

    source: str
    path: Path
    kind: Literal["files", "ollama"] = "files"


@dataclass(frozen=True)
class SkippedFile:
    """A file that is not listed, and why (unreadable, or not a chat model)."""

    path: Path
    reason: str


@dataclass(frozen=True)
class ModelScan:
    """What a search found: the chat models, the files left out, and the folders that exist."""

    models: tuple[FoundModel, ...]
    skipped: tuple[SkippedFile, ...]
    searched: tuple[ModelFolder, ...]


def app_folders(
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    system: Sequence[Path] = (OLLAMA_SERVICE_MODELS,),
) -> list[ModelFolder]:
    """Where LM Studio, GPT4All, Jan and Ollama keep their models on Linux (existing or not).

    Jan's data folder is ~/.config/Jan/data by its documentation (jan.ai/docs/data-folder; $XDG_CONFIG_HOME
    when set), ~/jan before version 0.5, and ~/.local/share/Jan/data in the versions built with Tauri.
    """
    home = home if home is not None else Path.home()
    env = os.environ if environ is None else environ
    config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    data = Path(env.get("XDG_DATA_HOME") or home / ".local" / "share")
    folders = [
        ModelFolder("LM Studio", home / ".lmstudio" / "models"),
        ModelFolder("LM Studio", home / ".cache" / "lm-studio" / "models"),
        ModelFolder("GPT4All", home / ".local" / "share" / "nomic.ai" / "GPT4All"),
        ModelFolder("GPT4All", data / "nomic.ai" / "GPT4All"),
        ModelFolder("Jan", home / "jan" / "models"),
        ModelFolder("Jan", config / "Jan" / "data" / "models"),
        ModelFolder("Jan", home / ".config" / "Jan" / "data" / "models"),
        ModelFolder("Jan", data / "Jan" / "data" / "models"),
        ModelFolder("Jan", home / ".local" / "share" / "Jan" / "data" / "models"),
    ]
    if env.get("OLLAMA_MODELS"):
        folders.append(ModelFolder("Ollama", Path(env["OLLAMA_MODELS"]), "ollama"))
    folders.append(ModelFolder("Ollama", home / ".ollama" / "models", "ollama"))
    folders.extend(ModelFolder("Ollama", path, "ollama") for path in system)
    unique: dict[Path, ModelFolder] = {}
    for folder in folders:
        unique.setdefault(folder.path, folder)
    return list(unique.values())


def find_models(folders: Sequence[ModelFolder], cancel: CancelToken | None = None) -> ModelScan:
    """Every chat model in `folders`, each file once, described from its header (never loaded).
    Files that cannot be read or are not chat models are skipped with the reason; never raises for
    a file or folder (Cancelled when `cancel` is set)."""
    models: list[FoundModel] = []
    skipped: list[SkippedFile] = []
    searched: list[ModelFolder] = []
    seen: set[Path] = set()
    for folder in folders:
        if not folder.path.is_dir():
            continue
        searched.append(folder)
        candidates = (
            _ollama_models(folder, skipped) if folder.kind == "ollama" else _gguf_files(folder, skipped)
        )
        for path, name, size in candidates:
            if cancel is not None:
                cancel.raise_if_cancelled()
            try:
                key = path.resolve()
            except OSError:
                key = path
            if key in seen:
                continue
            seen.add(key)
            try:
                models.append(describe_model(path, name, folder.source, size))
            except (GgufHeaderError, NotAChatModel) as exc:
                skipped.append(SkippedFile(path, str(exc)))
            except OSError as exc:  # a file that vanished or a device that failed mid-read
                skipped.append(SkippedFile(path, f"cannot read it: {exc}"))
    return ModelScan(tuple(models), tuple(skipped), tuple(searched))


def _gguf_files(folder: ModelFolder, skipped: list[SkippedFile]) -> Iterator[tuple[Path, str, int | None]]:
    """The GGUF files below the folder (the first part of a split model, with all parts' size)."""
    entries = 0
    found: list[tuple[Path, str, int | None]] = []

    def failed(error: OSError) -> None:
        skipped.append(SkippedFile(Path(error.filename or folder.path), f"cannot list it: {error.strerror}"))

    root_depth = len(folder.path.parts)
    for directory, subdirs, files in os.walk(folder.path, onerror=failed):
        here = Path(directory)
        entries += len(subdirs) + len(files)
        if entries > MAX_ENTRIES:
            skipped.append(SkippedFile(folder.path, f"stopped after {MAX_ENTRIES} entries: too many files"))
            break
        if len(here.parts) - root_depth >= MAX_DEPTH:
            subdirs.clear()
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        for file_name in sorted(files):
            if not file_name.lower().endswith(".gguf"):
                continue
            path = here / file_name
            split = _SPLIT.search(file_name)
            if split is not None and int(split.group(1)) != 1:
                continue  # a later part: listed with the first
            size = (
                None if split is None else _split_size(here, file_name[: split.start()], int(split.group(2)))
            )
            found.append((path, _file_model_name(path, split), size))
    yield from found


def _split_size(directory: Path, prefix: str, parts: int) -> int | None:
    """The size of all parts of a split model (`prefix`-0000N-of-0000M.gguf)."""
    total = 0
    for number in range(1, parts + 1):
        try:
            total += (directory / f"{prefix}-{number:05d}-of-{parts:05d}.gguf").stat().st_size
        except OSError:
            return None  # a missing part: the size of the first part is what describe reads
    return total


def _file_model_name(path: Path, split: re.Match[str] | None) -> str:
    stem = path.name[: split.start()] if split is not None else path.stem
    if stem.lower() in _GENERIC_STEMS and path.parent.name:
        return path.parent.name
    return stem


def _ollama_models(folder: ModelFolder, skipped: list[SkippedFile]) -> Iterator[tuple[Path, str, int | None]]:
    """The model blob each Ollama manifest names (manifests/HOST/NAMESPACE/MODEL/TAG), named as
    `ollama list` names it: "qwen3:8b", "user/model:tag", "hf.co/org/repo:tag"."""
    manifests = folder.path / "manifests"
    found: list[tuple[Path, str, int | None]] = []

    def failed(error: OSError) -> None:
        skipped.append(SkippedFile(Path(error.filename or manifests), f"cannot list it: {error.strerror}"))

    for directory, subdirs, files in os.walk(manifests, onerror=failed):
        subdirs.sort()
        here = Path(directory)
        parts = here.relative_to(manifests).parts
        if len(parts) < 3:
            continue
        for tag in sorted(files):
            manifest = here / tag
            blob = _model_blob(folder.path, manifest, skipped)
            if blob is not None:
                found.append((blob, _ollama_name(parts, tag), None))
    yield from found


def _ollama_name(parts: tuple[str, ...], tag: str) -> str:
    host, *rest = parts
    if host == OLLAMA_REGISTRY:
        if rest[0] == "library":
            rest = rest[1:]
        return f"{'/'.join(rest)}:{tag}"
    return f"{host}/{'/'.join(rest)}:{tag}"


def _model_blob(root: Path, manifest: Path, skipped: list[SkippedFile]) -> Path | None:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        skipped.append(SkippedFile(manifest, f"the Ollama manifest cannot be read: {exc}"))
        return None
    layers = data.get("layers") if isinstance(data, dict) else None
    digests = [
        layer.get("digest")
        for layer in layers or []
        if isinstance(layer, dict) and layer.get("mediaType") == OLLAMA_MODEL_LAYER
    ]
    digest = digests[0] if digests else None
    if not isinstance(digest, str) or not re.fullmatch(r"sha256:[0-9a-f]{64}", digest):
        skipped.append(SkippedFile(manifest, "the Ollama manifest names no model layer"))
        return None
    blob = root / "blobs" / digest.replace(":", "-")
    if not blob.is_file():
        skipped.append(SkippedFile(blob, f"the model blob of {manifest.name} is missing"))
        return None
    return blob
