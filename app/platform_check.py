"""Qt-free check that the xcb platform plugin's system libraries are installed, with the apt-get fix.

Qt's own message when a library of its xcb plugin is missing blames libxcb-cursor0 whatever is
really missing, and then aborts. This module reads the plugin's ELF `NEEDED` entries (and those
of every library they load, recursively), resolves them the way the dynamic loader does (RPATH /
RUNPATH with $ORIGIN, LD_LIBRARY_PATH, the `ldconfig -p` cache, the default directories), and
names each missing library's Debian package. Used by `make` set-up
(`python -m app.platform_check --install`), by `folio` before it creates the QApplication, and by
the package tests; it imports nothing but the standard library.
"""

from __future__ import annotations

import argparse
import importlib.util
import mmap
import os
import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ELF_MAGIC = b"\x7fELF"
# Dynamic-section tags (elf.h).
DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH = 1, 14, 15, 29
SHT_DYNAMIC = 6
# The loader's trusted directories, searched after the ldconfig cache.
DEFAULT_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64")
# The libraries that Qt's xcb plugin loads whose Debian package name does not follow Debian
# policy's rule applied in `debian_package` (libfoo.so.N -> libfooN, libfoo1.so.N -> libfoo1-N).
# Checked against bookworm's packages; every other soname the plugin needs follows the rule.
PACKAGE_OF_SONAME: Mapping[str, str] = {
    "libGLdispatch.so.0": "libglvnd0",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libz.so.1": "zlib1g",
    "libjpeg.so.62": "libjpeg62-turbo",
    **{
        name: "libc6"
        for name in ("libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libresolv.so.2")
    },
}


@dataclass(frozen=True)
class ElfInfo:
    """What the loader reads from a shared object: its format, dependencies and search paths."""

    elf_class: int  # 1 = 32-bit, 2 = 64-bit
    machine: int
    needed: tuple[str, ...]
    soname: str
    rpath: tuple[str, ...]
    runpath: tuple[str, ...]


@dataclass(frozen=True)
class MissingLibrary:
    """A soname that no search path provides, the object that needs it and its Debian package."""

    soname: str
    needed_by: Path
    package: str


def is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == ELF_MAGIC
    except OSError:
        return False


def read_elf(path: Path) -> ElfInfo | None:
    """The dynamic section of an ELF file (via its section headers); None when it is not ELF."""
    try:
        with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return _parse_elf(data) if data[:4] == ELF_MAGIC and len(data) >= 64 else None
    except (OSError, ValueError, struct.error):
        return None


def _parse_elf(data: mmap.mmap) -> ElfInfo:
    elf_class, endian = data[4], "<" if data[5] == 1 else ">"
    wide = elf_class == 2
    machine = struct.unpack_from(endian + "H", data, 18)[0]
    if wide:
        (shoff,) = struct.unpack_from(endian + "Q", data, 40)
        shentsize, shnum = struct.unpack_from(endian + "HH", data, 58)
    else:
        (shoff,) = struct.unpack_from(endian + "I", data, 32)
        shentsize, shnum = struct.unpack_from(endian + "HH", data, 46)
    sections = []
    for index in range(shnum):
        at = shoff + index * shentsize
        if wide:
            _, kind, _, _, offset, size, link, _, _, entsize = struct.unpack_from(
                endian + "IIQQQQIIQQ", data, at
            )
        else:
            _, kind, _, _, offset, size, link, _, _, entsize = struct.unpack_from(
                endian + "IIIIIIIIII", data, at
            )
        sections.append((kind, offset, size, link, entsize))
    entries: list[tuple[int, int]] = []
    strtab = 0
    for kind, offset, size, link, entsize in sections:
        if kind != SHT_DYNAMIC or link >= len(sections):
            continue
        strtab = sections[link][1]
        step = entsize or (16 if wide else 8)
        fmt = endian + ("qQ" if wide else "iI")
        for at in range(offset, offset + size, step):
            tag, value = struct.unpack_from(fmt, data, at)
            if tag == 0:
                break
            entries.append((tag, value))

    def text(value: int) -> str:
        end = data.find(b"\0", strtab + value)
        return data[strtab + value : end].decode("utf-8", "replace")

    def paths(tag: int) -> tuple[str, ...]:
        return tuple(p for t, v in entries if t == tag for p in text(v).split(":") if p)

    return ElfInfo(
        elf_class=elf_class,
        machine=machine,
        needed=tuple(text(v) for t, v in entries if t == DT_NEEDED),
        soname=next((text(v) for t, v in entries if t == DT_SONAME), ""),
        rpath=paths(DT_RPATH),
        runpath=paths(DT_RUNPATH),
    )


