"""Chinese on screen: at start-up, the system's Simplified Chinese font, else the one Folio ships."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QTextLayout
from PySide6.QtWidgets import QApplication

from app.core import paths

# Hanzi, full-width punctuation and Latin: what a question in Chinese looks like.
SAMPLE = "文档里说了什么？中文问答，第3页。"
FONT_SUFFIXES = (".ttc", ".ttf", ".otf")
INSTALL_HINT = "sudo apt-get install fonts-wqy-microhei"
PREFIX = "folio fonts:"


@dataclass(frozen=True)
class CjkFont:
    """The font that draws Chinese: its family and where it came from ("system", "bundled", "none")."""

    family: str
    source: str
    path: Path | None = None

    @property
    def found(self) -> bool:
        return self.source != "none"


def system_cjk_families() -> list[str]:
    """The installed families that claim Simplified Chinese (fontconfig's lang data on Linux)."""
    return list(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def ensure_cjk_font(fonts_dir: Path | None = None) -> CjkFont:
    """Register the bundled font only when the system has none for Simplified Chinese.

    Qt falls back glyph by glyph to a registered application font, so every widget, whatever its
    family, draws Chinese with it; no widget font changes. Needs a QGuiApplication."""
    families = system_cjk_families()
    if families:
        return CjkFont(families[0], "system")
    folder = fonts_dir or paths.fonts_dir()
    candidates = sorted(p for p in folder.glob("*") if p.suffix.lower() in FONT_SUFFIXES)
    for path in candidates:
        font_id = QFontDatabase.addApplicationFont(str(path))
        added = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if added:
            return CjkFont(added[0], "bundled", path)
    return CjkFont("", "none")


def glyph_report(font: QFont, text: str = SAMPLE) -> tuple[int, set[str]]:
    """(characters of `text` drawn as boxes, the families that draw it) in `font`, after Qt's fallback."""
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    missing, families = 0, set()
    for run in layout.glyphRuns():
        raw = run.rawFont()
        indexes = list(run.glyphIndexes())
        if not raw.isValid():  # Qt's box engine: no font at all
            missing += len(indexes)
            continue
        families.add(raw.familyName())
        missing += sum(1 for index in indexes if index == 0)  # glyph 0 is .notdef: the box
    return missing, families


def missing_font_message() -> str:
    """What the window says instead of drawing boxes when no font for Chinese can be had."""
    return QApplication.translate(
        "Folio",
        "No font for Chinese is installed, so Chinese text cannot be shown. Install one with: {0}",
    ).format(INSTALL_HINT)


def run_font_check(argv: Sequence[str]) -> int:
    """`folio --check-fonts`: register the font as the window does, draw the sample, print one line."""
    from PySide6.QtWidgets import QLabel

    app = QApplication.instance() or QApplication(list(argv) or ["folio"])
    assert isinstance(app, QApplication)
    chosen = ensure_cjk_font()
    label = QLabel(SAMPLE)
    label.show()  # a real window on the platform in use (xcb under X)
    drawn = not label.grab().isNull()
    fonts = {"default": app.font(), "monospace": QFont("DejaVu Sans Mono")}
    bold = QFont(app.font())
    bold.setBold(True)
    fonts["bold"] = bold
    results = {name: glyph_report(font) for name, font in fonts.items()}
    missing = sum(count for count, _ in results.values())
    families = sorted(set().union(*(used for _, used in results.values())))
    where = f"{chosen.source}: {chosen.path}" if chosen.path else chosen.source
    ok = chosen.found and drawn and missing == 0
    line = (
        f"{PREFIX} {'PASS' if ok else 'FAIL'} · platform {app.platformName()} · Chinese font "
        f"{chosen.family or 'none'} ({where}) · sample of {len(SAMPLE)} characters drawn with "
        f"{', '.join(families) or 'no font'} · {missing} boxes in {len(fonts)} fonts"
    )
    if not chosen.found:
        line += f" · {INSTALL_HINT}"
    label.close()
    print(line, file=sys.stdout, flush=True)
    return 0 if ok else 1
