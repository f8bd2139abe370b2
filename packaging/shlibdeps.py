"""The .deb's Depends, computed: `dpkg-shlibdeps` over the staged bundle's ELF files.

Usage (from the repository root): PYTHONPATH=. python packaging/shlibdeps.py STAGE_DIR
prints one line, the Depends value, on stdout (and nothing else there: what apt-get says while
installing a missing library goes to stderr). STAGE_DIR is the package tree (it holds DEBIAN/); every
directory of the bundle that holds a shared library is given to dpkg-shlibdeps with -l, so a
library the bundle carries itself resolves inside the package and adds no dependency. A library
that is found nowhere (not in the bundle, not installed here) is an error: the build machine must
have every system library the bundle loads, which is what makes the result complete.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from app.platform_check import MissingLibrary, debian_package, install, is_elf


def elf_files(stage: Path) -> list[Path]:
    """Regular ELF files of the package tree (symbolic links are the same files again)."""
    return sorted(
        p
        for p in stage.rglob("*")
        if p.is_file() and not p.is_symlink() and "DEBIAN" not in p.parts and is_elf(p)
    )


def library_dirs(files: list[Path]) -> list[Path]:
    return sorted({p.parent for p in files if ".so" in p.name})


def missing_hint(stderr: str) -> str:
    """What to do about the libraries dpkg-shlibdeps found nowhere: the bundle or this machine lacks them."""
    missing = sorted(set(re.findall(r"cannot find library (\S+) needed by", stderr)))
    if not missing:
        return ""
    packages = " ".join(sorted({debian_package(soname) for soname in missing}))
    return (
        f"\nNot in the bundle and not installed on this build machine: {', '.join(missing)}.\n"
        f"System libraries: apt-get install {packages}; a library of a Python wheel: it was left out of "
        "the bundle (packaging/folio.spec)."
    )


def missing_libraries(stderr: str) -> list[MissingLibrary]:
    """The sonames dpkg-shlibdeps found nowhere, with the Debian package of each."""
    found = dict(re.findall(r"cannot find library (\S+) needed by (\S+)", stderr))
    return [MissingLibrary(soname, Path(needer), debian_package(soname)) for soname, needer in found.items()]


def shlibs_depends(stage: Path, install_missing: bool = True) -> str:
    """The Depends value; system libraries the build machine lacks are installed first (as root
    or through sudo) when `install_missing`, since the result is only complete with all of them."""
    files = elf_files(stage)
    with tempfile.TemporaryDirectory(prefix="folio-shlibdeps-") as work:
        # dpkg-shlibdeps reads the source package's debian/control; a minimal one is enough.
        (Path(work) / "debian").mkdir()
        (Path(work) / "debian" / "control").write_text(
            "Source: folio\n\nPackage: folio\nArchitecture: any\n", encoding="utf-8"
        )
        command = ["dpkg-shlibdeps", "-O", "--warnings=1"]
        command += [f"-l{d.resolve()}" for d in library_dirs(files)]
        command += ["-e", *(str(f.resolve()) for f in files)]
        result = subprocess.run(command, cwd=work, capture_output=True, text=True)
    missing = missing_libraries(result.stderr) if result.returncode != 0 else []
    if missing and install_missing and install(missing):
        return shlibs_depends(stage, install_missing=False)
    if result.returncode != 0:
        raise SystemExit(f"dpkg-shlibdeps failed:\n{result.stderr[-6000:]}{missing_hint(result.stderr)}")
    for line in result.stdout.splitlines():
        if line.startswith("shlibs:Depends="):
            return line.split("=", 1)[1].strip()
    raise SystemExit(f"dpkg-shlibdeps printed no shlibs:Depends:\n{result.stdout}\n{result.stderr[-2000:]}")


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (Path(argv[0]) / "DEBIAN").is_dir():
        print(
            "usage: PYTHONPATH=. python packaging/shlibdeps.py STAGE_DIR  (the tree that holds DEBIAN/)",
            file=sys.stderr,
        )
        return 2
    print(shlibs_depends(Path(argv[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
