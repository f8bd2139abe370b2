"""The KV cache: its size from a GGUF header, the element types llama.cpp takes, what an answer reused."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from app.core.config import KV_CACHE_TYPES
from app.core.generate.gguf_header import GgufHeader, GgufHeaderError, MetaValue, read_gguf_header

# ggml's element types a KV cache can hold: (bytes per block, elements per block, GGML_TYPE_* id)
ELEMENT_TYPES: dict[str, tuple[int, int, int]] = {
    "f32": (4, 1, 0),
    "f16": (2, 1, 1),
    "q4_0": (18, 32, 2),
    "q4_1": (20, 32, 3),
    "q5_0": (22, 32, 6),
    "q5_1": (24, 32, 7),
    "q8_0": (34, 32, 8),
}
DEFAULT_KV_TYPE = "f16"


class KvShapeUnknown(ValueError):
    """The header does not say enough to size the KV cache."""


@dataclass(frozen=True)
class KvShape:
    """What one token costs in the KV cache: per layer, n_kv_heads x (key_length + value_length)."""

    n_layers: int
    kv_heads: tuple[int, ...]  # per layer (one value repeated unless the header lists each layer)
    key_length: int
    value_length: int

    def row_bytes(self, layer: int, kv_type: str, length: int) -> int:
        """Bytes of one token's keys (or values) in `layer`, as ggml_row_size computes them."""
        block_bytes, block_size, _id = ELEMENT_TYPES[kv_type]
        elements = self.kv_heads[layer] * length
        return elements // block_size * block_bytes

    def fits(self, kv_type: str) -> bool:
        """ggml stores a row of a block type only in whole blocks (32 elements for q8_0)."""
        _bytes, block_size, _id = ELEMENT_TYPES[kv_type]
        return all(
            heads * length % block_size == 0
            for heads in self.kv_heads
            for length in (self.key_length, self.value_length)
        )

    def bytes(self, n_ctx: int, type_k: str = DEFAULT_KV_TYPE, type_v: str = DEFAULT_KV_TYPE) -> int:
        """The KV cache of `n_ctx` tokens: sum over layers of (K row + V row) x n_ctx."""
        per_token = sum(
            self.row_bytes(layer, type_k, self.key_length) + self.row_bytes(layer, type_v, self.value_length)
            for layer in range(self.n_layers)
        )
        return per_token * n_ctx


def kv_shape(header: GgufHeader) -> KvShape:
    """The KV shape from `{arch}.block_count`, `.attention.head_count_kv` and `.attention.key_length`
    / `value_length` (else embedding_length / head_count); raises KvShapeUnknown."""
    arch = header.architecture
    if arch is None:
        raise KvShapeUnknown("the header names no architecture")
    layers = header.integer(f"{arch}.block_count")
    heads = header.integer(f"{arch}.attention.head_count")
    if layers is None or layers <= 0:
        raise KvShapeUnknown(f"the header has no {arch}.block_count")
    raw_kv = header.metadata.get(f"{arch}.attention.head_count_kv", heads)
    if isinstance(raw_kv, list) and len(raw_kv) == layers and all(isinstance(n, int) for n in raw_kv):
        kv_heads = tuple(int(n) for n in raw_kv)  # type: ignore[arg-type]
    elif isinstance(raw_kv, int) and not isinstance(raw_kv, bool) and raw_kv > 0:
        kv_heads = (raw_kv,) * layers
    else:
        raise KvShapeUnknown(f"the header has no usable {arch}.attention.head_count_kv")
    key_length = header.integer(f"{arch}.attention.key_length")
    value_length = header.integer(f"{arch}.attention.value_length")
    if key_length is None or value_length is None:
        embedding = header.integer(f"{arch}.embedding_length")
        if embedding is None or not heads:
            raise KvShapeUnknown(f"the header has neither {arch}.attention.key_length nor a head size")
        key_length = key_length or embedding // heads
        value_length = value_length or embedding // heads
    return KvShape(layers, kv_heads, key_length, value_length)


def model_kv_shape(path: Path, loaded: Mapping[str, str] | None = None) -> KvShape | None:
    """The KV shape of the GGUF at `path`; None when its header does not say. `loaded`: llama.cpp's
    own reading of the header (`Llama.metadata`, every scalar as text), used when it says: reading
    the file again walks the tokenizer's 300k strings in Python, most of a second of a cold load."""
    if loaded is not None:
        parsed: dict[str, MetaValue] = {}
        for key, text in loaded.items():
            try:
                parsed[key] = int(text)
            except ValueError:
                parsed[key] = text  # an architecture name, or an array llama.cpp spelled as text
        with suppress(KvShapeUnknown):
            return kv_shape(GgufHeader(0, 0, parsed))
    try:
        return kv_shape(read_gguf_header(path))
    except (GgufHeaderError, KvShapeUnknown):
        return None


@cache
def llama_kv_types() -> tuple[str, ...]:
    """The KV cache types the installed llama-cpp-python takes (Llama(type_k=, type_v=, flash_attn=))."""
    import llama_cpp

    parameters = inspect.signature(llama_cpp.Llama.__init__).parameters
    if not {"type_k", "type_v", "flash_attn"} <= set(parameters):
        return (DEFAULT_KV_TYPE,)
    return tuple(
        name
        for name in KV_CACHE_TYPES
        if getattr(llama_cpp, f"GGML_TYPE_{name.upper()}", None) == ELEMENT_TYPES[name][2]
    )


def llama_kv_options(kv_type: str) -> dict[str, Any]:
    """Llama() keywords for a KV cache of `kv_type`, always with flash attention: a quantized V cache
    needs it in llama.cpp (it refuses to make the context without it), and with f16 it made prefill
    1.18-1.27x and decode 1.02-1.07x as fast at 1k-4k prompt tokens (benchmarks/bench_flash_attention.py)."""
    if kv_type == DEFAULT_KV_TYPE:
        return {"flash_attn": True}
    type_id = ELEMENT_TYPES[kv_type][2]
    return {"type_k": type_id, "type_v": type_id, "flash_attn": True}


@dataclass(frozen=True)
class KvCacheUse:
    """The KV cache behind one answer: its type and size, the prompt prefix it already held (reused)
    and the prompt tokens evaluated into it. None: not known (a server that does not say)."""

    type_k: str | None
    type_v: str | None
    bytes: int | None
    n_ctx: int | None
    reused_tokens: int | None
    evaluated_tokens: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "type_k": self.type_k,
            "type_v": self.type_v,
            "bytes": self.bytes,
            "n_ctx": self.n_ctx,
            "reused_tokens": self.reused_tokens,
            "evaluated_tokens": self.evaluated_tokens,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> KvCacheUse | None:
        if not data:
            return None

        def known(key: str, kind: type) -> Any:
            value = data.get(key)
            return value if isinstance(value, kind) and not isinstance(value, bool) else None

        return cls(
            known("type_k", str),
            known("type_v", str),
            known("bytes", int),
            known("n_ctx", int),
            known("reused_tokens", int),
            known("evaluated_tokens", int),
        )


def format_bytes(size: int) -> str:
    """`48.0 MiB`, `1.5 GiB`: the binary units llama.cpp's own log uses."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):.2f} GiB"
    return f"{size / (1 << 20):.1f} MiB"
