"""Requantise a GGUF model file with the installed llama.cpp: set-up's step for a derived model.

    python packaging/requantize_gguf.py SOURCE.gguf TARGET.gguf LLAMA_FTYPE_MOSTLY_Q4_0

Run by packaging/install_models.py in a child process (llama.cpp's log and any crash stay out of
the installer). Quantisation is deterministic: the same source gives the same bytes whatever the
thread count or the CPU kernels (1 or 2 threads; x64, haswell and zen4: checked 2026-12-07), so the
target is pinned like any other file.
Exit code 0 when the target was written, 1 with a message otherwise.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def requantize(source: Path, target: Path, ftype: str) -> None:
    """Write `target`, `source` requantised to `ftype` (a llama_cpp LLAMA_FTYPE_* name)."""
    from app.core.generate.cpu_kernels import load_cpu_kernels

    load_cpu_kernels()
    import llama_cpp

    if not ftype.startswith("LLAMA_FTYPE_") or not hasattr(llama_cpp, ftype):
        raise ValueError(f"{ftype} is no llama.cpp file type")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, ftype)
    params.allow_requantize = True
    params.nthread = os.cpu_count() or 1
    if llama_cpp.llama_model_quantize(str(source).encode(), str(target).encode(), params) != 0:
        raise RuntimeError(f"llama.cpp could not requantise {source.name} to {ftype}")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        print("usage: requantize_gguf.py SOURCE.gguf TARGET.gguf LLAMA_FTYPE_…", file=sys.stderr)
        return 1
    try:
        requantize(Path(args[0]), Path(args[1]), args[2])
    except (ValueError, RuntimeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
