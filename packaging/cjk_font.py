"""Put the Chinese font Folio ships (WenQuanYi Micro Hei, Debian's fonts-wqy-microhei) into a folder.

Set-up and the bundle build only (never at run time). The font comes from the system's copy when
fonts-wqy-microhei is installed, else from `apt-get download fonts-wqy-microhei` unpacked with
`dpkg-deb -x` (no root needed, nothing installed; as root, `apt-get update` first when the package
lists lack it). The file must match its pinned size and SHA-256; it is moved into place with
Debian's copyright file beside it, so the licence travels with the font. Needs only the standard
library.

    python packaging/cjk_font.py fonts              # make setup: a warning when it cannot be had
    python packaging/cjk_font.py fonts --required   # build_deb.sh: exit 1 when it cannot be had
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = "fonts-wqy-microhei"
FONT_FILE = "wqy-microhei.ttc"
COPYRIGHT_FILE = "wqy-microhei.copyright"
# The file of fonts-wqy-microhei 0.2.0-beta-3.1 (Debian 12): "WenQuanYi Micro Hei" and its Mono face.
FONT_SIZE = 5_177_387
FONT_SHA256 = "2420e8078af796b19a3f6ef13de527a1a91c1e7171eea115926c614ced1009b3"
FONT_IN_PACKAGE = Path("usr/share/fonts/truetype/wqy") / FONT_FILE
COPYRIGHT_IN_PACKAGE = Path("usr/share/doc") / PACKAGE / "copyright"


class FontUnavailable(Exception):
    """The font could not be had here; the message says why and what to run."""


def matches(path: Path) -> bool:
    """True when `path` is the pinned font file (size first: cheap)."""
    if not path.is_file() or path.stat().st_size != FONT_SIZE:
        return False
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest() == FONT_SHA256


def _from_system(root: Path) -> tuple[Path, Path] | None:
    font, copyright_file = root / FONT_IN_PACKAGE, root / COPYRIGHT_IN_PACKAGE
    return (font, copyright_file) if matches(font) and copyright_file.is_file() else None


def _download(work: Path) -> tuple[Path, Path]:
    """apt-get download the package into `work` and unpack it there; (font, copyright)."""
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise FontUnavailable("apt-get and dpkg-deb are needed to fetch it (not a Debian system?)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}

    def fetch() -> subprocess.CompletedProcess[str]:
        command = ["apt-get", "download", PACKAGE]
        return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=600)

    fetched = fetch()
    if fetched.returncode != 0 and os.geteuid() == 0:  # a fresh machine has no package lists yet
        subprocess.run(["apt-get", "update"], env=env, capture_output=True, timeout=600)
        fetched = fetch()
    debs = sorted(work.glob(f"{PACKAGE}_*.deb"))
    if fetched.returncode != 0 or not debs:
        reason = (fetched.stderr.strip().splitlines() or ["no .deb"])[-1]
        raise FontUnavailable(f"`apt-get download {PACKAGE}` failed: {reason}")
    unpacked = work / "unpacked"
    subprocess.run(["dpkg-deb", "-x", str(debs[-1]), str(unpacked)], check=True, timeout=600)
    found = _from_system(unpacked)
    if found is None:
        raise FontUnavailable(f"{debs[-1].name} does not hold the pinned {FONT_FILE} (size and SHA-256)")
    return found


def install_font(target: Path, system_root: Path = Path("/")) -> Path:
    """The pinned font in `target` (left alone when already there); raises FontUnavailable."""
    installed = target / FONT_FILE
    if matches(installed) and (target / COPYRIGHT_FILE).is_file():
        return installed
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="folio-font-", dir=target) as tmp:
        work = Path(tmp)
        os.chmod(work, 0o755)  # apt's sandbox user (_apt) writes the download here
        font, copyright_file = _from_system(system_root) or _download(work)
        staged = work / FONT_FILE
        shutil.copyfile(font, staged)
        shutil.copyfile(copyright_file, target / COPYRIGHT_FILE)
        if not matches(staged):
            raise FontUnavailable(f"the copy of {font} does not match its SHA-256")
        staged.replace(installed)
    return installed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cjk_font.py", description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path, help="the folder to put the font in (fonts/)")
    parser.add_argument("--required", action="store_true", help="exit 1 when the font cannot be had")
    args = parser.parse_args(argv)
    try:
        path = install_font(args.target)
    except FontUnavailable as exc:
        print(
            f"cjk_font.py: the Chinese font could not be put in {args.target}: {exc}. "
            f"Folio then draws Chinese only with a system font: apt-get install {PACKAGE}",
            file=sys.stderr,
        )
        return 1 if args.required else 0
    print(f"== Chinese font: {path} ({FONT_SIZE / 1e6:.1f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
