"""The .deb's Depends step on a build machine that lacks a library: apt-get's output stays out of the
value, and the control file is written verbatim from a validated value (packaging/debian_control.py).

A tiny program linked against a library that is not installed stands in for the bundle; a stub
`apt-get` on PATH prints apt-like text (with the `/` that broke the old `sed`) and "installs" the
library into the bundle's library folder, as a real install makes it resolvable.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"

needs_tools = pytest.mark.skipif(
    shutil.which("gcc") is None or shutil.which("dpkg-shlibdeps") is None,
    reason="needs gcc and dpkg-shlibdeps (Debian's dpkg-dev)",
)

APT_TEXT = """Reading package lists...
Building dependency tree...
Get:1 http://deb.debian.org/debian bookworm/main amd64 libfoliostub1 amd64 1.0-1 [5,000 B]
Unpacking libfoliostub1:amd64 (1.0-1) ...
Setting up libfoliostub1:amd64 (1.0-1) ... 50% & more
"""


def _control_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("debian_control", PACKAGING / "debian_control.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stage_lacking_a_library(tmp: Path) -> tuple[Path, Path]:
    """A package tree whose program needs libfoliostub.so.1, which is nowhere on this machine;
    returns (stage, the library file a stub install copies into the bundle)."""
    build = tmp / "build"
    build.mkdir(parents=True)
    stage = tmp / "stage"
    (stage / "DEBIAN").mkdir(parents=True)
    lib = stage / "opt" / "folio" / "_internal"
    lib.mkdir(parents=True)
    (build / "stub.c").write_text("int stub_fn(void) { return 42; }\n")
    (build / "helper.c").write_text("int helper_fn(void) { return 1; }\n")
    (build / "main.c").write_text("int stub_fn(void);\nint main(void) { return stub_fn(); }\n")
    stub_lib = build / "libfoliostub.so.1"
    gcc = ["gcc", "-shared", "-fPIC"]
    subprocess.run([*gcc, "-Wl,-soname,libfoliostub.so.1", "-o", stub_lib, build / "stub.c"], check=True)
    subprocess.run([*gcc, "-o", lib / "libfoliohelper.so", build / "helper.c"], check=True)
    subprocess.run(
        [
            "gcc",
            "-o",
            stage / "opt" / "folio" / "folio",
            build / "main.c",
            f"-L{build}",
            "-l:libfoliostub.so.1",
        ],
        check=True,
    )
    return stage, stub_lib


def _stub_apt_get(tmp: Path, library: Path, into: Path) -> dict[str, str]:
    """PATH with an `apt-get` that prints apt's kind of text on stdout and copies the library."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    (tmp / "apt.txt").write_text(APT_TEXT)
    script = bin_dir / "apt-get"
    script.write_text(
        f'#!/bin/sh\ncat "{tmp / "apt.txt"}"\ncp "{library}" "{into}/"\necho "$@" >> "{tmp / "calls"}"\n'
    )
    script.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "PYTHONPATH": str(REPO)}


@needs_tools
@pytest.mark.skipif(os.geteuid() != 0, reason="the missing-library install runs as root (no sudo here)")
def test_depends_of_a_bundle_needing_an_uninstalled_library(tmp_path: Path) -> None:
    stage, library = _stage_lacking_a_library(tmp_path)
    env = _stub_apt_get(tmp_path, library, stage / "opt" / "folio" / "_internal")

    shlibdeps = subprocess.run(
        [sys.executable, PACKAGING / "shlibdeps.py", stage],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shlibdeps.returncode == 0, shlibdeps.stderr
    assert "install -y libfoliostub1" in (tmp_path / "calls").read_text()
    value = shlibdeps.stdout.strip()
    assert "\n" not in value and "Reading" not in value, value
    assert value.startswith("libc6 (>= "), value
    assert "Unpacking" in shlibdeps.stderr  # apt's text was shown to people, on stderr

    # The step build_deb.sh runs: the stub is called again on a fresh stage, the control file is whole.
    stage2, _ = _stage_lacking_a_library(tmp_path / "again")
    env2 = _stub_apt_get(tmp_path / "again", library, stage2 / "opt" / "folio" / "_internal")
    written = subprocess.run(
        [
            sys.executable,
            PACKAGING / "debian_control.py",
            stage2,
            "--version",
            "1.2.3",
            "--arch",
            "amd64",
            "--installed-kb",
            "42",
            "--maintainer",
            "A/B & Co <a@b.example>",
        ],
        env=env2,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert written.returncode == 0, written.stderr
    assert written.stdout == ""
    control = (stage2 / "DEBIAN" / "control").read_text()
    fields = dict(
        line.split(": ", 1) for line in control.splitlines() if ": " in line and not line.startswith(" ")
    )
    assert fields["Depends"] == value
    assert fields["Maintainer"] == "A/B & Co <a@b.example>"
    assert fields["Version"] == "1.2.3" and fields["Installed-Size"] == "42"
    assert "@" not in control.replace("a@b.example", "")


def test_depends_shape_is_validated() -> None:
    control = _control_module()
    good = "libc6 (>= 2.34), libfontconfig1 (>= 2.12.6), fonts-noto-cjk | fonts-wqy-microhei, libx11-6:amd64"
    assert control.validate_depends(f" {good} ") == good
    for bad in (
        "",
        "Reading package lists... libc6 (>= 2.34)",
        "libc6 (>= 2.34)\nlibx11-6",
        "libc6 (>= 2.34), http://deb.debian.org/debian",
        "libc6 (>= )",
        "libc6,,libx11-6",
    ):
        with pytest.raises(control.ControlError):
            control.validate_depends(bad)


def test_control_values_are_not_interpreted(tmp_path: Path) -> None:
    control = _control_module()
    template = "Package: folio\nVersion: @VERSION@\nMaintainer: @MAINTAINER@\nDepends: @DEPENDS@\n"
    text = control.render_control(
        template, {"VERSION": "1.0", "MAINTAINER": r"A/B \1 & Co <x@y>", "DEPENDS": "libc6 (>= 2.34)"}
    )
    assert text == "Package: folio\nVersion: 1.0\nMaintainer: A/B \\1 & Co <x@y>\nDepends: libc6 (>= 2.34)\n"
    with pytest.raises(control.ControlError, match="DEPENDS"):
        control.render_control(template, {"VERSION": "1.0", "MAINTAINER": "m"})
    with pytest.raises(control.ControlError, match="line break"):
        control.render_control(template, {"VERSION": "1.0\nEvil: yes", "MAINTAINER": "m", "DEPENDS": "libc6"})


def test_a_malformed_depends_fails_the_step_with_its_value(tmp_path: Path) -> None:
    (tmp_path / "DEBIAN").mkdir()
    result = subprocess.run(
        [
            sys.executable,
            PACKAGING / "debian_control.py",
            tmp_path,
            "--version",
            "1",
            "--arch",
            "amd64",
            "--installed-kb",
            "1",
            "--depends",
            "Unpacking libfoo (1.0) ...",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 1
    assert "Depends is malformed" in result.stderr and "Unpacking libfoo" in result.stderr
    assert not (tmp_path / "DEBIAN" / "control").exists()
