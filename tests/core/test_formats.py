"""DOCX, HTML and EPUB: read into sections, ingested, searched and cited by heading path and paragraph."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from app.core.ingest.page import PageContent
from app.core.ingest.read_base import UnreadableFile
from app.core.ingest.readers import read_pages
from app.core.ingest.sections import SectionBuilder, paragraph_at, section_locator
from app.core.passage import Hit
from app.core.prompt.citations import Citation, parse_citations
from app.core.prompt.system import passage_label
from app.core.qa import Folio
from tests.docgen import write_docx, write_epub

HTML_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Lighthouse keeping</title>
<script>var tracking = "zebra telemetry beacon";</script><style>.x{color:red}</style></head>
<body>
<header><a href="/">Home</a> <a href="/shop">Shop for zebra mugs</a></header>
<nav><ul><li><a href="/a">Zebra archive</a></li><li><a href="/b">Zebra newsletter signup</a></li></ul></nav>
<main>
<article>
<header><h1>Lighthouse keeping</h1></header>
<p>Keepers trimmed the <b>lamp wicks</b> every evening before sunset.</p>
<h2>The fog signal</h2>
<p>In thick fog the keeper sounded the diaphone every thirty seconds.</p>
<table><tr><th>Station</th><th>Range</th></tr><tr><td>North Rock</td><td>22 nautical miles</td></tr></table>
</article>
<aside>Sponsored: zebra-striped umbrellas on sale.</aside>
</main>
<footer>Copyright zebra corporation. Privacy policy.</footer>
</body></html>
"""

DOCX_BLOCKS: list[tuple[str, object]] = [
    ("p", "Field guide to alpine plants, second edition."),
    ("h1", "Flowers"),
    ("p", "Edelweiss grows on limestone above two thousand metres."),
    ("h2", "Gentians"),
    ("p", "The trumpet gentian opens its deep blue flowers in early summer."),
    ("p", "Gentian roots are used to make a bitter liqueur."),
    ("h1", "Trees"),
    ("p", "The Swiss stone pine survives winters at the tree line."),
    ("table", [["Tree", "Highest site"], ["Larch", "2400 metres"], ["Stone pine", "2500 metres"]]),
]


def _pages(path: Path) -> list[PageContent]:
    return [event for event in read_pages(path) if isinstance(event, PageContent)]


def test_sections_keep_heading_paths_and_paragraph_offsets() -> None:
    builder = SectionBuilder()
    builder.paragraph("Preface text.")
    builder.heading(1, "Guide")
    builder.heading(2, "Install")
    builder.paragraph("Run the installer.")
    builder.paragraph("安装完成后重启。")
    builder.heading(2, "Use")
    builder.paragraph("Open a file.")
    pages = builder.pages()
    assert [(p.number, p.count, p.section) for p in pages] == [
        (1, 3, ""),
        (2, 3, "Guide › Install"),
        (3, 3, "Guide › Use"),
    ]
    install = pages[1]
    assert install.text == "Install Run the installer. 安装完成后重启。"
    assert [install.text[start:] for start in install.paragraphs] == [
        "Run the installer. 安装完成后重启。",
        "安装完成后重启。",
    ]
    assert paragraph_at(install.paragraphs, 0) == 0  # the heading itself
    assert paragraph_at(install.paragraphs, install.text.index("安装")) == 2
    assert section_locator("Guide › Install", 2) == "Guide › Install, ¶ 2"
    assert section_locator("", 3) == "¶ 3"
    assert section_locator("Guide", 0) == "Guide"


def test_html_reader_drops_navigation_boilerplate(tmp_path: Path) -> None:
    page = tmp_path / "lighthouse.html"
    page.write_text(HTML_PAGE, encoding="utf-8")
    pages = _pages(page)
    text = " ".join(p.text for p in pages)
    assert "zebra" not in text.lower()  # script, header links, nav, aside, footer: all gone
    assert [p.section for p in pages] == ["Lighthouse keeping", "Lighthouse keeping › The fog signal"]
    assert "lamp wicks every evening" in pages[0].text
    assert "Station | Range" in pages[1].text and "North Rock | 22 nautical miles" in pages[1].text


def test_docx_reader_reads_headings_paragraphs_and_tables(tmp_path: Path) -> None:
    pages = _pages(write_docx(tmp_path / "alpine.docx", DOCX_BLOCKS))
    assert [p.section for p in pages] == ["", "Flowers", "Flowers › Gentians", "Trees"]
    assert pages[3].text.endswith("Tree | Highest site Larch | 2400 metres Stone pine | 2500 metres")
    gentians = pages[2]
    second = gentians.text.index("Gentian roots")
    assert paragraph_at(gentians.paragraphs, second) == 2