def ldconfig_cache() -> dict[str, list[Path]]:
    """soname -> paths from `ldconfig -p` (the loader's cache); {} when ldconfig is unavailable."""
    ldconfig = shutil.which("ldconfig") or next(
        (p for p in ("/sbin/ldconfig", "/usr/sbin/ldconfig") if os.access(p, os.X_OK)), None
    )
    if ldconfig is None:
        return {}
    try:
        listing = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    cache: dict[str, list[Path]] = {}
    for line in listing.splitlines():
        match = re.match(r"\s+(\S+) \(.*\) => (.+)$", line)
        if match:
            cache.setdefault(match.group(1), []).append(Path(match.group(2)))
    return cache


class Resolver:
    """Finds sonames as the dynamic loader would, for objects of one ELF class and machine."""

    def __init__(
        self,
        extra_dirs: Sequence[Path] = (),
        cache: Mapping[str, list[Path]] | None = None,
        default_dirs: Sequence[str] = DEFAULT_DIRS,
    ) -> None:
        self.env_dirs = [Path(p) for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p]
        self.extra_dirs = list(extra_dirs)
        self.cache = ldconfig_cache() if cache is None else cache
        self.default_dirs = [Path(d) for d in default_dirs]
        self._elf: dict[Path, ElfInfo | None] = {}

    def info(self, path: Path) -> ElfInfo | None:
        if path not in self._elf:
            self._elf[path] = read_elf(path)
        return self._elf[path]

    def find(self, soname: str, needed_by: Path, info: ElfInfo) -> Path | None:
        origin = str(needed_by.resolve().parent)

        def expand(entries: Iterable[str]) -> list[Path]:
            return [Path(e.replace("$ORIGIN", origin).replace("${ORIGIN}", origin)) for e in entries]

        # DT_RPATH applies only without DT_RUNPATH; LD_LIBRARY_PATH comes between them.
        dirs = [*([] if info.runpath else expand(info.rpath)), *self.env_dirs, *expand(info.runpath)]
        candidates = [d / soname for d in [*dirs, *self.extra_dirs]]
        candidates += self.cache.get(soname, [])
        candidates += [d / soname for d in self.default_dirs]
        for candidate in candidates:
            found = self.info(candidate) if candidate.is_file() else None
            if found and (found.elf_class, found.machine) == (info.elf_class, info.machine):
                return candidate
        return None

    def missing(self, roots: Iterable[Path]) -> list[MissingLibrary]:
        """Every soname that `roots` load, directly or through another library, and nothing provides."""
        result: dict[str, MissingLibrary] = {}
        seen: set[Path] = set()
        pending = [Path(r) for r in roots]
        while pending:
            current = pending.pop()
            info = self.info(current)
            if current in seen or info is None:
                continue
            seen.add(current)
            for soname in info.needed:
                found = self.find(soname, current, info)
                if found is None:
                    result.setdefault(soname, MissingLibrary(soname, current, debian_package(soname)))
                elif found.resolve() not in seen:
                    pending.append(found.resolve())
        return sorted(result.values(), key=lambda m: m.soname)


