"""Chunks carry the headings they sit under and a flag for tables of contents (real PDFs, store, embedder)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.ingest.page import PageContent
from app.core.ingest.structure import DocumentStructure
from app.core.passage import ChunkDraft
from app.core.qa import Folio
from app.core.services import build_services
from app.core.store.database import STORE_FILE
from app.core.store.schema import SCHEMA_VERSION
from tests.conftest import PDF_SAMPLES
from tests.core.conftest import stored_chunks
from tests.pdfgen import write_outlined_pdf, write_pdf

CONTENTS = [
    "Contents",
    "1 Brewing . . . . . . . . . . . . . . 2",
    "1.1 Grinding the beans . . . . . . . . 2",
    "1.2 Water temperature . . . . . . . . 2",
    "2 Cleaning . . . . . . . . . . . . . . 3",
    "2.1 Descaling the boiler . . . . . . . 3",
]
BREWING = [
    "Grind the beans to the size of table salt for a filter brew.",
    "Water just off the boil, near 94 degrees, draws the best flavour from the grounds.",
    "Pour slowly in circles so that every ground is wetted evenly.",
    "A brew of four minutes suits a medium roast; darker roasts want less.",
]
CLEANING = [
    "Run the descaling solution through the boiler every two months.",
    "Rinse the tank twice with clean water afterwards.",
    "Wipe the steam wand after each use so that milk does not dry on it.",
    "Empty the drip tray daily and wash it with warm soapy water.",
]
OUTLINE = [
    (1, "Brewing", 1),
    (2, "Grinding the beans", 1),
    (1, "Cleaning", 2),
    (2, "Descaling the boiler", 2),
]


def test_a_pdf_outline_gives_each_chunk_its_heading_path(small_chunks: Folio, tmp_path: Path) -> None:
    pdf = write_outlined_pdf(tmp_path / "guide.pdf", [CONTENTS, BREWING, CLEANING], OUTLINE)
    small_chunks.library.ingest([pdf])
    by_page: dict[int, set[tuple[str, bool]]] = {}
    for hit in stored_chunks(small_chunks):
        if hit.page == hit.page_end:
            by_page.setdefault(hit.page, set()).add((hit.heading, hit.contents))
    assert by_page == {
        1: {("", True)},
        2: {("Brewing › Grinding the beans", False)},
        3: {("Cleaning › Descaling the boiler", False)},
    }


def test_the_contents_page_is_kept_but_ranked_below_the_page_it_points_to(
    small_chunks: Folio, tmp_path: Path
) -> None:
    small_chunks.library.ingest([write_pdf(tmp_path / "guide.pdf", [CONTENTS, BREWING, CLEANING])])
    assert any(hit.contents for hit in stored_chunks(small_chunks))  # kept: whole-document reads it
    hits = small_chunks.library.search("Descaling the boiler", 5).hits
    assert hits[0].page == 3 and not hits[0].contents
    ranks = [n for n, hit in enumerate(hits) if hit.contents]
    assert all(n > 0 for n in ranks)


def test_the_keyword_legs_and_the_embedder_see_the_heading(small_chunks: Folio, tmp_path: Path) -> None:
    # "Kettle" appears only in a bookmark's title: the chunks under it are found by it
    outline = [(1, "Kettle care", 2), (2, "Descaling the boiler", 2)]
    pdf = write_outlined_pdf(tmp_path / "guide.pdf", [CONTENTS, BREWING, CLEANING], outline)
    small_chunks.library.ingest([pdf])
    hit = small_chunks.library.search("kettle", 1).hits[0]
    assert hit.page == 3 and hit.heading == "Kettle care › Descaling the boiler"
    assert "kettle" not in hit.text.lower()


def test_numbered_headings_of_a_text_file_make_its_heading_paths(folio: Folio, tmp_path: Path) -> None:
    text = tmp_path / "faq.txt"
    text.write_text(
        "Chapter 2. Getting Debian\n\n2.1. Where can I get the installation images?\n\n"
        "From the mirrors listed on the web site, or on a DVD bought from a vendor.\n\n"
        "2.2. How do I install it from a USB stick?\n\n"
        "Write the image to the stick with cp, then boot the computer from it.\n",
        encoding="utf-8",
    )
    folio.library.ingest([text])
    hit = folio.library.search("boot the computer from the stick", 1).hits[0]
    assert hit.heading.startswith("Chapter 2. Getting Debian › 2.")


MARKDOWN = """# Espresso guide

Some words about this guide and the machine it is written for.

## Cleaning

{cleaning}

