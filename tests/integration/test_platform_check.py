"""The xcb plugin's system-library check (app/platform_check.py) on the real plugin and loader cache."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.platform_check import (
    Resolver,
    debian_package,
    explain,
    gui_problem,
    ldconfig_cache,
    missing_for_xcb,
    read_elf,
    uses_xcb,
    xcb_plugin,
)

REPO = Path(__file__).resolve().parents[2]


def the_plugin() -> Path:
    plugin = xcb_plugin()
    assert plugin is not None, "PySide6's libqxcb.so not found"
    return plugin


def system_without(tmp_path: Path, left_out: str) -> Path:
    """A directory that mirrors this machine's libraries (ldconfig's cache) except one soname."""
    system = tmp_path / "system"
    system.mkdir()
    for soname, paths in ldconfig_cache().items():
        if soname != left_out and not (system / soname).exists():
            (system / soname).symlink_to(paths[0])
    return system


@pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf (binutils) not installed")
def test_read_elf_agrees_with_readelf() -> None:
    plugin = the_plugin()
    qt_lib = next(p for p in (plugin.parents[2] / "lib").glob("libQt6XcbQpa.so*") if not p.is_symlink())
    for path in (plugin, qt_lib):
        info = read_elf(path)
        assert info is not None
        dynamic = subprocess.run(
            ["readelf", "-d", str(path)], capture_output=True, text=True, check=True
        ).stdout
        assert list(info.needed) == re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", dynamic)
        assert list(info.runpath) == [
            p
            for found in re.findall(r"\(RUNPATH\)\s+Library runpath: \[(.+)\]", dynamic)
            for p in found.split(":")
        ]
    assert read_elf(REPO / "pyproject.toml") is None


def test_this_machine_has_every_library_the_xcb_plugin_loads() -> None:
    """What `make` set-up guarantees (it installs them): otherwise the window cannot open here."""
    missing = missing_for_xcb(the_plugin())
    assert missing == [], explain(missing, as_root=True)


def test_a_machine_without_libxcb_icccm_is_told_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    system = system_without(tmp_path, "libxcb-icccm.so.4")
    resolver = Resolver(cache={}, default_dirs=[str(system)])
    missing = missing_for_xcb(the_plugin(), resolver)
    assert [(m.soname, m.package) for m in missing] == [("libxcb-icccm.so.4", "libxcb-icccm4")]
    message = gui_problem({"QT_QPA_PLATFORM": "xcb"}, resolver)
    assert message is not None and "libxcb-icccm.so.4" in message
    assert message.endswith("apt-get install libxcb-icccm4")
    assert gui_problem({"QT_QPA_PLATFORM": "offscreen"}, resolver) is None
    assert explain(missing, as_root=False).endswith(": sudo apt-get install libxcb-icccm4")


def test_the_command_line_check_prints_one_line_with_the_command(tmp_path: Path) -> None:
    system = system_without(tmp_path, "libxcb-keysyms.so.1")
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    result = subprocess.run(
        [sys.executable, "-m", "app.platform_check", "--system-dirs", str(system)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "libxcb-keysyms.so.1" in lines[0], result.stderr
    assert lines[0].endswith("apt-get install libxcb-keysyms1")
    healthy = subprocess.run(
        [sys.executable, "-m", "app.platform_check"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert (healthy.returncode, healthy.stderr) == (0, "")


def test_which_sessions_use_xcb() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the xcb platform exists on Linux only")
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb"})
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb:dpi=96"})
    assert not uses_xcb({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"})
    assert not uses_xcb({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"})
    assert uses_xcb({"DISPLAY": ":0"})
    assert not uses_xcb({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"})
    assert not uses_xcb({})


def test_debian_package_names() -> None:
    assert debian_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_package("libxcb-render-util.so.0") == "libxcb-render-util0"
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert debian_package("libX11-xcb.so.1") == "libx11-xcb1"
    assert debian_package("libgcc_s.so.1") == "libgcc-s1"
    assert debian_package("libglib-2.0.so.0") == "libglib2.0-0"
    assert debian_package("libz.so.1") == "zlib1g"
    assert debian_package("libm.so.6") == "libc6"
