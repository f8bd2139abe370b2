"""Draw the Folio icon (a page with text lines on a rounded blue square) as PNG, ICO and ICNS files.

No image library: shapes are rasterised with numpy (4x4 supersampling for smooth edges) and the
files are written by hand (PNG chunks with zlib; ICO and ICNS both hold PNG images).
Run: `python packaging/make_icon.py [OUT_DIR]` (default resources/); the output is reproducible.
"""

from __future__ import annotations

import argparse
import struct
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.float64]  # H x W x 4, straight RGBA in [0, 1]
SUPERSAMPLE = 4
BACKGROUND_TOP = (0.16, 0.42, 0.72)
BACKGROUND_BOTTOM = (0.09, 0.25, 0.50)
PAGE = (0.98, 0.98, 0.96)
FOLD = (0.80, 0.84, 0.90)
LINE = (0.55, 0.62, 0.72)
ACCENT = (0.98, 0.71, 0.18)
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256), (b"ic09", 512))


def _grid(size: int) -> tuple[Image, Image]:
    """Sample coordinates in [0, 1] units, SUPERSAMPLE x SUPERSAMPLE per pixel."""
    n = size * SUPERSAMPLE
    axis = (np.arange(n, dtype=np.float64) + 0.5) / n
    return np.meshgrid(axis, axis)  # x, y (y grows downwards)


def _rounded_rect(x: Image, y: Image, box: tuple[float, float, float, float], radius: float) -> Image:
    left, top, right, bottom = box
    cx = np.clip(x, left + radius, right - radius)
    cy = np.clip(y, top + radius, bottom - radius)
    inside = (x >= left) & (x <= right) & (y >= top) & (y <= bottom)
    return inside & ((x - cx) ** 2 + (y - cy) ** 2 <= radius**2)


def _page(x: Image, y: Image, fold: float) -> tuple[Image, Image]:
    """The sheet with its top-right corner cut off, and the folded-over triangle."""
    left, top, right, bottom = 0.27, 0.17, 0.73, 0.83
    sheet = (x >= left) & (x <= right) & (y >= top) & (y <= bottom)
    corner = (x - (right - fold)) > (y - top)  # beyond the diagonal of the top-right corner
    flap = (x >= right - fold) & (y <= top + fold) & ((x - (right - fold)) <= (y - top))
    return sheet & ~corner, flap


def draw(size: int) -> Image:
    """The icon at `size` x `size` pixels."""
    x, y = _grid(size)
    n = size * SUPERSAMPLE
    rgba = np.zeros((n, n, 4))

    def paint(mask: Image, colour: tuple[float, float, float] | Image) -> None:
        rgba[mask, :3] = colour if isinstance(colour, tuple) else colour[mask]
        rgba[mask, 3] = 1.0

    shade = y[..., None]
    gradient = np.array(BACKGROUND_TOP) * (1 - shade) + np.array(BACKGROUND_BOTTOM) * shade
    paint(_rounded_rect(x, y, (0.04, 0.04, 0.96, 0.96), 0.20), gradient)
    sheet, flap = _page(x, y, 0.12)
    paint(sheet, PAGE)
    paint(flap, FOLD)
    widths = (0.30, 0.34, 0.26, 0.34, 0.20) if size >= 48 else (0.30, 0.34, 0.22)
    step = 0.085 if size >= 48 else 0.12
    for row, width in enumerate(widths):
        top = 0.37 + row * step
        paint(_rounded_rect(x, y, (0.34, top, 0.34 + width, top + 0.035), 0.0175), LINE)
    cx, cy = 0.66, 0.74
    paint((x - cx) ** 2 + (y - cy) ** 2 <= 0.075**2, ACCENT)
    # Average each SUPERSAMPLE x SUPERSAMPLE block (premultiplied, then back to straight alpha).
    premultiplied = np.concatenate([rgba[..., :3] * rgba[..., 3:], rgba[..., 3:]], axis=2)
    blocks = premultiplied.reshape(size, SUPERSAMPLE, size, SUPERSAMPLE, 4).mean(axis=(1, 3))
    alpha = blocks[..., 3:]
    colour = np.divide(blocks[..., :3], alpha, out=np.zeros_like(blocks[..., :3]), where=alpha > 0)
    return np.concatenate([colour, alpha], axis=2)


def png_bytes(image: Image) -> bytes:
    """An 8-bit RGBA PNG."""
    height, width = image.shape[:2]
    pixels = np.round(np.clip(image, 0.0, 1.0) * 255).astype(np.uint8)
    raw = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def ico_bytes(images: dict[int, bytes]) -> bytes:
    """A Windows .ico whose entries are PNG images (supported since Windows Vista)."""
    sizes = sorted(images)
    out = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    for size in sizes:
        data = images[size]
        dim = 0 if size >= 256 else size  # 0 means 256
        out += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return out + b"".join(images[size] for size in sizes)


def icns_bytes(images: dict[int, bytes]) -> bytes:
    """A macOS .icns with PNG entries (icp4 … ic09)."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(images[size])) + images[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1] / "resources"
    parser.add_argument("out", type=Path, nargs="?", default=default, help="folder for folio.png/.ico/.icns")
    parser.add_argument(
        "--hicolor", type=Path, default=None, help="also write DIR/<n>x<n>/apps/folio.png (freedesktop sizes)"
    )
    args = parser.parse_args(argv)
    out: Path = args.out
    images = {size: png_bytes(draw(size)) for size in PNG_SIZES}
    out.mkdir(parents=True, exist_ok=True)
    (out / "folio.png").write_bytes(images[256])
    (out / "folio.ico").write_bytes(ico_bytes({size: images[size] for size in ICO_SIZES}))
    (out / "folio.icns").write_bytes(icns_bytes(images))
    print(f"wrote {out / 'folio.png'}, folio.ico and folio.icns")
    if args.hicolor is not None:
        for size in PNG_SIZES:
            target = args.hicolor / f"{size}x{size}" / "apps" / "folio.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(images[size])
        print(f"wrote {len(PNG_SIZES)} sizes under {args.hicolor}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
