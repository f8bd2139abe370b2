"""Table-of-contents, index and dotted-leader lines are told apart from statements that hold numbers."""

from __future__ import annotations

import pytest

from app.core.contents import contents_flags, contents_share, heading_level, is_contents_line

CONTENTS = [
    "4 2.4 How can R be obtained?",
    "33 7.18 Why does the output from ls depend on the locale?",
    "2.4 How can R be obtained? . . . . . . . . . . . 4",
    "Introduction ........................ 5",
    "第一章 概述 ………… 1",
    "1.1 What is Debian? 1.2 Who maintains it? 1.3 Why",
    "1.1 什么是 Debian 1.2 谁维护它",
    "bootloader, 12, 45, 103",
    "第三章 安装 12",
    "3.2 Installation 17",
]
STATEMENTS = [
    "Version 2.4 of the package was released in 2021.",
    "Versions 2.4 and 2.6 are supported.",
    "The tank holds 1.8 L of water.",
    "See section 2.4 for details.",
    "调整为 2.5 倍即可。",
    "从 2.5 倍到 3.5 倍。",
    "In 1893, the mill closed, 12 workers left.",
    "2.4 How can R be obtained? It is distributed by CRAN, the network of mirrors.",
]


@pytest.mark.parametrize("line", CONTENTS)
def test_contents_lines_are_recognised(line: str) -> None:
    assert is_contents_line(line)


@pytest.mark.parametrize("line", STATEMENTS)
def test_statements_with_numbers_are_not_contents(line: str) -> None:
    assert not is_contents_line(line)


def test_the_share_of_a_page_that_is_contents() -> None:
    page = "Contents\n1 Introduction . . . . . 1\n2 Setup . . . . . 4\n2.1 Needs . . . . 5\n"
    assert contents_share(page) == pytest.approx(3 / 4)
    assert contents_share("The tank holds 1.8 L.\nEmpty it daily.") == 0.0
    assert contents_share("") == 0.0


def test_a_contents_list_without_page_numbers_is_a_run_of_numbered_headings() -> None:
    toc = [
        "1. Definitions and overview",
        "    1.1. What is this FAQ?",
        "    1.2. What is Debian GNU/Linux?",
        "    1.3. What is the difference between Debian GNU/Linux and other",
        "    Linux distributions?",
        "    1.4. Does Debian just do GNU/Linux?",
    ]
    assert contents_flags(toc) == [False, True, True, True, True, True]
    body = [
        "1.1. What is this FAQ?",
        "",
        "This document gives frequently asked questions about Debian.",
        "1.2. What is Debian GNU/Linux?",
        "Debian GNU/Linux is a particular distribution of Linux.",
    ]
    assert not any(contents_flags(body))
    steps = ["3.1 Remove the lid.", "3.2 Fill the tank to the line.", "3.3 Close the lid."]
    assert not any(contents_flags(steps))  # a numbered procedure is no table of contents


@pytest.mark.parametrize(
    ("line", "level"),
    [
        ("Chapter 1. Definitions and overview", 1),
        ("1.1. What is this FAQ?", 2),
        ("3.1.2 Will there be different versions?", 3),
        ("第三章 安装", 1),
        ("第 2 节 配置", 2),
        ("2.5 倍", 0),
        ("The tank holds 1.8 L.", 0),
        ("2.4 How can R be obtained? . . . . 4", 0),
        ("1. Fill the tank", 0),
    ],
)
def test_the_level_of_a_numbered_heading(line: str, level: int) -> None:
    assert heading_level(line) == level
