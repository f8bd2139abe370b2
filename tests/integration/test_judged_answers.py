"""End to end with the default chat model and the default (multilingual) embedder: what the judge says
of real answers across languages, through folio.answering.ask on a real library."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.core import paths
from app.core.answering.presentation.verdict_text import FOUND_INSTEAD_EN, UNVERIFIED_NOTICE_EN
from app.core.answering.types import Answer, AskOptions
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.qa import Folio
from app.core.services import build_services

pytestmark = pytest.mark.slow

RAG_ZH = (
    "# 为什么先下结论\n\n"
    "在 RAG 里让模型“先总结文档再回答”，等于把输入材料又生成一遍，成本翻倍且容易引入错误。"
    "更好的做法是直接给出结论，并用 [1]、[2] 标明出处。\n\n"
    "# 上下文长度\n\n"
    "小模型的上下文只有几千个词元，所以检索只放入最相关的几段原文。\n"
)
FILTER_EN = (
    "# Filter care\n\n"
    "The composite filter of the purifier lasts about 3000 hours in normal use, roughly six months "
    "at eight hours a day. It must not be washed with water: water destroys its carbon layer.\n"
)
OPTIONS = AskOptions(temperature=0.0, max_tokens=96)


@pytest.fixture(scope="module")
def judged_folio(
    tmp_path_factory: pytest.TempPathFactory, multilingual_embedder: Embedder
) -> Iterator[Folio]:
    root = tmp_path_factory.mktemp("judged")
    chinese, english = root / "rag-notes-zh.md", root / "purifier.md"
    chinese.write_text(RAG_ZH, encoding="utf-8")
    english.write_text(FILTER_EN, encoding="utf-8")
    settings = Settings(temperature=0.0, ttft_target_s=0.0, max_tokens=96)
    assert settings.chat_model_path().name == paths.DEFAULT_CHAT_MODEL_FILE
    assert settings.embed_model_path().name == multilingual_embedder.name
    folio = build_services(settings, root / "library", embedder=multilingual_embedder)
    report = folio.library.ingest([chinese, english])
    assert not report.failed
    yield folio
    folio.close()


def _meaning_sentences(answer: Answer) -> list[str]:
    return [s.text for s in answer.sentences if s.supported and s.basis == "meaning"]


def test_an_english_question_over_a_chinese_page_is_judged_by_meaning(judged_folio: Folio) -> None:
    answer = judged_folio.answering.ask(
        "Why should a RAG model not summarise its documents before answering?", OPTIONS
    )
    located = [f.citation.document for f in answer.located]
    assert located and located[0] == "rag-notes-zh.md", answer.to_json()["located"]
    assert answer.complete and answer.grounded
    # never "the documents do not answer" for an answer whose evidence was found and shown
    assert answer.verdict != "not_in_documents", answer.answer
    if answer.verdict in ("answered", "partly"):
        # no English word is on the Chinese page: what supports it, supports it by meaning
        assert _meaning_sentences(answer), answer.to_json()["sentences"]
        assert all(c.document == "rag-notes-zh.md" for c in answer.citations)
    else:
        assert answer.answer.endswith(UNVERIFIED_NOTICE_EN) or FOUND_INSTEAD_EN in answer.answer


def test_a_right_english_figure_is_never_denied_and_cites_its_page(judged_folio: Folio) -> None:
    answer = judged_folio.answering.ask("How many hours does the purifier's composite filter last?", OPTIONS)
    assert "3000" in answer.answer, answer.answer
    assert answer.verdict != "not_in_documents", answer.to_json()["sentences"]
    assert any(c.document == "purifier.md" for c in answer.citations)
    assert answer.located and answer.located[0].citation.document == "purifier.md"
    if answer.verdict == "not_answered":  # the policy may not verify it: then it says so, in words
        assert answer.answer.endswith(UNVERIFIED_NOTICE_EN), answer.answer
