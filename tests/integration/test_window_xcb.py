"""The development path on a real X server: `python -m app` under Xvfb with the xcb platform shows its
window, and draws Chinese there without a system CJK font (`--check-fonts`).

The GUI tests run offscreen; this one loads Qt's xcb plugin, with the system libraries it needs,
as `make run` does. It skips (with the reason) only when Xvfb cannot be installed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.fontconfig_env import fontconfig_with, latin_fonts, shipped_font_or_skip
from tests.integration.xserver import wait_for_window, xvfb

REPO = Path(__file__).resolve().parents[2]


def test_python_m_app_opens_its_window_on_xcb(tmp_path: Path) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("QT_", "FOLIO_", "WAYLAND_")) and key != "DISPLAY"
    }
    env.update(
        {
            "HOME": str(tmp_path),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "FOLIO_LIBRARY": str(tmp_path / "library"),
            "QT_QPA_PLATFORM": "xcb",
        }
    )
    with xvfb() as display:
        env["DISPLAY"] = display
        app = subprocess.Popen(
            [sys.executable, "-m", "app"],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            shown = wait_for_window(display, "Folio", app, timeout_s=120)
        finally:
            if app.poll() is None:
                os.killpg(app.pid, signal.SIGTERM)
            output, _ = app.communicate(timeout=60)
    assert shown, f"no window titled Folio on {display} with QT_QPA_PLATFORM=xcb:\n{output[-4000:]}"


def test_check_fonts_draws_chinese_on_xcb_without_a_system_cjk_font(tmp_path: Path) -> None:
    """`python -m app --check-fonts` on Xvfb (xcb) with fontconfig seeing DejaVu only: no box."""
    shipped = shipped_font_or_skip()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("QT_", "FOLIO_", "WAYLAND_", "FONTCONFIG_")) and key != "DISPLAY"
    }
    env.update(fontconfig_with(tmp_path / "fontconfig", latin_fonts()))
    env.update({"HOME": str(tmp_path), "QT_QPA_PLATFORM": "xcb"})
    with xvfb() as display:
        env["DISPLAY"] = display
        result = subprocess.run(
            [sys.executable, "-m", "app", "--check-fonts"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    line = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr[-4000:]}"
    assert line.startswith("folio fonts: PASS · platform xcb"), line
    assert f"WenQuanYi Micro Hei (bundled: {shipped})" in line and "· 0 boxes" in line, line
