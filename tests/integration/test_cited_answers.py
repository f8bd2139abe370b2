"""End to end with the default chat model: answers carry citations, and they point at the right page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core import paths
from app.core.answering.types import AskOptions
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.qa import Folio
from app.core.services import build_services

pytestmark = pytest.mark.slow

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample.pdf"
CHINESE = (
    "# 灯塔\n\n海角灯塔建在花岗岩礁石上，塔高三十一米，于1893年建成。\n\n"
    "# 磨坊\n\n瓦恩镇用潮汐磨坊磨面粉，涨潮时海水灌满池塘，退潮时水流推动木轮转动约四个小时。\n"
)
CASES = [
    # question, document, page holding the answer, a pattern the answer must match
    ("How tall is the lighthouse at Cape Merrow?", "sample.pdf", 3, r"31|thirty-one"),
    ("How often does the Cape Merrow lighthouse flash?", "sample.pdf", 3, r"(?i)twelve|12"),
    ("海角灯塔是哪一年建成的？", "lighthouse-zh.md", 1, r"1893"),
]


@pytest.fixture(scope="module")
def cited_folio(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[Folio]:
    root = tmp_path_factory.mktemp("cited")
    chinese = root / "lighthouse-zh.md"
    chinese.write_text(CHINESE, encoding="utf-8")
    settings = Settings(temperature=0.0, ttft_target_s=0.0, max_tokens=96)  # the default chat model
    assert settings.chat_model_path().name == paths.DEFAULT_CHAT_MODEL_FILE
    folio = build_services(settings, root / "library", embedder=embedder)
    report = folio.library.ingest([SAMPLE, chinese])
    assert not report.failed
    yield folio
    folio.close()


@pytest.mark.parametrize(("question", "document", "page", "pattern"), CASES)
def test_the_default_model_answers_with_a_citation_of_the_right_page(
    cited_folio: Folio, question: str, document: str, page: int, pattern: str
) -> None:
    answer = cited_folio.answering.ask(question, AskOptions(temperature=0.0, max_tokens=96))
    assert answer.complete and answer.grounded, answer.to_json()
    assert re.search(pattern, answer.answer), answer.answer
    assert answer.citations, f"no citation for {answer.answer!r}"
    assert any(c.document == document and c.page <= page <= c.page_end for c in answer.citations), [
        (c.document, c.page, c.source) for c in answer.citations
    ]
    assert answer.support_rate is not None and answer.support_rate > 0, answer.to_json()["sentences"]
    supported = [s for s in answer.sentences if s.supported]
    assert supported and all(s.citations for s in supported)
