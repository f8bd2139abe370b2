"""Build and install llama-cpp-python with three loadable CPU kernel variants (x64, haswell, zen4)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

VERSION = "0.3.36"
SPEC = f"llama-cpp-python=={VERSION}"
PIP = (sys.executable, "-m", "pip")
# The variants kept from ggml's list, with ggml's own flags for each: any x86-64; AVX2/FMA/F16C;
# AVX-512 (F/BW/VL/DQ/CD, VBMI) with VNNI and BF16. Not sapphirerapids (AMX crashed a build here).
VARIANTS = ("x64", "haswell", "zen4")
CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON -DCMAKE_INSTALL_BINDIR=llama_cpp/lib"
)
VARIANT_LIST = Path("vendor/llama.cpp/ggml/src/CMakeLists.txt")
# The x86 branch of the `if (GGML_CPU_ALL_VARIANTS)` block, up to the ARM branch after it.
X86_BLOCK = re.compile(
    r'(if \(GGML_CPU_ALL_VARIANTS\).*?if \(GGML_SYSTEM_ARCH STREQUAL "x86"\)\n)'
    r'(.*?)(\n\s*elseif ?\(GGML_SYSTEM_ARCH STREQUAL "ARM"\))',
    re.DOTALL,
)
VARIANT_CALL = re.compile(r"^\s*ggml_add_cpu_backend_variant\((\w+)\b.*\)\s*$", re.MULTILINE)


class VariantListError(RuntimeError):
    """ggml's variant list is not where or what this script expects (a new llama.cpp?)."""


def keep_variants(cmake_text: str, keep: tuple[str, ...] = VARIANTS) -> str:
    """`cmake_text` with the x86 variant list cut down to `keep`, each with ggml's own flags."""
    block = X86_BLOCK.search(cmake_text)
    if block is None:
        raise VariantListError(f"no x86 branch of `if (GGML_CPU_ALL_VARIANTS)` in {VARIANT_LIST}")
    calls = {match.group(1): match.group(0) for match in VARIANT_CALL.finditer(block.group(2))}
    missing = [name for name in keep if name not in calls]
    if missing:
        have = ", ".join(calls)
        raise VariantListError(f"{VARIANT_LIST} lists no variant {', '.join(missing)} (has {have})")
    body = "\n".join(calls[name] for name in keep)
    return cmake_text[: block.start(2)] + body + cmake_text[block.end(2) :]


def unpack_sdist(build_dir: Path) -> Path:
    """Download llama-cpp-python's sdist into `build_dir` and unpack it; the source folder."""
    subprocess.run(
        [*PIP, "download", "--quiet", "--no-binary", ":all:", "--no-deps", "--dest", str(build_dir), SPEC],
        check=True,
    )
    archive = build_dir / f"llama_cpp_python-{VERSION}.tar.gz"
    with tarfile.open(archive) as tar:
        tar.extractall(build_dir, filter="data")
    return build_dir / f"llama_cpp_python-{VERSION}"


def installed_variants() -> list[str]:
    """The CPU variant libraries beside libllama in this Python's llama_cpp/lib."""
    found = subprocess.run(
        [sys.executable, "-c", "import llama_cpp, pathlib; print(pathlib.Path(llama_cpp.__file__).parent)"],
        check=True,
        capture_output=True,
        text=True,
    )
    lib_dir = Path(found.stdout.strip()) / "lib"
    return sorted(path.name for path in lib_dir.glob("libggml-cpu-*.so"))


def build(source: Path) -> None:
    """Edit the variant list in `source` and pip-install it into this Python with the variants on."""
    cmake_file = source / VARIANT_LIST
    cmake_file.write_text(keep_variants(cmake_file.read_text()))
    env = dict(os.environ, CMAKE_ARGS=CMAKE_ARGS)
    subprocess.run(
        [*PIP, "install", "--quiet", "--force-reinstall", "--no-deps", str(source)],
        check=True,
        env=env,
    )
    subprocess.run([*PIP, "install", "--quiet", SPEC], check=True)  # its dependencies
    have = installed_variants()
    wanted = sorted(f"libggml-cpu-{name}.so" for name in VARIANTS)
    if have != wanted:
        raise SystemExit(f"llama_cpp/lib holds {have}, expected {wanted}")
    print("llama_cpp/lib:", " ".join(have))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build-dir", type=Path, help="where the sdist is unpacked (default: a temp dir)")
    args = parser.parse_args(argv)
    if args.build_dir is not None:
        args.build_dir.mkdir(parents=True, exist_ok=True)
        build(unpack_sdist(args.build_dir))
        return 0
    with tempfile.TemporaryDirectory(prefix="llama-variants-") as tmp:
        build(unpack_sdist(Path(tmp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
