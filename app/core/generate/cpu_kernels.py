"""Which llama.cpp CPU kernels run: in a build of loadable CPU variants (GGML_BACKEND_DL with
GGML_CPU_ALL_VARIANTS), the best variant this CPU supports, loaded once before the first model.

llama-cpp-python 0.3.36 never calls ggml_backend_load_all, and ggml would only search the Python
executable's folder and the working directory, not `llama_cpp/lib` where the variants are; so this
module scores each `libggml-cpu-<variant>.so` there (ggml's own `ggml_backend_score`: 0 when the CPU
lacks an instruction the variant needs) and loads the best with `ggml_backend_load`. In a build with
one fixed set of kernels (GGML_NATIVE=OFF, no variants) the CPU backend is built in and nothing loads.
The variants register into the libggml that libllama was linked against, the copy already mapped
into the process: a wheel may hold several copies of libggml (llama_cpp/lib and site-packages/lib),
and a variant loaded by another copy registers where no model looks ("no backends are loaded"), so
that copy is reopened with RTLD_NOLOAD by the path /proc/self/maps gives for it.
`FOLIO_CPU_VARIANT=<name>` forces a variant (benchmarks, and proving a slower one runs). The AMX
variant (sapphirerapids) is never chosen by itself: its score reads the CPUID bits without asking the
OS (ggml: "FIXME: this does not check for OS support"), and AMX kernels crashed a native build here.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.errors import ModelError
from app.core.messages import QT_TRANSLATE_NOOP

VARIANT_ENV = "FOLIO_CPU_VARIANT"
PREFIX, SUFFIX = "libggml-cpu-", ".so"
LIBGGML = re.compile(r"libggml\.so(\.\d+)*")  # not libggml-base, libggml-cpu-*
NEVER_CHOSEN = frozenset({"sapphirerapids"})  # AMX tiles: see the module's docstring


@dataclass(frozen=True)
class CpuKernels:
    """The CPU kernels of this process: `variant` None means the build's one built-in set."""

    variant: str | None
    scores: tuple[tuple[str, int], ...] = ()  # every variant found and its score on this CPU

    def to_json(self) -> dict[str, object]:
        return {"variant": self.variant or "built-in", "scores": dict(self.scores)}


_lock = threading.Lock()
_loaded: CpuKernels | None = None


def llama_lib_dir() -> Path:
    import llama_cpp

    return Path(llama_cpp.__file__).resolve().parent / "lib"


def variant_files(lib_dir: Path) -> dict[str, Path]:
    """The loadable CPU variants in `lib_dir`, by name ("haswell", "x64", ...)."""
    found = {}
    for path in lib_dir.glob(f"{PREFIX}*{SUFFIX}"):
        found[path.name[len(PREFIX) : -len(SUFFIX)]] = path
    return found


def _score(path: Path) -> int:
    """ggml's score of a variant on this CPU (0: not supported); the library is closed again."""
    library = ctypes.CDLL(str(path))
    try:
        score_fn = library.ggml_backend_score
        score_fn.restype = ctypes.c_int
        return int(score_fn())
    except AttributeError:
        return 0
    finally:
        import _ctypes

        _ctypes.dlclose(library._handle)


def choose(scores: dict[str, int], forced: str | None) -> str:
    """The variant to load: `forced` when given and supported, else the best scored one that
    may be chosen by itself. ModelError when there is none."""
    if forced:
        if scores.get(forced, 0) <= 0:
            raise ModelError(
                QT_TRANSLATE_NOOP("Core", "the CPU kernels {0} cannot run on this processor (found: {1})"),
                forced,
                ", ".join(sorted(scores)),
            )
        return forced
    usable = {name: score for name, score in scores.items() if score > 0 and name not in NEVER_CHOSEN}
    if not usable:
        raise ModelError(
            QT_TRANSLATE_NOOP("Core", "none of llama.cpp's CPU kernels can run on this processor ({0})"),
            ", ".join(sorted(scores)),
        )
    return max(usable, key=lambda name: usable[name])


def mapped_libggml(maps: str) -> Path | None:
    """The libggml among the files mapped into a process (`maps`: /proc/<pid>/maps), if any."""
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and LIBGGML.fullmatch(Path(fields[5]).name):
            return Path(fields[5])
    return None


def _loaded_libggml() -> ctypes.CDLL:
    """The libggml that llama_cpp's libllama uses, already in the process: never a second copy."""
    import llama_cpp.llama_cpp  # noqa: F401  (loads libllama and, with it, its libggml)

    path = mapped_libggml(Path("/proc/self/maps").read_text())
    if path is None:
        raise ModelError(QT_TRANSLATE_NOOP("Core", "llama.cpp's libggml is not loaded in this process"))
    return ctypes.CDLL(str(path), mode=os.RTLD_NOLOAD | os.RTLD_GLOBAL)


def new_llama(**options: Any) -> Any:
    """`llama_cpp.Llama(**options)` once the CPU kernels are loaded: the one way Folio, its tests and
    its benchmarks open a model (a build of loadable variants has no backend before them)."""
    load_cpu_kernels()
    from llama_cpp import Llama

    return Llama(**options)


def load_cpu_kernels() -> CpuKernels:
    """Load the CPU kernels once per process (before the first model); what runs."""
    global _loaded
    with _lock:
        if _loaded is not None:
            return _loaded
        files = variant_files(llama_lib_dir())
        if not files:
            _loaded = CpuKernels(None)
            return _loaded
        ggml = _loaded_libggml()
        ggml.ggml_backend_reg_count.restype = ctypes.c_size_t
        if ggml.ggml_backend_reg_count() > 0:
            _loaded = CpuKernels(None)
            return _loaded
        scores = {name: _score(path) for name, path in sorted(files.items())}
        name = choose(scores, os.environ.get(VARIANT_ENV) or None)
        ggml.ggml_backend_load.restype = ctypes.c_void_p
        ggml.ggml_backend_load.argtypes = [ctypes.c_char_p]
        if not ggml.ggml_backend_load(os.fsencode(files[name])):
            raise ModelError(
                QT_TRANSLATE_NOOP("Core", "cannot load llama.cpp's CPU kernels {0}"), files[name]
            )
        _loaded = CpuKernels(name, tuple(scores.items()))
        return _loaded
