"""The notes Folio appends to an answer it could not verify, in the question's language, and the
model's own text recovered from an answer that carries one."""

from __future__ import annotations

from app.core.answering.presentation.verdict_text import (
    EARLIER_FOUND_LEADS,
    FOUND_INSTEAD_EN,
    FOUND_INSTEAD_ZH,
    found_instead,
    place_words,
    strip_note,
    unverified_notice,
)
from app.core.passage import Citation


def _citation(page: int, page_end: int | None = None, section: str = "") -> Citation:
    end = page if page_end is None else page_end
    return Citation(1, 7, "guide.pdf", "/docs/guide.pdf", page, end, 0, 10, "text", section=section)


def test_what_folio_found_is_quoted_with_its_place_in_the_questions_language() -> None:
    found = [
        (_citation(3), "Set  Acquire::http::Proxy\nin apt.conf."),
        (_citation(4, 5), "It applies to apt."),
    ]
    english = found_instead("Which setting controls the proxy?", found)
    chinese = found_instead("哪个设置控制代理？", found)
    assert english.splitlines() == [
        FOUND_INSTEAD_EN,
        "guide.pdf, p. 3: “Set Acquire::http::Proxy in apt.conf.”",
        "guide.pdf, pp. 4–5: “It applies to apt.”",
    ]
    assert chinese.splitlines() == [
        FOUND_INSTEAD_ZH,
        "“Set Acquire::http::Proxy in apt.conf.”（guide.pdf 第 3 页）",
        "“It applies to apt.”（guide.pdf 第 4–5 页）",
    ]
    assert found_instead("Which setting controls the proxy?", []) == ""


def test_a_document_without_pages_is_placed_by_its_section() -> None:
    assert place_words(_citation(1, section="Install › Linux, ¶ 2")) == "guide.pdf, Install › Linux, ¶ 2"


def test_the_models_text_is_recovered_from_either_note() -> None:
    answer = "The setting that controls the proxy [1]."
    found = found_instead("Which setting controls the proxy?", [(_citation(3), "Set Acquire::http::Proxy.")])
    assert strip_note(f"{answer}\n\n{found}") == answer
    assert strip_note(f"{answer}\n\n{unverified_notice('Which setting?')}") == answer
    assert strip_note(f"{answer}\n\n{unverified_notice('哪个设置？')}") == answer
    assert strip_note(answer) == answer
    earlier = f"{answer}\n\n{EARLIER_FOUND_LEADS[0]}\nguide.pdf, p. 3: “Set Acquire::http::Proxy.”"
    assert strip_note(earlier) == answer
