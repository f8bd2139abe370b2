"""Chinese on every screen of a machine without a CJK font: the window registers the font Folio ships.

Each case runs the screens (tests/gui/cjk_screens.py) in a subprocess whose fontconfig sees only a
temporary folder: DejaVu alone (no CJK font: the shipped one must be registered, no box anywhere),
DejaVu with no shipped font either (boxes, and the window says how to get a font), and a folder
that holds a CJK font (the system's is used and nothing is registered).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core import paths
from tests.gui.cjk_screens import SCREENS

REPO = Path(__file__).resolve().parents[2]
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
LATIN_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf")


@pytest.fixture(scope="module")
def shipped_font() -> Path:
    """fonts/wqy-microhei.ttc as set-up leaves it (put there now when set-up has not run)."""
    spec = importlib.util.spec_from_file_location("cjk_font", REPO / "packaging" / "cjk_font.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        return Path(module.install_font(paths.fonts_dir()))
    except module.FontUnavailable as exc:
        pytest.skip(f"the Chinese font Folio ships cannot be had here: {exc}")


def fontconfig_with(folder: Path, fonts: list[Path]) -> dict[str, str]:
    """Environment variables that make fontconfig see only `fonts` (copied into `folder`)."""
    (folder / "fonts").mkdir(parents=True)
    for font in fonts:
        shutil.copy(font, folder / "fonts" / font.name)
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><dir>{folder / 'fonts'}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>\n",
        encoding="utf-8",
    )
    return {"FONTCONFIG_FILE": str(conf), "FONTCONFIG_PATH": str(folder)}


def latin_fonts() -> list[Path]:
    found = [DEJAVU / name for name in LATIN_FONTS if (DEJAVU / name).is_file()]
    if not found:
        pytest.skip(f"no DejaVu fonts in {DEJAVU} (fonts-dejavu-core) to stand for a Latin-only machine")
    return found


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
