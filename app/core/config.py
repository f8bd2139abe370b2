"""Settings: one typed, versioned object, validated, saved as JSON in the config dir."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.core import paths
from app.core.errors import UsageError
from app.core.messages import QT_TRANSLATE_NOOP

SCHEMA_VERSION = 1
CITE_MODES = ("free", "constrained")
EMBED_PRECISIONS = ("auto", "fp32", "bf16")  # the embedder's arithmetic (embed/precision.py)
ANSWER_FROM = ("passages", "found", "hinted")  # what the prompt shows (answering/evidence/focus.py)
PROMPT_STYLES = ("plain", "worked")  # the answer prompt's instructions (prompt/system.py)
FIGURES_FROM = ("anywhere", "found")  # which numbers the answer may write (answering/evidence/focus.py)
FOLDER_DELETIONS = ("ask", "always", "never")  # a file deleted from a watched folder: remove its document?
KV_CACHE_TYPES = ("f16", "q8_0")  # the local model's KV cache elements (generate/kv_cache.py)
# The interface language: "system" follows the locale; the others name a translation (app/core/ui_text.py).
LANGUAGES = ("system", "en", "zh_CN")
# one check of Settings.validate: whether it holds, its marked message, the message's values
_Check = tuple[bool, str, tuple[str, ...]]


@dataclass(frozen=True)
class Settings:
    """Everything the user can set. Empty paths mean "the bundled default"."""

    schema_version: int = SCHEMA_VERSION
    # models
    model_path: str = ""
    embed_model_dir: str = ""
    n_ctx: int = 4096
    n_threads: int = 0  # 0 = let the engine pick (physical cores)
    n_gpu_layers: int = 0
    # sampling: low temperature suits grounded answers
    temperature: float = 0.2
    top_k: int = 40
    top_p: float = 0.95
    min_p: float = 0.05
    repeat_penalty: float = 1.1
    max_tokens: int = 512
    seed: int = 42
    # retrieval and prompt
    passages_k: int = 6
    ttft_target_s: float = 8.0  # 0 disables the TTFT-driven passage budget
    # The best passage's evidence for the question (keyword coverage, or the dense cosine scaled, for
    # Latin questions), in [0, 1]: below this, "not in the documents" without calling the model.
    # Chosen on the eval's answerable questions (benchmarks/calibrate_gate.py): all score above it.
    grounding_threshold: float = 0.15
    # "free": the model writes any text, its markers are checked afterwards; "constrained": a
    # grammar lets "[" open only a marker of a passage in the prompt (no invalid marker possible)
    cite_mode: str = "free"
    # chunking, in embedder tokens
    chunk_tokens: int = 200
    chunk_overlap_tokens: int = 30
    # prompt evaluation (prefill) threads; n_threads above is for decode
    n_threads_batch: int = 0  # 0 = let the engine pick (physical cores)
    # ingestion: read PDF pages without a text layer (scans) by OCR, in the extraction worker
    ocr_enabled: bool = True
    # the embedder's arithmetic: "auto" = bfloat16 on CPUs with native bf16 units (AMX, AVX-512 BF16),
    # else float32; applies from the next start
    embed_precision: str = "auto"
    # evidence selection: each passage reaches the prompt cut to the sentences that matter for the
    # question and their neighbours (a shorter prompt, a sooner first token); citations still point
    # to the whole stored passage. Off by default: on the eval (make eval) it cut the median prompt
    # 1,422 -> 766 tokens (English) and 1,059 -> 883 (Chinese) but the default model answered less
    # well (accuracy en 0.44 -> 0.40, zh 0.29 -> 0.27; citation precision 0.84 -> 0.79, 0.79 -> 0.70)
    evidence_selection: bool = False
    # What the prompt shows of the sentences the locate stage found (answering/evidence/focus.py): "passages"
    # (the passages alone), "found" (only the located sentences and their neighbours: locate, then
    # answer), "hinted" (the passages, and the located sentences again after the question)
    answer_from: str = "passages"
    # The instructions of the answer prompt (prompt/system.py answer_instructions): "plain" (the
    # rules), "worked" (the rules, an answer form for short factual questions and one made-up
    # worked example in the question's script, for small models that restate the question instead
    # of answering it: issue 32). Not in the Settings dialog; `make eval EVAL_ARGS="--prompt-style
    # worked"` compares them.
    prompt_style: str = "plain"
    # An answer that states nothing (it repeats the question, or is a bare marker) is asked once more
    # with the sentences Folio found (answering/pipeline/reask.py); off: it stands, with what Folio
    # found after it. Off by default: on the calibration half's 12 answers that stated nothing, the
    # default model's second answer was right for none of the 7 wrong ones, and with the first
    # wording it turned a right one into a bare marker (benchmarks/results/reask-calibration-*.log).
    # Not in the Settings dialog; `make eval EVAL_ARGS="--reask on"` measures it.
    reask: bool = False
    # A Chinese answer that only restates its question ("…要量取多少毫升…") is continued once from its
    # frame, cut before the asking word (answering/pipeline/frame.py); tried before `reask`. On: it
    # gained right answers on both halves of the eval, none wrongly "answered" (benchmarks/README.md).
    complete_restated: bool = True
    # Which numbers the answer may write: "anywhere" (free), or "found": only those spelled in the
    # located sentences and the question, by a decoding grammar (generate/cite_grammar.py)
    figures_from: str = "anywhere"
    # Where answers are generated: "" = this computer (model_path), else the base URL of an
    # OpenAI-compatible server (llama-server, vLLM, Ollama, llama-cpp-python) and the name of its
    # model. The server's API key is never a setting: app/core/server_key.py keeps it.
    server_url: str = ""
    server_model: str = ""
    # A file deleted from a watched folder: "ask" (the window asks, without stopping anything;
    # `folio sync` removes only with --delete), "always" remove its document, "never" (keep it)
    folder_deletions: str = "ask"
    # The local model's KV cache elements: "f16" (llama.cpp's default) or "q8_0" (about half the
    # memory; needs flash attention). The eval's figures are in README "The KV cache".
    kv_cache_type: str = "f16"
    # Prompt-lookup decoding (generate/lookup.py): the local model checks up to this many tokens
    # copied from where the answer's last words occurred in the prompt in one decode; the text is
    # the same. 0 = off, the default: on the busy 2-core machine a batch cost about one decode per
    # token, so even with half the answer's tokens from kept drafts decode was not faster
    # (benchmarks/bench_lookup.py: x0.90 median); try 10 on a CPU whose decode waits on memory.
    lookup_tokens: int = 0
    # The window's and the CLI's language (LANGUAGES); "system": the locale's
    language: str = "system"

    @property
    def uses_server(self) -> bool:
        return bool(self.server_url)

    def chat_model_path(self) -> Path:
        return Path(self.model_path) if self.model_path else paths.default_chat_model()

    def embed_model_path(self, recorded: str | None = None) -> Path:
        """The embedding model folder: the one set; else a library's own (`recorded`: the folder
        name the library stored) when set-up installed it, so a library keeps the embedder that
        wrote it until it is re-indexed; else the default of new libraries."""
        if self.embed_model_dir:
            return Path(self.embed_model_dir)
        if recorded and (paths.models_dir() / recorded).is_dir():
            return paths.models_dir() / recorded
        return paths.default_embed_model()

    def validate(self) -> None:
        """Raise UsageError naming the first invalid value."""
        for ok, message, values in [*self._number_checks(), *self._option_checks()]:
            if not ok:
                raise UsageError(message, *values)
        if self.server_url:
            check_server_url(self.server_url)
            if not self.server_model.strip():
                raise UsageError(
                    QT_TRANSLATE_NOOP("Core", "a server needs the name of its model (one of its /v1/models)")
                )

    def _number_checks(self) -> list[_Check]:
        """The model's, the sampling's and the answer's numbers, in the order validate reports them."""
        return [
            (
                0 <= self.n_threads_batch <= 256,
                QT_TRANSLATE_NOOP("Core", "prompt threads must be 0 (automatic) to 256"),
                (),
            ),
            (self.n_ctx >= 512, QT_TRANSLATE_NOOP("Core", "context size must be at least 512 tokens"), ()),
            (
                self.n_ctx <= 1_048_576,
                QT_TRANSLATE_NOOP("Core", "context size must be at most 1048576 tokens"),
                (),
            ),
            (self.n_threads >= 0, QT_TRANSLATE_NOOP("Core", "threads must be 0 (automatic) or more"), ()),
            (
                self.n_gpu_layers >= -1,
                QT_TRANSLATE_NOOP("Core", "GPU layers must be -1 (all), 0 or more"),
                (),
            ),
            (
                0.0 <= self.temperature <= 5.0,
                QT_TRANSLATE_NOOP("Core", "temperature must be between 0 and 5"),
                (),
            ),
            (self.top_k >= 0, QT_TRANSLATE_NOOP("Core", "top-k must be 0 (off) or more"), ()),
            (0.0 < self.top_p <= 1.0, QT_TRANSLATE_NOOP("Core", "top-p must be in (0, 1]"), ()),
            (0.0 <= self.min_p < 1.0, QT_TRANSLATE_NOOP("Core", "min-p must be in [0, 1)"), ()),
            (
                0.5 <= self.repeat_penalty <= 2.0,
                QT_TRANSLATE_NOOP("Core", "repeat penalty must be between 0.5 and 2"),
                (),
            ),
            (
                1 <= self.max_tokens < self.n_ctx,
                QT_TRANSLATE_NOOP("Core", "max answer tokens must be at least 1 and below the context size"),
                (),
            ),
            (
                1 <= self.passages_k <= 50,
                QT_TRANSLATE_NOOP("Core", "passages per answer must be between 1 and 50"),
                (),
            ),
            (
                self.ttft_target_s >= 0.0,
                QT_TRANSLATE_NOOP("Core", "TTFT target must be 0 (off) or more seconds"),
                (),
            ),
            (
                -1.0 <= self.grounding_threshold <= 1.0,
                QT_TRANSLATE_NOOP("Core", "grounding threshold must be between -1 and 1"),
                (),
            ),
        ]

    def _option_checks(self) -> list[_Check]:
        """The choices among named options and the chunking numbers, after `_number_checks`."""
        return [
            (
                self.cite_mode in CITE_MODES,
                QT_TRANSLATE_NOOP("Core", "citation mode must be one of {0}"),
                (", ".join(CITE_MODES),),
            ),
            (
                self.answer_from in ANSWER_FROM,
                QT_TRANSLATE_NOOP("Core", "answer from must be one of {0}"),
                (", ".join(ANSWER_FROM),),
            ),
            (
                self.prompt_style in PROMPT_STYLES,
                QT_TRANSLATE_NOOP("Core", "prompt style must be one of {0}"),
                (", ".join(PROMPT_STYLES),),
            ),
            (
                self.figures_from in FIGURES_FROM,
                QT_TRANSLATE_NOOP("Core", "figures from must be one of {0}"),
                (", ".join(FIGURES_FROM),),
            ),
            (
                self.embed_precision in EMBED_PRECISIONS,
                QT_TRANSLATE_NOOP("Core", "embedding precision must be one of {0}"),
                (", ".join(EMBED_PRECISIONS),),
            ),
            (
                0 <= self.lookup_tokens <= 64,
                QT_TRANSLATE_NOOP("Core", "prompt-lookup draft tokens must be 0 (off) to 64"),
                (),
            ),
            (
                self.language in LANGUAGES,
                QT_TRANSLATE_NOOP("Core", "language must be one of {0}"),
                (", ".join(LANGUAGES),),
            ),
            (
                32 <= self.chunk_tokens <= 512,
                QT_TRANSLATE_NOOP("Core", "chunk size must be between 32 and 512 tokens"),
                (),
            ),
            (
                self.folder_deletions in FOLDER_DELETIONS,
                QT_TRANSLATE_NOOP("Core", "folder deletions must be one of {0}"),
                (", ".join(FOLDER_DELETIONS),),
            ),
            (
                self.kv_cache_type in KV_CACHE_TYPES,
                QT_TRANSLATE_NOOP("Core", "KV cache type must be one of {0}"),
                (", ".join(KV_CACHE_TYPES),),
            ),
            (
                0 <= self.chunk_overlap_tokens < self.chunk_tokens // 2,
                QT_TRANSLATE_NOOP("Core", "chunk overlap must be below half the chunk size"),
                (),
            ),
        ]

    def replace(self, **changes: Any) -> Settings:
        updated = dataclasses.replace(self, **changes)
        updated.validate()
        return updated

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Build from saved JSON: unknown keys are ignored, wrong types refused."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        defaults = cls()
        for name, value in data.items():
            if name not in known or name == "schema_version":
                continue
            expected = type(getattr(defaults, name))
            if expected is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, expected) or isinstance(value, bool) != (expected is bool):
                raise UsageError(
                    QT_TRANSLATE_NOOP("Core", "setting {0!r} must be a {1}, not {2!r}"),
                    name,
                    expected.__name__,
                    value,
                )
            values[name] = value
        settings = cls(**values)
        settings.validate()
        return settings