```sh
# not a heading: a shell comment in a code block
descale --weeks 8
```

Or, indented as code:

    # descale --weeks 8 --now

## Brewing ##

{brewing}
"""


def test_hash_headings_of_a_markdown_file_make_heading_paths_without_the_marks(
    small_chunks: Folio, tmp_path: Path
) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text(
        MARKDOWN.format(cleaning="\n".join(CLEANING * 2), brewing="\n".join(BREWING * 2)), encoding="utf-8"
    )
    small_chunks.library.ingest([guide])
    chunks = stored_chunks(small_chunks)
    headings = [hit.heading for hit in chunks]
    assert not any("#" in heading or "descale" in heading for heading in headings)
    assert {"Espresso guide", "Espresso guide › Cleaning", "Espresso guide › Brewing"} <= set(headings)
    # Several chunks share one heading path, and each sits under the heading it follows
    assert headings.count("Espresso guide › Cleaning") >= 2
    assert headings.count("Espresso guide › Brewing") >= 2
    for hit in chunks:  # a chunk is filed under the heading in effect at its middle
        if hit.text.startswith("Empty the drip tray"):
            assert hit.heading == "Espresso guide › Cleaning"
        if hit.text.startswith("A brew of four minutes"):
            assert hit.heading == "Espresso guide › Brewing"
    # The keyword legs see the heading: a word only the heading holds finds its chunks
    found = small_chunks.library.search("Brewing", 3).hits
    assert found[0].heading == "Espresso guide › Brewing"


def test_hash_lines_of_a_plain_text_file_are_not_headings(small_chunks: Folio, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text(
        "\n".join(CLEANING * 2) + "\n\n# apt-get install descaler\n\n" + "\n".join(BREWING * 2) + "\n",
        encoding="utf-8",
    )
    small_chunks.library.ingest([notes])
    assert not any("apt-get" in hit.heading for hit in stored_chunks(small_chunks))
    assert any("apt-get install descaler" in hit.text for hit in stored_chunks(small_chunks))


def test_a_real_pdf_with_bookmarks_gets_heading_paths(folio: Folio) -> None:
    folio.library.ingest([PDF_SAMPLES / "006-pdflatex-outline" / "pdflatex-outline.pdf"])
    assert any(hit.heading for hit in stored_chunks(folio))


def test_a_library_from_before_headings_opens_and_searches(
    library_dir: Path, embedder: Embedder, tmp_path: Path
) -> None:
    folio = build_services(Settings(chunk_tokens=40, chunk_overlap_tokens=0), library_dir, embedder=embedder)
    folio.library.ingest([write_pdf(tmp_path / "guide.pdf", [CONTENTS, BREWING, CLEANING])])
    folio.close()
    db = sqlite3.connect(library_dir / STORE_FILE)  # back to schema version 2
    db.execute("ALTER TABLE chunks DROP COLUMN heading")
    db.execute("ALTER TABLE chunks DROP COLUMN contents")
    db.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    db.commit()
    db.close()

    reopened = build_services(
        Settings(chunk_tokens=40, chunk_overlap_tokens=0), library_dir, embedder=embedder
    )
    hits = reopened.library.search("How often is the boiler descaled?", 3).hits
    # nothing is marked until it is re-indexed: the contents page may come first, as before
    assert 3 in [hit.page for hit in hits] and all(not hit.contents and hit.heading == "" for hit in hits)
    assert reopened.library.store.meta("schema_version") == SCHEMA_VERSION
    assert reopened.library.verify().ok
    reopened.close()


def test_the_structure_of_pages_marks_drafts() -> None:
    structure = DocumentStructure()
    first = "Contents\n1.1 Setup . . . . . 2\n1.2 Use . . . . . 3\n"
    second = "1.1 Setup\nPlug the unit in. Wait for the green light.\n1.2 Use\nPress start."
    structure.add_page(PageContent(1, 2, first), " ".join(first.split()))
    normalized = " ".join(second.split())
    structure.add_page(PageContent(2, 2, second), normalized)
    toc = ChunkDraft("…", 1, 0, 1, len(" ".join(first.split())), 10)
    assert structure.mark(toc).contents
    use = normalized.index("1.2 Use")
    assert structure.mark(ChunkDraft("…", 2, use, 2, len(normalized), 4)).heading == "1.2 Use"
    assert structure.mark(ChunkDraft("…", 2, 0, 2, use - 1, 8)).heading == "1.1 Setup"
    assert not structure.mark(ChunkDraft("…", 2, 0, 2, len(normalized), 12)).contents
