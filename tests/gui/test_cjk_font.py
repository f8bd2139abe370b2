"""Chinese on every screen of a machine without a CJK font: the window registers the font Folio ships.

Each case runs the screens (tests/gui/cjk_screens.py) in a subprocess whose fontconfig sees only a
temporary folder: DejaVu alone (no CJK font: the shipped one must be registered, no box anywhere),
DejaVu with no shipped font either (boxes, and the window says how to get a font), and a folder
that holds a CJK font (the system's is used and nothing is registered).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.fontconfig_env import fontconfig_with, latin_fonts, shipped_font_or_skip
from tests.gui.cjk_screens import SCREENS

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shipped_font() -> Path:
    return shipped_font_or_skip()


def run_screens(tmp_path: Path, fonts: list[Path], fonts_dir: Path | None = None) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "FOLIO_", "FONTCONFIG_"))}
    env.update(fontconfig_with(tmp_path / "fontconfig", fonts))
    env.update({"QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path), "FOLIO_CONFIG_DIR": str(tmp_path)})
    if fonts_dir is not None:
        env["FOLIO_FONTS"] = str(fonts_dir)
    out = tmp_path / "screens.json"
    result = subprocess.run(
        [sys.executable, "-m", "tests.gui.cjk_screens", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(data["screens"]) == sorted(SCREENS)
    return data


def test_without_a_system_cjk_font_every_screen_draws_chinese_with_the_shipped_font(
    tmp_path: Path, shipped_font: Path
) -> None:
    data = run_screens(tmp_path, latin_fonts())
    assert data["font"] == {"family": "WenQuanYi Micro Hei", "source": "bundled"}
    assert data["typed"] == "逆变器的红色故障灯亮了怎么办？"
    boxes = {name: screen for name, screen in data["screens"].items() if screen["missing"]}
    assert boxes == {}
    for name, screen in data["screens"].items():
        assert "WenQuanYi Micro Hei" in screen["families"], (name, screen)
    assert data["problems"] == []


def test_with_no_font_to_be_had_the_window_says_so_instead_of_only_drawing_boxes(tmp_path: Path) -> None:
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    data = run_screens(tmp_path, latin_fonts(), fonts_dir=empty)
    assert data["font"]["source"] == "none"
    # the check sees boxes when there are boxes: every screen has some
    assert all(screen["missing"] > 0 for screen in data["screens"].values()), data["screens"]
    assert len(data["problems"]) == 1
    assert "No font for Chinese" in data["problems"][0]
    assert "apt-get install fonts-wqy-microhei" in data["problems"][0]


def test_a_system_cjk_font_is_used_and_nothing_is_registered(tmp_path: Path, shipped_font: Path) -> None:
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    data = run_screens(tmp_path, [*latin_fonts(), shipped_font], fonts_dir=empty)
    assert data["font"] == {"family": "WenQuanYi Micro Hei", "source": "system"}
    assert all(screen["missing"] == 0 for screen in data["screens"].values()), data["screens"]
