"""Citation markers: [1], [1, 3], [1-3], 【1】 map to the prompt's passages; others are invalid."""

from __future__ import annotations

from app.core.passage import Hit
from app.core.prompt.citations import Citation, marker_numbers, parse_citations


def hit(chunk_id: int, page: int, page_end: int | None = None) -> Hit:
    return Hit(
        chunk_id=chunk_id,
        document_id=1,
        document=f"doc{chunk_id}.pdf",
        path=f"/docs/doc{chunk_id}.pdf",
        page=page,
        page_end=page if page_end is None else page_end,
        char_start=5,
        char_end=40,
        text=f"text of chunk {chunk_id}",
        score=0.1,
        similarity=0.5,
    )


PASSAGES = [hit(11, 2), hit(12, 5, 6), hit(13, 9)]


def test_single_list_and_range_markers() -> None:
    assert marker_numbers("A [1]. B [1, 3]. C [2-3].") == [1, 3, 2]
    assert marker_numbers("range [1–3] and list [2,3]") == [1, 2, 3]


def test_full_width_brackets_and_commas() -> None:
    assert marker_numbers("结论【1】，另见【2，3】和［1］") == [1, 2, 3]


def test_text_without_markers_and_non_numeric_brackets() -> None:
    assert marker_numbers("no markers here [a] [ ] [1a]") == []


def test_absurd_range_is_not_expanded() -> None:
    assert marker_numbers("in [1-2024]") == [1, 2024]


def test_citations_map_to_passages_and_keep_their_pages() -> None:
    citations, invalid = parse_citations("Yes [2]. Also [1, 7] and 【4】.", PASSAGES)
    assert [c.n for c in citations] == [2, 1]
    assert invalid == [7, 4]
    second = citations[0]
    assert (second.chunk_id, second.document, second.page, second.page_end) == (12, "doc12.pdf", 5, 6)
    assert second.text == "text of chunk 12"
    assert (second.char_start, second.char_end, second.path) == (5, 40, "/docs/doc12.pdf")


def test_zero_is_invalid() -> None:
    citations, invalid = parse_citations("see [0]", PASSAGES)
    assert citations == []
    assert invalid == [0]


def test_citation_json_round_trip() -> None:
    citations, _ = parse_citations("[3]", PASSAGES)
    data = citations[0].to_json()
    assert set(data) >= {"n", "document", "page", "text", "chunk_id", "page_end", "path"}
    assert Citation.from_json(data) == citations[0]
