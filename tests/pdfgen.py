"""Write small real PDFs (Helvetica text, one or more pages, optional encryption) for tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def escape_text(text: str) -> str:
    """A string literal's body in PDF syntax."""
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _content(lines: Sequence[str]) -> bytes:
    ops = ["BT", "/F1 11 Tf", "14 TL", "50 780 Td"]
    for line in lines:
        ops.append(f"({escape_text(line)}) Tj T*")
    ops.append("ET")
    return "\n".join(ops).encode("latin-1")


def write_pdf(path: Path, pages: Sequence[Sequence[str]]) -> Path:
    """A PDF whose page i shows the lines pages[i] (Latin-1 text), in Helvetica."""
    objects: list[bytes] = []
    n_pages = len(pages)
    page_ids = [3 + 2 * i for i in range(n_pages)]
    font_id = 3 + 2 * n_pages
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, lines in enumerate(pages):
        stream = _content(lines)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents {page_ids[i] + 1} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    path.write_bytes(pdf_file(objects))
    return path


def pdf_file(objects: Sequence[bytes], trailer_extra: str = "") -> bytes:
    """A complete PDF file from its numbered objects (object 1 is the catalog): header, bodies,
    cross-reference table and trailer."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    trailer = f"<< /Size {len(objects) + 1} /Root 1 0 R{trailer_extra} >>"
    out += f"trailer\n{trailer}\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_encrypted_pdf(path: Path, pages: Sequence[Sequence[str]], password: str = "secret") -> Path:
    """The same document, AES-encrypted with a user password (pypdf + cryptography)."""
    import pypdf

    plain = write_pdf(path.with_suffix(".plain.pdf"), pages)
    writer = pypdf.PdfWriter(clone_from=str(plain))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="AES-256")
    with path.open("wb") as handle:
        writer.write(handle)
    plain.unlink()
    return path


def write_outlined_pdf(
    path: Path, pages: Sequence[Sequence[str]], outline: Sequence[tuple[int, str, int]]
) -> Path:
    """The same document with bookmarks: (depth from 1, title, 0-based page) in reading order, a
    bookmark of depth d nested under the last one of depth d - 1 (pypdf's writer)."""
    import pypdf

    plain = write_pdf(path.with_suffix(".plain.pdf"), pages)
    writer = pypdf.PdfWriter(clone_from=str(plain))
    parents: dict[int, object] = {}
    for depth, title, page in outline:
        parents[depth] = writer.add_outline_item(title=title, page_number=page, parent=parents.get(depth - 1))
    with path.open("wb") as handle:
        writer.write(handle)
    plain.unlink()
    return path
