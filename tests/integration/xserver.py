"""A real X server for window tests: Xvfb on a free display, and waiting for a window by its title."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

# Debian package of each X tool the window tests use.
TOOLS = {"Xvfb": "xvfb", "xwininfo": "x11-utils"}


def ensure_tools(*names: str) -> None:
    """Install missing tools with apt-get as root; skip with the reason when that is impossible."""
    missing = [name for name in names if shutil.which(name) is None]
    if not missing:
        return
    packages = [TOOLS[name] for name in missing]
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip(f"{', '.join(missing)} missing and not root: apt-get install {' '.join(packages)}")
    command = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run(command, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, capture_output=True)
        subprocess.run(command, env=env, capture_output=True)
    still = [name for name in names if shutil.which(name) is None]
    if still:
        pytest.skip(f"could not install {', '.join(still)} ({' '.join(command)} failed)")


@contextmanager
def xvfb(screen: str = "1280x800x24") -> Iterator[str]:
    """Start Xvfb on the first free display; yield its DISPLAY (":N"); stop it afterwards."""
    ensure_tools("Xvfb", "xwininfo")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", screen, "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        with os.fdopen(read_end) as reader:
            number = reader.readline().strip()  # Xvfb writes the display number once it accepts clients
        assert number.isdigit(), f"Xvfb did not start (exit code {server.poll()})"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _xwininfo(display: str, *args: str) -> str:
    return subprocess.run(
        ["xwininfo", "-display", display, *args], capture_output=True, text=True, timeout=30
    ).stdout


def viewable_windows(display: str) -> list[str]:
    """The names of the windows that are mapped and visible on the display."""
    tree = _xwininfo(display, "-root", "-tree")
    named = re.findall(r'^\s+(0x[0-9a-f]+) "(.*)": \(', tree, flags=re.M)
    return [name for wid, name in named if "Map State: IsViewable" in _xwininfo(display, "-id", wid)]


def wait_for_window(display: str, title: str, app: subprocess.Popen[str], timeout_s: float) -> bool:
    """True once a window named `title` is shown on `display`; False if the app exits or time runs out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if title in viewable_windows(display):
            return True
        if app.poll() is not None:
            return False
        time.sleep(0.2)
    return False
