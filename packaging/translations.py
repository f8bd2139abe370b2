"""The interface translations: update the .ts sources from the code (lupdate), build the .qm (lrelease).

    python packaging/translations.py update    # after adding strings: new ones appear unfinished in
                                               # resources/i18n/folio_zh_CN.ts, removed ones are dropped
    python packaging/translations.py release   # make setup and the bundle build: .ts -> .qm

Uses pyside6-lupdate and pyside6-lrelease of the venv that runs this script (PySide6 ships both).
The .ts keeps no source locations, so moving code does not change it. Needs only the standard library.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "app"  # the window's and the CLI's strings (and the core's marked messages)
TRANSLATIONS = ROOT / "resources" / "i18n"
LANGUAGES = ("zh_CN",)


def tool(name: str) -> str:
    """pyside6-<name> beside this interpreter (the venv), else on PATH."""
    suffix = ".exe" if sys.platform == "win32" else ""
    beside = Path(sys.executable).parent / f"pyside6-{name}{suffix}"
    if beside.is_file():
        return str(beside)
    found = shutil.which(f"pyside6-{name}")
    if found is None:
        raise SystemExit(f"translations.py: pyside6-{name} not found (install PySide6 in the venv)")
    return found


def ts_files(folder: Path = TRANSLATIONS) -> list[Path]:
    return [folder / f"folio_{language}.ts" for language in LANGUAGES]


def lupdate(targets: list[Path], sources: Path = SOURCES, keep_obsolete: bool = False) -> str:
    """Read every translatable string of `sources` into `targets` (created when missing)."""
    command = [tool("lupdate"), "-extensions", "py", "-locations", "none", str(sources)]
    if not keep_obsolete:
        command.append("-no-obsolete")
    command += ["-ts", *map(str, targets)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return done.stdout + done.stderr


def lrelease(sources: list[Path]) -> list[Path]:
    """Build folio_<lang>.qm beside each .ts; unfinished messages are left out (English is shown)."""
    built: list[Path] = []
    for source in sources:
        target = source.with_suffix(".qm")
        subprocess.run(
            [tool("lrelease"), "-silent", str(source), "-qm", str(target)], check=True, capture_output=True
        )
        built.append(target)
    return built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("action", choices=("update", "release"))
    args = parser.parse_args(argv)
    if args.action == "update":
        print(lupdate(ts_files()).strip())
        return 0
    for built in lrelease(ts_files()):
        print(f"translations: {built.relative_to(ROOT)} ({built.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
