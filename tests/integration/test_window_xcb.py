"""The development path on a real X server: `python -m app` under Xvfb with the xcb platform shows its window.

The GUI tests run offscreen; this one loads Qt's xcb plugin, with the system libraries it needs,
as `make run` does. It skips (with the reason) only when Xvfb cannot be installed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

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
