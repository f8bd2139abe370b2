"""The embedder's arithmetic: bf16 only on CPUs with native bf16 units, and vectors that agree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.embed.precision import cpu_flags, resolve_precision
from app.core.errors import UsageError

TEXTS = [
    "The lighthouse at Cape Merrow is 31 m tall and flashes green every 12 seconds.",
    "灯塔的闪光是绿色的，每十二秒一次。",
    "Prefill evaluates the whole prompt at once; decode produces one token per step.",
]


def test_auto_picks_bf16_only_with_native_bf16_units() -> None:
    assert resolve_precision("auto", frozenset({"avx2", "amx_bf16", "amx_tile"})) == "bf16"
    assert resolve_precision("auto", frozenset({"avx512f", "avx512_bf16"})) == "bf16"
    assert resolve_precision("auto", frozenset({"avx2", "avx512f", "avx512bw"})) == "fp32"  # emulated: slower
    assert resolve_precision("auto", frozenset()) == "fp32"  # no /proc/cpuinfo (macOS, Windows)
    assert resolve_precision("fp32", frozenset({"amx_bf16"})) == "fp32"  # an explicit choice stands
    assert resolve_precision("bf16", frozenset()) == "bf16"
    with pytest.raises(ValueError, match="embedding precision"):
        resolve_precision("int4", frozenset())
    with pytest.raises(UsageError, match="embedding precision"):
        Settings(embed_precision="fp16").validate()


def test_cpu_flags_are_read_from_the_first_cpu(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    first, second = "processor\t: 0\nflags\t\t: fpu sse2 avx512_bf16\n", "processor\t: 1\nflags\t\t: fpu\n"
    cpuinfo.write_text(f"{first}\n{second}", encoding="ascii")
    assert cpu_flags(cpuinfo) == frozenset({"fpu", "sse2", "avx512_bf16"})
    assert cpu_flags(tmp_path / "absent") == frozenset()


def test_bf16_vectors_agree_with_fp32_ones(embed_model_path: Path) -> None:
    full, half = Embedder(embed_model_path, precision="fp32"), Embedder(embed_model_path, precision="bf16")
    a, b = full.embed(TEXTS), half.embed(TEXTS)
    assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-4)
    cosines = (a * b).sum(axis=1)
    assert cosines.min() > 0.999, cosines  # the same model: a library built with one serves the other
    assert not np.array_equal(a, b), "bf16 was not applied"
