"""The map plan of a whole-document summary (whole_plan.py) with the real SmolLM2 tokenizer and
template: page ranges in order, every step's prompt within its budget, central passages chosen."""

from __future__ import annotations

import itertools
import math

import numpy as np

from app.core.answering.whole.whole_plan import central_order, page_ranges, plan_windows
from app.core.generate.engine import Engine
from app.core.prompt.system import SUMMARY_INSTRUCTIONS, format_passage
from tests.core.answer_helpers import make_hit

SENTENCE = "The committee reviewed the budget of the harbour works and the new schedule for page {0}. "


def document(pages: int, per_page: int = 2) -> list:
    """`pages` pages of `per_page` chunks each, in reading order, ~60 tokens a chunk."""
    return [
        make_hit(page * per_page + i, SENTENCE.format(page + 1) * 3, page=page + 1)
        for page in range(pages)
        for i in range(per_page)
    ]


def test_page_ranges_cut_the_chunks_in_order_without_gaps() -> None:
    assert page_ranges(10, 3) == [range(0, 3), range(3, 7), range(7, 10)]
    assert page_ranges(2, 6) == [range(0, 1), range(1, 2)]  # never an empty step
    assert page_ranges(1, 1) == [range(0, 1)]


def test_the_most_central_chunk_comes_first() -> None:
    vectors = np.array([[1.0, 0.0], [0.7, 0.7], [0.0, 1.0]], dtype=np.float32)
    assert central_order(vectors)[0] == 1
    assert central_order(np.zeros((0, 2), dtype=np.float32)) == []


def test_every_step_fits_its_budget_and_reads_its_own_pages_in_order(chat_engine: Engine) -> None:
    hits = document(50)  # 100 chunks: a 50-page PDF
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(len(hits), 8)).astype(np.float32)
    windows = plan_windows(
        chat_engine, "Summarise report.pdf", hits, vectors, n_ctx=4096, max_steps=6, window_tokens=600
    )
    assert len(windows) == 6  # the document needs more steps than that: bounded
    assert windows[0].first_page == 1 and windows[-1].last_page == 50
    assert sum(window.chunks for window in windows) == len(hits)
    for before, after in itertools.pairwise(windows):
        assert before.last_page <= after.first_page
    for window in windows:
        plan = window.plan
        assert plan.budget.prompt_tokens <= 600 == plan.budget.limit_tokens
        assert len(plan.tokens) == plan.budget.prompt_tokens
        assert plan.budget.answer_reserve == 160
        pages = [hit.page for hit in window.passages]
        assert pages == sorted(pages) and window.first_page <= pages[0] and pages[-1] <= window.last_page
        assert SUMMARY_INSTRUCTIONS in plan.messages[0]["content"]
    for window in windows:  # the budget names what it left out of each range
        assert len(window.passages) + len(window.plan.budget.passages_dropped) == window.chunks
    assert sum(len(window.passages) for window in windows) < len(hits)


def test_a_short_document_is_read_whole_in_as_few_steps_as_it_needs(chat_engine: Engine) -> None:
    hits = document(4)
    vectors = np.ones((len(hits), 4), dtype=np.float32)
    total = sum(chat_engine.count_tokens(format_passage(1, hit)) for hit in hits)
    windows = plan_windows(chat_engine, "Summarise it", hits, vectors, n_ctx=4096, window_tokens=1200)
    assert len(windows) == max(1, math.ceil(total / 1200)) == 1
    assert [hit.chunk_id for hit in windows[0].passages] == [hit.chunk_id for hit in hits]
    assert not windows[0].plan.budget.passages_dropped
    assert plan_windows(chat_engine, "Summarise it", [], vectors[:0], n_ctx=4096) == []
