"""The embedder's arithmetic: bfloat16 where the CPU computes it natively, else float32."""

from __future__ import annotations

from pathlib import Path

from app.core.config import EMBED_PRECISIONS

# CPU flags (Linux /proc/cpuinfo) of native bfloat16 matrix units: AMX tiles or AVX-512 BF16. Without
# them bfloat16 is emulated and slower than float32, so "auto" keeps float32.
NATIVE_BF16_FLAGS = frozenset({"amx_bf16", "avx512_bf16"})


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The flags of the first CPU listed; empty where the OS has no /proc/cpuinfo (macOS, Windows)."""
    try:
        with cpuinfo.open(encoding="ascii", errors="replace") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key.strip() == "flags":
                    return frozenset(value.split())
    except OSError:
        pass
    return frozenset()


def resolve_precision(setting: str, flags: frozenset[str] | None = None) -> str:
    """'fp32' or 'bf16' for a setting of EMBED_PRECISIONS: 'auto' picks bf16 only on native hardware.

    bfloat16 keeps float32's range with a shorter mantissa; for all-MiniLM-L6-v2 its vectors have a
    cosine of 0.9999 with the float32 ones (benchmarks/bench_ingest.py measures it), so a library
    indexed with one is searched correctly with the other."""
    if setting not in EMBED_PRECISIONS:
        raise ValueError(f"embedding precision must be one of {', '.join(EMBED_PRECISIONS)}")
    if setting != "auto":
        return setting
    return "bf16" if (cpu_flags() if flags is None else flags) & NATIVE_BF16_FLAGS else "fp32"
