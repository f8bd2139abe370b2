"""Write the eval set's generated PDFs (benchmarks/eval/docs/) from texts_en.py and texts_zh.py.

Deterministic: the same texts give the same bytes. English pages use Helvetica (tests/pdfgen.py);
Chinese pages use the predefined Adobe-GB1 font STSong-Light with the UniGB-UCS2-H encoding, which
pypdf decodes to Unicode without an embedded font file (viewers substitute a system Song face).

Usage: .venv/bin/python benchmarks/eval/make_docs.py
"""

from __future__ import annotations

import sys
import textwrap
import unicodedata
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.eval import distractors_en, texts_en, texts_zh  # noqa: E402
from benchmarks.eval.texts_en import Document  # noqa: E402
from tests.pdfgen import pdf_file, write_pdf  # noqa: E402

DOCS_DIR = Path(__file__).resolve().parent / "docs"
LATIN_WIDTH = 88  # characters per line in 11 pt Helvetica on the 612 pt wide page
CJK_WIDTH = 40.0  # full-width characters per line in 11 pt on the 595 pt wide page
CJK_LINE_HEIGHT = 17
ALL_DOCUMENTS = (
    (texts_en.DOCUMENTS, False),
    (distractors_en.DISTRACTORS, False),
    (texts_zh.DOCUMENTS, True),
    (texts_zh.DISTRACTORS, True),
)


def latin_lines(title: str, page: Sequence[str], number: int, count: int) -> list[str]:
    """One English page: a running head, the paragraphs wrapped, a page number at the foot."""
    lines = [f"{title}", ""]
    for paragraph in page:
        lines.extend(textwrap.wrap(paragraph, LATIN_WIDTH) or [""])
        lines.append("")
    lines.append(f"Page {number} of {count}")
    return lines


def _char_width(char: str) -> float:
    return 1.0 if unicodedata.east_asian_width(char) in ("W", "F") else 0.5


def wrap_cjk(paragraph: str, width: float = CJK_WIDTH) -> list[str]:
    """Cut a Chinese paragraph into lines of at most `width` full-width characters, never inside
    a run of Latin letters or digits."""
    tokens: list[str] = []
    for char in paragraph:
        if tokens and char.isascii() and not char.isspace() and tokens[-1][-1:].isascii():
            tokens[-1] += char
        else:
            tokens.append(char)
    lines: list[str] = []
    current, used = "", 0.0
    for token in tokens:
        size = sum(_char_width(c) for c in token)
        if used + size > width and current:
            lines.append(current.rstrip())
            current, used = "", 0.0
            if token == " ":
                continue
        current += token
        used += size
    if current.strip():
        lines.append(current.rstrip())
    return lines


def _cjk_content(lines: Sequence[str]) -> bytes:
    ops = ["BT", "/F1 11 Tf", f"{CJK_LINE_HEIGHT} TL", "50 790 Td"]
    for line in lines:
        ops.append(f"<{line.encode('utf-16-be').hex().upper()}> Tj T*")
    ops.append("ET")
    return "\n".join(ops).encode("ascii")


def write_cjk_pdf(path: Path, pages: Sequence[Sequence[str]]) -> Path:
    """A PDF whose page i shows the lines pages[i] in STSong-Light (UniGB-UCS2-H)."""
    n_pages = len(pages)
    page_ids = [3 + 2 * i for i in range(n_pages)]
    font_id = 3 + 2 * n_pages
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode(),
    ]
    for i, lines in enumerate(pages):
        stream = _cjk_content(lines)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {page_ids[i] + 1} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(
        f"<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H "
        f"/DescendantFonts [{font_id + 1} 0 R] >>".encode()
    )
    objects.append(
        f"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light "
        f"/CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> "
        f"/FontDescriptor {font_id + 2} 0 R /DW 1000 /W [1 95 500] >>".encode()
    )
    objects.append(
        b"<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] "
        b"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>"
    )
    path.write_bytes(pdf_file(objects))
    return path


def cjk_lines(title: str, page: Sequence[str], number: int, count: int) -> list[str]:
    lines = [title, ""]
    for paragraph in page:
        lines.extend(wrap_cjk(paragraph))
        lines.append("")
    lines.append(f"第 {number} 页，共 {count} 页")
    return lines


def write_document(name: str, document: Document, cjk: bool, out_dir: Path) -> Path:
    title, pages = document
    render = cjk_lines if cjk else latin_lines
    laid_out = [render(title, page, i, len(pages)) for i, page in enumerate(pages, start=1)]
    return (write_cjk_pdf if cjk else write_pdf)(out_dir / name, laid_out)


def main() -> None:
    DOCS_DIR.mkdir(parents=True, exist_ok=True)
    for documents, cjk in ALL_DOCUMENTS:
        for name, document in documents.items():
            path = write_document(name, document, cjk, DOCS_DIR)
            print(f"{path.relative_to(REPO)}: {len(document[1])} pages, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