def check_server_url(url: str) -> None:
    """Raise UsageError unless `url` is an http(s) URL with a host and no user name or password in it
    (a key in the URL would end up in traces and logs)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(
            QT_TRANSLATE_NOOP("Core", "the server address must start with http:// or https://, not {0!r}"),
            url,
        )
    if parts.username is not None or parts.password is not None:
        raise UsageError(
            QT_TRANSLATE_NOOP(
                "Core", "the server address must not hold a user name or password: set the API key instead"
            )
        )
    if parts.query or parts.fragment:
        raise UsageError(QT_TRANSLATE_NOOP("Core", "the server address must not hold a query or fragment"))


# The fields a loaded model depends on: a change to any of them loads the model again (at its next use).
MODEL_FIELDS = (
    "model_path",
    "n_ctx",
    "n_threads",
    "n_threads_batch",
    "n_gpu_layers",
    "server_url",
    "server_model",
    "kv_cache_type",
    "lookup_tokens",
)


def model_fields_changed(old: Settings, new: Settings) -> bool:
    """True when `new` needs another model load than `old`."""
    return any(getattr(old, name) != getattr(new, name) for name in MODEL_FIELDS)


def with_model_of(settings: Settings, model_source: Settings) -> Settings:
    """`settings` with the model fields of `model_source` (validated: UsageError)."""
    return settings.replace(**{name: getattr(model_source, name) for name in MODEL_FIELDS})


SettingsListener = Callable[["Settings", "Settings"], None]  # (old, new)


class SettingsOwner:
    """The one holder of the current Settings: services read `current` when they act, and
    listeners hear every change (old, new). Nothing else keeps a copy."""

    def __init__(self, settings: Settings) -> None:
        settings.validate()
        self._current = settings
        self._listeners: list[SettingsListener] = []
        self._lock = threading.Lock()

    @property
    def current(self) -> Settings:
        return self._current

    def subscribe(self, listener: SettingsListener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def update(self, settings: Settings) -> None:
        """Validate (UsageError), then make `settings` current and tell the listeners."""
        settings.validate()
        with self._lock:
            old, self._current = self._current, settings
            listeners = list(self._listeners)
        if old != settings:
            for listener in listeners:
                listener(old, settings)


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file; a missing file gives the defaults, a broken one a clear error."""
    path = path or paths.settings_file()
    if not path.exists():
        return Settings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(QT_TRANSLATE_NOOP("Core", "cannot read settings file {0}: {1}"), path, exc) from exc
    if not isinstance(data, dict):
        raise UsageError(QT_TRANSLATE_NOOP("Core", "settings file {0} does not hold a JSON object"), path)
    return Settings.from_dict(data)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Validate, then write atomically (temp file + rename)."""
    settings.validate()
    path = path or paths.settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(settings.to_dict(), handle, indent=2, sort_keys=True)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
