"""A fontconfig that sees only the fonts given: how tests stand for a machine without a CJK font."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from app.core import paths

REPO = Path(__file__).resolve().parents[1]

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
LATIN_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf")


def latin_fonts() -> list[Path]:
    """DejaVu's files (fonts-dejavu-core, which fontconfig depends on); skip when there are none."""
    found = [DEJAVU / name for name in LATIN_FONTS if (DEJAVU / name).is_file()]
    if not found:
        pytest.skip(f"no DejaVu fonts in {DEJAVU} (fonts-dejavu-core) to stand for a Latin-only machine")
    return found


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


def shipped_font_or_skip() -> Path:
    """fonts/wqy-microhei.ttc as set-up leaves it (put there now, as set-up would, when it is missing)."""
    spec = importlib.util.spec_from_file_location("cjk_font", REPO / "packaging" / "cjk_font.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        return Path(module.install_font(paths.fonts_dir()))
    except module.FontUnavailable as exc:
        pytest.skip(f"the Chinese font Folio ships cannot be had here: {exc}")
