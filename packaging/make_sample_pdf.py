"""Write resources/sample.pdf: a small multi-page PDF (plain PDF syntax, Helvetica) that we own.

The self-test (`folio --self-test`) ingests it and asks about a fact that appears on one page only,
so each page carries a distinct topic. Run: `python packaging/make_sample_pdf.py [OUT]`.
The output is byte-for-byte reproducible (no timestamps).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.pdfgen import escape_text, pdf_file  # the one PDF-syntax writer, shared with the tests

TITLE = "Folio sample: notes from the coast of Varn"
WRAP = 88  # characters per line at 11 pt Helvetica on a 612 pt wide page with 50 pt margins

# (heading, paragraphs) per page. Page 3 holds the fact app/selftest.py asks about (keep them in step).
PAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "About this document",
        (
            "This short document ships with Folio. The built-in self-test reads it into a temporary "
            "library, searches it and asks one question about it, to show that the installed program, "
            "its embedding model and its language model all work on this computer without a network.",
            "The places and people described on the following pages are invented for this sample. Each "
            "page covers one topic, so that a search can be checked against the page it should find. "
            "The topics are the tide mills of the town of Varn, the lighthouse at Cape Merrow and the "
            "seabirds that nest on the cliffs west of the town.",
            "You can add this document to your own library to try Folio: ask it a question in your own "
            "words, and the answer will cite the page it came from. Remove it again at any time; the "
            "file itself is never changed.",
        ),
    ),
    (
        "The tide mills of Varn",
        (
            "The old town of Varn grinds its grain with tide mills. At high water the sea fills a walled "
            "pond through a gate that only opens inwards. When the tide falls, the trapped water is let "
            "out under a wooden wheel that turns the millstones for about four hours.",
            "Three mills still work today. The largest has a wheel of oak and elm with forty-eight "
            "paddles, and its miller sells flour to the bakeries of the harbour every Thursday. The two "
            "smaller mills grind oats and barley for the farms inland.",
            "Because the tide comes two times a day and about fifty minutes later each day, the millers "
            "keep tide tables on the wall and often work at night. A good miller can hear from the sound "
            "of the wheel when the pond is nearly empty and the stones must be lifted.",
            "The mill pond is also a safe place for young fish. In spring the town school counts the "
            "crabs and flatfish that are left in the pond when the water runs out.",
        ),
    ),
    (
        "The lighthouse at Cape Merrow",
        (
            "The lighthouse at Cape Merrow stands on a granite ledge north of Varn. The tower is "
            "thirty-one metres tall and was finished in 1893. Its first keeper, Ada Lindqvist, kept the "
            "lamp burning for thirty years and wrote a daily log of the weather.",
            "Before the tower was built, ships coming south in winter often mistook the cape for the "
            "mouth of the harbour and ran onto the rocks below it. The town paid for the tower with a "
            "tax on every barrel of herring landed at the quay, and the stone was cut from a quarry on "
            "the cape itself and carried up the ledge on carts pulled by horses.",
            "The keepers lived in a cottage at the foot of the tower with their families. They trimmed "
            "the wick, polished the lens and wound the clockwork that turned it, three times each night. "
            "Supplies came by boat once a month, and in bad winters the family kept a store of flour, "
            "salt fish and lamp oil for six weeks.",
            "The Cape Merrow lighthouse flashes once every twelve seconds, and its flash is green. No "
            "other light on this coast uses that pattern, so sailors can tell it apart at night and "
            "know that they are north of the harbour of Varn.",
            "The lens is a ring of glass prisms two metres high, made in Paris and shipped to Varn in "
            "forty crates. It floats in a bath of mercury, so that the clockwork can turn its great "
            "weight with a small falling weight, and it has never been replaced.",
            "Today the lamp is electric and works without a keeper. Its light can be seen from about "
            "twenty kilometres away in clear weather. In fog a horn sounds two short blasts every "
            "minute, and the old keeper's cottage at the foot of the tower is now a small museum.",
            "Visitors can climb the one hundred and forty steps of the tower on summer weekends. From "
            "the gallery at the top you can see the whole coast from the tide mills of Varn in the south "
            "to the islands in the north, and on a clear day the mountains far inland.",
        ),
    ),
    (
        "Seabirds of the Varn cliffs",
        (
            "Puffins nest on the western cliffs from April to August. They dig burrows in the soft turf "
            "near the cliff edge and fly out to sea to catch sand eels for their chicks.",
            "Gannets do not nest here, but large flocks of them pass the cliffs in September, diving "
            "for fish from a great height. Kittiwakes build nests of mud and grass on narrow ledges, "
            "and their calls can be heard from the path above the beach.",
            "Bird counts are kept by volunteers from the town museum. Walkers are asked to keep to the "
            "marked path between April and August, so that the burrows near the edge are not crushed.",
        ),
    ),
)


def page_lines(heading: str, paragraphs: Sequence[str]) -> list[tuple[str, str]]:
    """(font, text) lines of one page: the heading in bold, wrapped paragraphs with gaps."""
    lines: list[tuple[str, str]] = [("F2", heading), ("F1", "")]
    for paragraph in paragraphs:
        lines.extend(("F1", line) for line in textwrap.wrap(paragraph, WRAP))
        lines.append(("F1", ""))
    return lines


def content_stream(lines: Sequence[tuple[str, str]], number: int, total: int) -> bytes:
    ops = ["BT", "16 TL", "50 780 Td"]
    for font, text in lines:
        size = 15 if font == "F2" else 11
        ops.append(f"/{font} {size} Tf ({escape_text(text)}) Tj T*")
    ops.append("ET")
    ops.append(f"BT /F1 9 Tf 280 40 Td (Page {number} of {total}) Tj ET")
    return "\n".join(ops).encode("latin-1")


def build_pdf(pages: Sequence[tuple[str, Sequence[str]]], title: str) -> bytes:
    """A PDF 1.4 file: catalog, page tree, one content stream per page, two standard fonts."""
    count = len(pages)
    page_ids = [3 + 2 * i for i in range(count)]
    font_regular, font_bold, info_id = 3 + 2 * count, 4 + 2 * count, 5 + 2 * count
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] /Count {count} >>".encode(),
    ]
    for index, (heading, paragraphs) in enumerate(pages):
        stream = content_stream(page_lines(heading, paragraphs), index + 1, count)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents {page_ids[index] + 1} 0 R "
            f"/Resources << /Font << /F1 {font_regular} 0 R /F2 {font_bold} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    for base in ("Helvetica", "Helvetica-Bold"):
        objects.append(
            f"<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding /WinAnsiEncoding >>".encode()
        )
    info = f"<< /Title ({escape_text(title)}) /Author (The Folio project) /Producer (Folio) >>"
    objects.append(info.encode())
    return pdf_file(objects, f" /Info {info_id} 0 R")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1] / "resources" / "sample.pdf"
    parser.add_argument("out", type=Path, nargs="?", default=default)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(build_pdf(PAGES, TITLE))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
