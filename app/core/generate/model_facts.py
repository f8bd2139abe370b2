"""What a GGUF file's header says about it as a chat model: size, quantization, context, thinking."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from app.core.generate.gguf_header import GgufHeader, GgufHeaderError, read_gguf_header
from app.core.generate.template import ThinkingSupport, thinking_support

# llama.cpp's llama_ftype (general.file_type): the quantization most of the tensors use.
FILE_TYPES = {
    0: "F32",
    1: "F16",
    2: "Q4_0",
    3: "Q4_1",
    7: "Q8_0",
    8: "Q5_0",
    9: "Q5_1",
    10: "Q2_K",
    11: "Q3_K_S",
    12: "Q3_K_M",
    13: "Q3_K_L",
    14: "Q4_K_S",
    15: "Q4_K_M",
    16: "Q5_K_S",
    17: "Q5_K_M",
    18: "Q6_K",
    19: "IQ2_XXS",
    20: "IQ2_XS",
    21: "Q2_K_S",
    22: "IQ3_XS",
    23: "IQ3_XXS",
    24: "IQ1_S",
    25: "IQ4_NL",
    26: "IQ3_S",
    27: "IQ3_M",
    28: "IQ2_S",
    29: "IQ2_M",
    30: "IQ4_XS",
    31: "IQ1_M",
    32: "BF16",
    36: "TQ1_0",
    37: "TQ2_0",
    38: "MXFP4_MOE",
}
# A quantization spelled in a file name: "…-Q4_K_M.gguf", "….Q8_0.gguf", "…-f16.gguf", "…-IQ3_XXS…"
_NAME_QUANT = re.compile(
    r"(?:^|[-._ ])((?:I?Q\d(?:_[A-Z0-9]{1,4}){0,2})|BF16|F16|F32|MXFP4)(?=$|[-. ])", re.IGNORECASE
)
# Architectures that only embed (no text generation): their GGUFs are not chat models.
EMBEDDING_ARCHITECTURES = frozenset(
    {
        "bert",
        "nomic-bert",
        "nomic-bert-moe",
        "jina-bert-v2",
        "jina-bert-v3",
        "t5encoder",
        "modern-bert",
        "neo-bert",
    }
)
# Files beside a model that are not one: a vision projector (mmproj), a speech or image encoder.
NOT_TEXT_ARCHITECTURES = frozenset({"clip", "clip-vision", "mmproj", "wavtokenizer-dec"})


class NotAChatModel(ValueError):
    """A readable GGUF that is not a chat model (an embedder, a projector, a vocabulary only)."""


@dataclass(frozen=True)
class FoundModel:
    """A GGUF chat model on this computer, described from its header (the model is not loaded)."""

    path: Path
    name: str  # as the app that keeps it names it (an Ollama tag) or the file's own name
    source: str  # "LM Studio", "GPT4All", "Jan", "Ollama", or the folder the user chose
    size_bytes: int
    quantization: str | None
    context_length: int | None  # the training context (GGUF <arch>.context_length)
    architecture: str | None
    gguf_name: str | None  # general.name, as its converter wrote it
    thinking: ThinkingSupport  # the switch exists (supported), or why not; see `can_think`
    has_chat_template: bool

    @property
    def can_think(self) -> bool:
        """The chat template mentions thinking: an enable_thinking switch, or <think> blocks."""
        return self.thinking.supported or self.thinking.reason.startswith("the model always thinks")

    @property
    def size_gb(self) -> float:
        return self.size_bytes / 1e9


def quantization(header: GgufHeader, file_name: str) -> str | None:
    """The quantization: general.file_type when the converter wrote it, else the file name's."""
    file_type = header.integer("general.file_type")
    if file_type is not None and file_type in FILE_TYPES:
        return FILE_TYPES[file_type]
    return quantization_in_name(file_name)


def quantization_in_name(file_name: str) -> str | None:
    stem = file_name[: -len(".gguf")] if file_name.lower().endswith(".gguf") else file_name
    found = _NAME_QUANT.findall(stem)
    return found[-1].upper() if found else None


def check_chat_model(header: GgufHeader) -> None:
    """Raise NotAChatModel, saying what the file is, unless it generates text."""
    arch = header.architecture
    if arch is None:
        raise NotAChatModel("its header names no architecture")
    if arch in NOT_TEXT_ARCHITECTURES:
        raise NotAChatModel(f"a {arch} file (an image or sound encoder beside a model), not a chat model")
    if header.tensor_count == 0:
        raise NotAChatModel("it holds no weights (a vocabulary file)")
    if header.chat_template is None:
        if arch in EMBEDDING_ARCHITECTURES:
            raise NotAChatModel(f"an embedding model ({arch}), not a chat model")
        if header.integer(f"{arch}.pooling_type") is not None:
            raise NotAChatModel(f"an embedding model ({arch} with pooling), not a chat model")


def describe_model(path: Path, name: str, source: str, size_bytes: int | None = None) -> FoundModel:
    """The FoundModel of the GGUF at `path` (GgufHeaderError: unreadable; NotAChatModel)."""
    header = read_gguf_header(path)
    check_chat_model(header)
    if size_bytes is None:
        try:
            size_bytes = path.stat().st_size
        except OSError as exc:
            raise GgufHeaderError(f"cannot read {path}: {exc}") from exc
    template = header.chat_template
    return FoundModel(
        path=path,
        name=name,
        source=source,
        size_bytes=size_bytes,
        quantization=quantization(header, path.name) or quantization_in_name(name),
        context_length=header.context_length,
        architecture=header.architecture,
        gguf_name=header.name,
        thinking=thinking_support(template),
        has_chat_template=template is not None,
    )
