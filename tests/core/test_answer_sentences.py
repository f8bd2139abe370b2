"""Answer sentence splitting: Latin and CJK stops, numbers, versions, abbreviations, markers, bullets."""

from __future__ import annotations

from app.core.answering.evidence.sentences import Sentence, marker_spans, split_sentences


def texts(answer: str) -> list[str]:
    sentences = split_sentences(answer)
    for sentence in sentences:
        assert answer[sentence.start : sentence.end] == sentence.text
    return [sentence.text for sentence in sentences]


def test_latin_stops() -> None:
    assert texts("It is tall. Is it old? Yes! It ends") == ["It is tall.", "Is it old?", "Yes!", "It ends"]
    assert texts("") == []
    assert texts("   \n  ") == []


def test_cjk_stops_including_semicolon_and_ascii_forms_after_cjk() -> None:
    assert texts("灯塔高31米。它建于1893年！为什么？因为；好的") == [
        "灯塔高31米。",
        "它建于1893年！",
        "为什么？",
        "因为；",
        "好的",
    ]
    # passages are NFKC-normalised at ingest: ！ and ？ become ! and ? after a CJK character
    assert texts("第一句!第二句?第三句") == ["第一句!", "第二句?", "第三句"]


def test_numbers_versions_and_file_names_do_not_split() -> None:
    assert texts("Pi is 3.14 and 1.2.3 is a list. Install v2.0.1 from R-intro.pdf now.") == [
        "Pi is 3.14 and 1.2.3 is a list.",
        "Install v2.0.1 from R-intro.pdf now.",
    ]
    assert texts("The version is v2.0.1. Next one.") == ["The version is v2.0.1.", "Next one."]
    assert texts("Read https://cran.r-project.org/doc/R-intro.pdf. Then stop.") == [
        "Read https://cran.r-project.org/doc/R-intro.pdf.",
        "Then stop.",
    ]


def test_abbreviations_do_not_split() -> None:
    answer = (
        "Use a list, e.g. a vector, i.e. an atomic one. See p. 12 and pp. 3-4, Fig. 2 and No. 5. "
        "Dr. Smith vs. Mr. Lee agreed."
    )
    assert texts(answer) == [
        "Use a list, e.g. a vector, i.e. an atomic one.",
        "See p. 12 and pp. 3-4, Fig. 2 and No. 5.",
        "Dr. Smith vs. Mr. Lee agreed.",
    ]
    # "etc." and "no." end a sentence when the next word says so
    assert texts("Apples, pears etc. Then more. The answer is no. It ends.") == [
        "Apples, pears etc.",
        "Then more.",
        "The answer is no.",
        "It ends.",
    ]
    assert texts("It opened on May 1st. St. Ives is near. It took 15 min. Then it closed.") == [
        "It opened on May 1st.",
        "St. Ives is near.",
        "It took 15 min.",
        "Then it closed.",
    ]
    assert texts("Written by J. R. Smith. Done.") == ["Written by J. R. Smith.", "Done."]


def test_a_colon_before_a_capital_ends_a_sentence() -> None:
    assert texts("Here is what I found: The tower is tall. Times: 10:30 and 11:45, see: below.") == [
        "Here is what I found:",
        "The tower is tall.",
        "Times: 10:30 and 11:45, see: below.",
    ]


def test_markers_stay_with_their_sentence() -> None:
    answer = "The tower is 31 m tall. [1] It was finished in 1893 [2]. It flashes green.[1][3] Done."
    sentences = split_sentences(answer)
    assert [s.text for s in sentences] == [
        "The tower is 31 m tall. [1]",
        "It was finished in 1893 [2].",
        "It flashes green.[1][3]",
        "Done.",
    ]
    assert [s.markers for s in sentences] == [(1,), (2,), (1, 3), ()]
    assert [s.body for s in sentences] == [
        "The tower is 31 m tall.",
        "It was finished in 1893.",
        "It flashes green.",
        "Done.",
    ]


def test_cjk_markers_ranges_and_lists() -> None:
    sentences = split_sentences("灯塔高31米。【1】闪光为绿色[2, 3]。雾笛[1-3]每分钟响两次。")
    assert [(s.text, s.markers) for s in sentences] == [
        ("灯塔高31米。【1】", (1,)),
        ("闪光为绿色[2, 3]。", (2, 3)),
        ("雾笛[1-3]每分钟响两次。", (1, 2, 3)),
    ]
    assert sentences[1].body == "闪光为绿色。"
    assert marker_spans("a [1] b [x] c 【2，3】") == [(2, 5), (14, 19)]


def test_a_marker_on_its_own_line_cites_the_sentence_before() -> None:
    answer = "The light is green.\n[2]\nNext."
    sentences = split_sentences(answer)
    assert [(s.text, s.markers) for s in sentences] == [("The light is green.\n[2]", (2,)), ("Next.", ())]


def test_bullets_and_numbering_are_sentences_without_their_prefix() -> None:
    answer = (
        "Here is what I found:\n- The tower is **31 m** high [1]\n* It flashes `green`. [2]\n"
        "1. First item\n2) Second item.\n## Heading\n一、灯塔\n（2）池塘"
    )
    sentences = split_sentences(answer)
    assert [s.text for s in sentences] == [
        "Here is what I found:",
        "The tower is **31 m** high [1]",
        "It flashes `green`. [2]",
        "First item",
        "Second item.",
        "Heading",
        "灯塔",
        "池塘",
    ]
    assert sentences[1].body == "The tower is 31 m high"
    assert sentences[1].start == answer.index("The tower")
    assert sentences[2].body == "It flashes green."


def test_a_wrapped_line_continues_its_sentence() -> None:
    answer = "The manual says that a line\ncan be 4095 bytes long. Another."
    assert texts(answer) == ["The manual says that a line\ncan be 4095 bytes long.", "Another."]
    assert split_sentences(answer)[0].body == "The manual says that a line can be 4095 bytes long."


def test_a_paragraph_break_ends_a_sentence_without_a_stop() -> None:
    # A heading line, then its text: two sentences, whatever case the text starts in
    assert texts("Descaling the boiler\n\nRun the solution through it. Rinse.") == [
        "Descaling the boiler",
        "Run the solution through it.",
        "Rinse.",
    ]
    assert texts("Descaling the boiler\n\nrun the solution through it") == [
        "Descaling the boiler",
        "run the solution through it",
    ]
    # Windows line ends, a blank line holding spaces, Chinese
    assert texts("Safety notes\r\n\r\nkeep the lid closed") == ["Safety notes", "keep the lid closed"]
    assert texts("Overview  \n \t\n  the tool reads PDF files") == ["Overview", "the tool reads PDF files"]
    assert texts("清洁水箱\n\n每周用清水冲洗两次") == ["清洁水箱", "每周用清水冲洗两次"]
    # A Markdown heading's marks are not part of its sentence's body
    sentences = split_sentences("## Descaling\n\nRun the solution through it.")
    assert [s.body for s in sentences] == ["Descaling", "Run the solution through it."]


def test_sentence_is_a_frozen_record() -> None:
    sentence = split_sentences("One [1].")[0]
    assert sentence == Sentence("One [1].", 0, 8, "One.", (1,))