def test_epub_reader_reads_chapters_in_spine_order(tmp_path: Path) -> None:
    book = write_epub(
        tmp_path / "voyage.epub",
        "The voyage",
        [
            ("Departure", "<p>The ship left Lisbon at dawn with a cargo of cork.</p>"),
            ("Arrival", "<h1>Arrival</h1><p>After forty days the crew sighted the coast of Brazil.</p>"),
        ],
    )
    pages = _pages(book)
    assert [p.section for p in pages] == ["Departure", "Arrival"]
    assert "cargo of cork" in pages[0].text and "coast of Brazil" in pages[1].text


def _cite(hit: Hit) -> Citation:
    citations, invalid = parse_citations("It says so [1].", [hit])
    assert not invalid
    return citations[0]


def test_docx_html_epub_are_ingested_searched_and_cited_by_section(folio: Folio, tmp_path: Path) -> None:
    docx_path = write_docx(tmp_path / "alpine.docx", DOCX_BLOCKS)
    html_path = tmp_path / "lighthouse.html"
    html_path.write_text(HTML_PAGE, encoding="utf-8")
    epub_path = write_epub(
        tmp_path / "voyage.epub",
        "The voyage",
        [
            ("Departure", "<p>The ship left Lisbon at dawn with a cargo of cork.</p>"),
            ("Arrival", "<h1>Arrival</h1><p>After forty days the crew sighted the coast of Brazil.</p>"),
        ],
    )
    report = folio.library.ingest([docx_path, html_path, epub_path])
    assert [(f.document, f.status) for f in report.files] == [
        ("alpine.docx", "added"),
        ("lighthouse.html", "added"),
        ("voyage.epub", "added"),
    ]
    sections = {d.name: d.pages for d in folio.library.documents()}
    assert sections == {"alpine.docx": 4, "lighthouse.html": 2, "voyage.epub": 2}

    hit = folio.library.search("Which gentian has deep blue flowers?", 1).hits[0]
    assert hit.document == "alpine.docx" and hit.page == 3
    assert hit.section.startswith("Flowers › Gentians")
    citation = _cite(hit)
    assert citation.section == hit.section and Citation.from_json(citation.to_json()) == citation
    assert passage_label(hit) == f"alpine.docx, {hit.section}"
    assert "p." not in passage_label(hit)

    table_hit = folio.library.search("How high does the larch grow?", 1).hits[0]
    assert table_hit.document == "alpine.docx" and table_hit.section.startswith("Trees")

    fog = folio.library.search("How often was the diaphone sounded in fog?", 1).hits[0]
    assert fog.document == "lighthouse.html" and fog.section.startswith("Lighthouse keeping › The fog signal")
    boilerplate = folio.library.search("zebra newsletter umbrellas telemetry", 5).hits
    assert not [h for h in boilerplate if "zebra" in h.text.lower()]

    brazil = folio.library.search("When did the crew see Brazil?", 1).hits[0]
    assert brazil.document == "voyage.epub" and brazil.page == 2 and brazil.section.startswith("Arrival")
    layer = folio.library.store.page_layer(brazil.path, brazil.page)
    assert layer is not None and not layer.ocr
    assert layer.text[brazil.char_start : brazil.char_end] == brazil.text
    assert folio.library.verify().ok


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("broken.docx", b"PK\x03\x04 not really a zip", "not a readable DOCX: "),
        ("locked.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "password protected"),
        ("empty.html", b"   \n", "no text"),
        ("broken.epub", b"PK\x03\x04 not really a zip", "not a readable EPUB: "),
    ],
)
def test_corrupt_files_fail_alone_with_a_reason(
    folio: Folio, tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    bad = tmp_path / name
    bad.write_bytes(data)
    good = write_docx(tmp_path / "good.docx", [("h1", "Note"), ("p", "The meeting moved to Thursday.")])
    report = folio.library.ingest([bad, good])
    outcome = {f.document: f for f in report.files}
    assert outcome[name].status == "failed" and str(outcome[name].error).startswith(reason)
    assert outcome["good.docx"].status == "added"
    assert [d.name for d in folio.library.documents()] == ["good.docx"]


def test_epub_without_spine_or_with_drm_says_why(tmp_path: Path) -> None:
    book = write_epub(tmp_path / "book.epub", "Book", [("One", "<p>Text of chapter one.</p>")])
    locked = tmp_path / "locked.epub"
    with zipfile.ZipFile(book) as source, zipfile.ZipFile(locked, "w") as target:
        for item in source.infolist():
            target.writestr(item, source.read(item))
        target.writestr(
            "META-INF/encryption.xml",
            '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
            '<enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>'
            '<enc:CipherData><enc:CipherReference URI="OEBPS/chapter1.xhtml"/></enc:CipherData>'
            "</enc:EncryptedData></encryption>",
        )
    with pytest.raises(UnreadableFile, match="password protected"):
        _pages(locked)