def debian_package(soname: str) -> str:
    """The Debian package that ships `soname`: the table above, else Debian policy 8.1's rule."""
    if soname in PACKAGE_OF_SONAME:
        return PACKAGE_OF_SONAME[soname]
    match = re.match(r"^(.+?)\.so(?:\.(\d+))?", soname)
    if not match:
        return soname.lower()
    name, version = match.group(1).lower().replace("_", "-"), match.group(2)
    if version is None:
        return name
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def qt_plugin_dirs() -> list[Path]:
    """Where Qt looks for plugins: QT_PLUGIN_PATH, then the bundle's or the PySide6 package's."""
    dirs = [Path(p) for p in os.environ.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        dirs.append(Path(bundle) / "PySide6" / "Qt" / "plugins")
    else:
        spec = importlib.util.find_spec("PySide6")
        for location in (spec.submodule_search_locations or []) if spec else []:
            dirs.append(Path(location) / "Qt" / "plugins")
    return dirs


def xcb_plugin() -> Path | None:
    platform_dir = os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH")
    dirs = [Path(platform_dir)] if platform_dir else []
    dirs += [d / "platforms" for d in qt_plugin_dirs()]
    return next((d / "libqxcb.so" for d in dirs if (d / "libqxcb.so").is_file()), None)


def missing_for_xcb(plugin: Path | None = None, resolver: Resolver | None = None) -> list[MissingLibrary]:
    """The xcb plugin's missing libraries; [] off Linux or when no plugin is installed."""
    plugin = plugin or xcb_plugin()
    if not sys.platform.startswith("linux") or plugin is None:
        return []
    return (resolver or Resolver()).missing([plugin])


def uses_xcb(environ: Mapping[str, str]) -> bool:
    """True when Qt will pick the xcb platform: QT_QPA_PLATFORM says so, or an X session without Wayland."""
    if not sys.platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";")[0].split(":")[0] == "xcb"
    return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")


def install_command(packages: Sequence[str], as_root: bool) -> list[str]:
    return [*([] if as_root else ["sudo"]), "apt-get", "install", "-y", *packages]


def explain(missing: Sequence[MissingLibrary], as_root: bool) -> str:
    """The one line a user reads instead of Qt's abort."""
    packages = sorted({m.package for m in missing})
    command = " ".join(install_command(packages, as_root)).replace(" -y", "")
    names = ", ".join(m.soname for m in missing)
    return (
        f"Folio cannot open its window: the Qt xcb platform plugin needs {names}, "
        f"which {'is' if len(missing) == 1 else 'are'} not installed. Install with: {command}"
    )


def gui_problem(environ: Mapping[str, str] | None = None, resolver: Resolver | None = None) -> str | None:
    """Before the QApplication exists: the message to print when the xcb plugin cannot load."""
    if not uses_xcb(os.environ if environ is None else environ):
        return None
    missing = missing_for_xcb(resolver=resolver)
    return explain(missing, os.geteuid() == 0) if missing else None


def _can_sudo() -> bool:
    if shutil.which("sudo") is None:
        return False
    if sys.stdin.isatty():
        return True  # sudo may ask for the password
    return subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0


def install(missing: Sequence[MissingLibrary]) -> bool:
    """apt-get install the packages as root or through sudo; `apt-get update` first if one is unknown."""
    as_root = os.geteuid() == 0
    if shutil.which("apt-get") is None or not (as_root or _can_sudo()):
        return False
    packages = sorted({m.package for m in missing})
    command = install_command(packages, as_root)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"installing the window's system libraries: {' '.join(command)}", file=sys.stderr)
    # apt-get's progress goes to stderr with the rest of what is said to people: a caller's stdout
    # carries only its result (the .deb build reads the Depends value from it).
    if subprocess.run(command, env=env, stdout=sys.stderr).returncode == 0:
        return True
    update = [*command[: command.index("apt-get")], "apt-get", "update"]
    return (
        subprocess.run(update, env=env, stdout=sys.stderr).returncode == 0
        and subprocess.run(command, env=env, stdout=sys.stderr).returncode == 0
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app.platform_check", description="Check the Qt xcb plugin's system libraries."
    )
    parser.add_argument(
        "--install", action="store_true", help="apt-get install what is missing (root or sudo)"
    )
    parser.add_argument("--plugin", type=Path, help="check this plugin instead of the installed libqxcb.so")
    parser.add_argument(
        "--system-dirs",
        metavar="DIR[:DIR...]",
        help="treat only these directories as the system's libraries (instead of ldconfig's cache), "
        "to see what a machine with just those libraries would lack",
    )
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        return 0
    plugin = args.plugin or xcb_plugin()
    if plugin is None:
        print(
            "platform check: Qt's xcb plugin (libqxcb.so) is not installed: is PySide6 installed?",
            file=sys.stderr,
        )
        return 1
    system = args.system_dirs.split(":") if args.system_dirs else None

    def check() -> list[MissingLibrary]:
        return missing_for_xcb(plugin, Resolver(cache={}, default_dirs=system) if system else Resolver())

    missing = check()
    if missing and args.install and not system and install(missing):
        missing = check()  # a fresh ldconfig cache
    if missing:
        print(explain(missing, os.geteuid() == 0), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
