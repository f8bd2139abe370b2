"""A PDF's running headers and footers are left out of its passages' text; the header's words lead
their heading path (real PDFs, store and embedder for the end-to-end ones)."""

from __future__ import annotations

from pathlib import Path

from app.core.ingest.page import PageContent
from app.core.ingest.running import RunningLines, edge_shape, header_title, without_running_lines
from app.core.normalize import normalize_text
from app.core.qa import Folio
from tests.core.conftest import stored_chunks
from tests.pdfgen import write_pdf

BODY = [
    [
        "1. Before you start",
        "Unpack the machine and keep the box for transport.",
        "Fill the tank with fresh cold water before the first use.",
    ],
    [
        "2. Brewing",
        "Grind the beans to the size of table salt for a filter brew.",
        "Pour slowly in circles so that every ground is wetted evenly.",
    ],
    [
        "3. Cleaning",
        "Run the descaling solution through the boiler every two months.",
        "Rinse the tank twice with clean water afterwards.",
    ],
    [
        "4. Troubleshooting",
        "E7 on the display: the grinder is blocked by a small stone among the beans.",
        "Unplug the machine before you open the grinder.",
    ],
]
TITLE = "Corvo K2 Espresso Machine - Owner's Manual"


def _decided(pages: list[list[str]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    running: RunningLines[int] = RunningLines()
    decided = [d for n, lines in enumerate(pages) for d in running.add(n, lines)]
    decided += running.finish()
    assert [d.key for d in decided] == list(range(len(pages)))  # every page, in order
    return [(d.header, d.footer) for d in decided]


def test_a_header_and_a_page_number_footer_on_every_page_are_running_lines() -> None:
    pages = [[TITLE, *body, f"Page {n + 1} of 4"] for n, body in enumerate(BODY)]
    assert _decided(pages) == [((0,), (4,))] * 4


def test_odd_and_even_headers_are_found_and_body_lines_are_not() -> None:
    # a book: its title on even pages, the chapter on odd ones; a body sentence that two pages
    # share, away from the edges, is text
    shared = "Always unplug the machine first."
    pages = []
    for n, body in enumerate(BODY * 2):
        header = "A Book About Coffee" if n % 2 == 0 else "Chapter 3: Machines"
        pages.append([header, body[0], shared, body[1], body[2], str(n + 1)])
    for top, bottom in _decided(pages):
        assert top == (0,) and bottom == (5,)


def test_a_single_page_or_pages_without_repeats_have_none() -> None:
    assert _decided([[TITLE, *BODY[0], "Page 1 of 1"]]) == [((), ())]
    assert _decided([list(body) for body in BODY]) == [((), ())] * 4


def test_sentences_repeated_on_every_page_are_text_and_a_page_is_never_all_header() -> None:
    # a list of statements that differ only in their numbers: every line repeats its neighbours'
    pages = [
        [f"Section {p}: the {w} protocol handles retries on page {p}." for w in ("a", "b")] for p in range(6)
    ]
    assert _decided(pages) == [((), ())] * 6
    # short lines that repeat and are all a page holds stay too
    assert _decided([["Notes", "Page 1"], ["Notes", "Page 2"], ["Notes", "Page 3"]]) == [((), ())] * 3


def test_pages_stream_in_order_and_ocr_pages_pass_as_they_are() -> None:
    raw = ["\n".join([TITLE, *body, f"Page {n + 1} of 4"]) for n, body in enumerate(BODY)]
    read = [(PageContent(n + 1, 4, text), normalize_text(text)) for n, text in enumerate(raw)]
    # page 3 was recognised by OCR: its text is built from boxes, its lines are not known here
    read[2] = (PageContent(3, 4, read[2][1], normalized=True, ocr=True), read[2][1])
    out = list(without_running_lines(read))
    assert [page.number for page, _, _ in out] == [1, 2, 3, 4]
    for (page, text, title), (_, before) in zip(out, read, strict=True):
        assert len(text) == len(before)  # blanked, not cut: offsets hold
        if page.ocr:
            assert text == before and title == ""
        else:
            assert TITLE not in text and "Page " not in text and title == TITLE
            assert " ".join(text.split()) == " ".join(BODY[page.number - 1])


def test_shapes_and_titles_leave_page_numbers_out() -> None:
    assert edge_shape("Page 2 of 5") == edge_shape("page 3 of 5")
    assert edge_shape("Debian 新维护者手册 ii") == edge_shape("Debian 新维护者手册 iv")
    assert edge_shape("第 2 页，共 3 页") == edge_shape("第 3 页，共 3 页")
    assert header_title(["Debian 新维护者手册 26 / 57"]) == "Debian 新维护者手册"
    assert header_title(["Debian 新维护者手册 vi"]) == "Debian 新维护者手册"
    assert header_title(["Page 2 of 5"]) == "" and header_title(["第 2 页，共 3 页"]) == ""
    assert header_title(["- 12 -"]) == "" and header_title(["44"]) == ""
    assert header_title([TITLE]) == TITLE
    assert header_title(["CD player manual 3"]) == "CD player manual"  # words stay, even roman-like


def test_a_pdf_s_running_lines_leave_its_passages_and_its_header_leads_their_heading(
    small_chunks: Folio, tmp_path: Path
) -> None:
    pages = [[TITLE, *body, f"Page {n + 1} of 4"] for n, body in enumerate(BODY)]
    small_chunks.library.ingest([write_pdf(tmp_path / "k2.pdf", pages)])
    chunks = stored_chunks(small_chunks)
    assert chunks and all("Owner's Manual" not in hit.text and "Page " not in hit.text for hit in chunks)
    assert all(hit.text == hit.text.strip() for hit in chunks)  # no blanks where the lines stood
    assert all(hit.heading.startswith(TITLE) for hit in chunks)
    # nothing of the body is lost, and the chunks still point at their place on the page
    text = " ".join(hit.text for hit in chunks)
    for body in BODY:
        for line in body:
            assert line in text
    pages_text = {hit.page: hit for hit in chunks if hit.page == hit.page_end}
    assert "Troubleshooting E7 on the display" in pages_text[4].text
    assert pages_text[4].char_start > len(TITLE)  # offsets into the page as read: after the header
    # the product's name, now only in the heading path, still finds its passages (keywords, embedder)
    found = small_chunks.library.search("What does E7 mean on the Corvo K2?", 1).hits[0]
    assert found.page == 4 and "E7" in found.text and "Corvo" not in found.text


def test_a_page_number_alone_is_left_out_and_gives_no_heading(small_chunks: Folio, tmp_path: Path) -> None:
    pages = [[*body, str(n + 1)] for n, body in enumerate(BODY)]
    small_chunks.library.ingest([write_pdf(tmp_path / "plain.pdf", pages)])
    chunks = stored_chunks(small_chunks)
    assert all(not hit.text.rstrip().endswith((" 1", " 2", " 3", " 4")) for hit in chunks)
    assert all(not hit.heading.startswith(("1", "2", "3", "4")) or "." in hit.heading for hit in chunks)
