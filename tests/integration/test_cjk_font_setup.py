"""packaging/cjk_font.py: the shipped Chinese font is copied only when it is the pinned file, once,
with its licence; when it cannot be had, set-up warns and goes on while the bundle build stops."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from tests.fontconfig_env import shipped_font_or_skip

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cjk_font() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cjk_font", REPO / "packaging" / "cjk_font.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def system_root(root: Path, cjk_font: ModuleType, font: Path) -> Path:
    """A root laid out as fonts-wqy-microhei installs itself, holding `font`."""
    (root / cjk_font.FONT_IN_PACKAGE).parent.mkdir(parents=True)
    shutil.copy(font, root / cjk_font.FONT_IN_PACKAGE)
    (root / cjk_font.COPYRIGHT_IN_PACKAGE).parent.mkdir(parents=True)
    (root / cjk_font.COPYRIGHT_IN_PACKAGE).write_text("License: Apache-2.0 or GPL-3+ with Font exception\n")
    return root


def test_the_system_copy_is_taken_once_with_its_licence(tmp_path: Path, cjk_font: ModuleType) -> None:
    root = system_root(tmp_path / "root", cjk_font, shipped_font_or_skip())
    target = tmp_path / "fonts"
    installed = cjk_font.install_font(target, system_root=root)
    assert installed == target / "wqy-microhei.ttc" and cjk_font.matches(installed)
    assert "Apache-2.0" in (target / "wqy-microhei.copyright").read_text()
    assert sorted(p.name for p in target.iterdir()) == ["wqy-microhei.copyright", "wqy-microhei.ttc"]
    before = installed.stat().st_mtime_ns
    assert cjk_font.install_font(target, system_root=root) == installed
    assert installed.stat().st_mtime_ns == before  # already there: left alone


def test_a_file_that_is_not_the_pinned_font_is_refused(
    tmp_path: Path, cjk_font: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = tmp_path / "fake.ttc"
    fake.write_bytes(b"\0" * cjk_font.FONT_SIZE)  # the right size, the wrong bytes
    root = system_root(tmp_path / "root", cjk_font, fake)

    def no_download(work: Path) -> tuple[Path, Path]:
        raise cjk_font.FontUnavailable("`apt-get download fonts-wqy-microhei` failed: offline")

    monkeypatch.setattr(cjk_font, "_download", no_download)
    with pytest.raises(cjk_font.FontUnavailable):
        cjk_font.install_font(tmp_path / "fonts", system_root=root)
    assert not (tmp_path / "fonts" / "wqy-microhei.ttc").exists()

    monkeypatch.setattr(cjk_font, "install_font", lambda target: no_download(target))
    assert cjk_font.main([str(tmp_path / "fonts")]) == 0  # make setup goes on
    assert "apt-get install fonts-wqy-microhei" in capsys.readouterr().err
    assert cjk_font.main([str(tmp_path / "fonts"), "--required"]) == 1  # the bundle build stops
