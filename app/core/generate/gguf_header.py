"""Read a GGUF file's metadata (the key/value header) without loading the model; stdlib only."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from app.core.generate.model import GGUF_MAGIC

# GGUF value types (gguf.GGUFValueType): scalars by struct format, 8 = string, 9 = array.
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9
_MAX_STRING = 64 << 20  # a chat template or a name is far smaller; more means a corrupt header
_MAX_KEYS = 1 << 16
_MAX_ARRAY = 1 << 26
KEEP_ARRAY_ITEMS = 16  # longer arrays (the vocabulary) are skipped; only their length is kept


class GgufHeaderError(ValueError):
    """The file is not a readable GGUF file."""


@dataclass(frozen=True)
class ArraySummary:
    """A metadata array too long to keep (a tokenizer vocabulary): its element type and length."""

    item_type: int
    length: int


MetaValue = str | int | float | bool | list["MetaValue"] | ArraySummary


@dataclass(frozen=True)
class GgufHeader:
    """The metadata of a GGUF file, as written by its converter."""

    version: int
    tensor_count: int
    metadata: dict[str, MetaValue] = field(default_factory=dict)

    def text(self, key: str) -> str | None:
        value = self.metadata.get(key)
        return value if isinstance(value, str) else None

    def integer(self, key: str) -> int | None:
        value = self.metadata.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def architecture(self) -> str | None:
        return self.text("general.architecture")

    @property
    def name(self) -> str | None:
        return self.text("general.name")

    @property
    def chat_template(self) -> str | None:
        return self.text("tokenizer.chat_template")

    @property
    def context_length(self) -> int | None:
        """The training context length, stored under the architecture's own prefix."""
        arch = self.architecture
        return self.integer(f"{arch}.context_length") if arch else None


class _Reader:
    def __init__(self, handle: BinaryIO, order: str) -> None:
        self.handle = handle
        self.order = order

    def take(self, size: int) -> bytes:
        data = self.handle.read(size)
        if len(data) != size:
            raise GgufHeaderError("the file ends inside its metadata header")
        return data

    def unpack(self, fmt: str) -> int | float | bool:
        value: int | float | bool = struct.unpack(self.order + fmt, self.take(struct.calcsize(fmt)))[0]
        return value

    def count(self, limit: int, what: str) -> int:
        value = int(self.unpack("Q"))
        if value > limit:
            raise GgufHeaderError(f"implausible {what} ({value}): the header is corrupt")
        return value

    def string(self) -> str:
        return self.take(self.count(_MAX_STRING, "string length")).decode("utf-8", errors="replace")

    def skip_string(self) -> None:
        self.handle.seek(self.count(_MAX_STRING, "string length"), 1)

    def value(self, value_type: int) -> MetaValue:
        if value_type == _STRING:
            return self.string()
        if value_type == _ARRAY:
            item_type = int(self.unpack("I"))
            length = self.count(_MAX_ARRAY, "array length")
            if length <= KEEP_ARRAY_ITEMS:
                return [self.value(item_type) for _ in range(length)]
            self.skip_array(item_type, length)
            return ArraySummary(item_type, length)
        fmt = _SCALARS.get(value_type)
        if fmt is None:
            raise GgufHeaderError(f"unknown metadata value type {value_type}")
        return self.unpack(fmt)

    def skip_array(self, item_type: int, length: int) -> None:
        fmt = _SCALARS.get(item_type)
        if fmt is not None:
            self.handle.seek(struct.calcsize(fmt) * length, 1)
        elif item_type == _STRING:
            for _ in range(length):
                self.skip_string()
        else:
            for _ in range(length):
                self.value(item_type)


def read_gguf_header(path: Path) -> GgufHeader:
    """The metadata of a GGUF file (v2 or v3, either byte order); raises GgufHeaderError."""
    try:
        with path.open("rb") as handle:
            if handle.read(4) != GGUF_MAGIC:
                raise GgufHeaderError(f"{path} is not a GGUF file")
            raw_version = handle.read(4)
            if len(raw_version) != 4:
                raise GgufHeaderError(f"{path} ends inside its GGUF header")
            order = "<"
            version = struct.unpack("<I", raw_version)[0]
            if version & 0xFFFF == 0:  # a big-endian file read as little-endian
                order, version = ">", struct.unpack(">I", raw_version)[0]
            if version not in (2, 3):
                raise GgufHeaderError(f"{path}: GGUF version {version} is not supported (2 or 3)")
            reader = _Reader(handle, order)
            tensor_count = reader.count(1 << 24, "tensor count")
            key_count = reader.count(_MAX_KEYS, "metadata key count")
            metadata: dict[str, MetaValue] = {}
            for _ in range(key_count):
                key = reader.string()
                metadata[key] = reader.value(int(reader.unpack("I")))
    except OSError as exc:
        raise GgufHeaderError(f"cannot read {path}: {exc}") from exc
    except GgufHeaderError as exc:
        if str(path) in str(exc):
            raise
        raise GgufHeaderError(f"{path}: {exc}") from exc
    return GgufHeader(version, tensor_count, metadata)
