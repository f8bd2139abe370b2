"""The interface language without Qt: the locale and the setting, the .ts read for the CLI, and the
core's marked messages translated with their values."""

from __future__ import annotations

import pytest

from app.core.config import Settings
from app.core.errors import UsageError
from app.core.ui_text import catalog, chosen_language, error_message, locale_language, message_text


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "zh_TW.UTF-8"}, "zh_CN"),  # the one Chinese translation, Simplified
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # no German translation: the source language
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}, "en"),  # LC_ALL overrides LANG
        ({"LANG": "C", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "zh_CN.UTF-8", "LANGUAGE": "en:zh"}, "en"),  # GNU's list, first entry
        ({}, "en"),
    ],
)
def test_the_locale_variables_choose_the_language(environ: dict[str, str], language: str) -> None:
    assert locale_language(environ) == language


def test_the_setting_overrides_the_locale() -> None:
    assert chosen_language("en", {"LANG": "zh_CN.UTF-8"}) == "en"
    assert chosen_language("zh_CN", {"LANG": "C"}) == "zh_CN"
    assert chosen_language("system", {"LANG": "zh_CN.UTF-8"}) == "zh_CN"


def test_an_unknown_language_setting_is_refused_with_the_choices() -> None:
    with pytest.raises(UsageError, match="language must be one of system, en, zh_CN"):
        Settings(language="fr").validate()
    with pytest.raises(UsageError, match="must be a str"):
        Settings.from_dict({"language": 1})


def test_the_catalog_holds_finished_translations_and_english_has_none() -> None:
    chinese = catalog("zh_CN")
    assert chinese[("Cli", "Sources:")] == "来源："
    assert chinese[("Core", "the question is empty")] == "问题为空"
    assert len(chinese) > 400
    assert catalog("en") == {}


def test_a_marked_error_is_translated_with_its_values() -> None:
    chinese = catalog("zh_CN")

    def translate(context: str, source: str) -> str:
        return chinese.get((context, source)) or source

    with pytest.raises(UsageError) as raised:
        Settings(n_ctx=4096, max_tokens=100, passages_k=99).validate()
    assert str(raised.value) == "passages per answer must be between 1 and 50"  # the English stays
    assert error_message(raised.value, translate) == "每个回答的段落数必须在 1 到 50 之间"
    templated = UsageError("no chat with id {0}", 7)
    assert str(templated) == "no chat with id 7"
    assert error_message(templated, translate) == "没有 ID 为 7 的对话"
    assert error_message(ValueError("plain"), translate) == "plain"  # not a FolioError: as it is


def test_a_readers_reason_is_translated_by_its_marked_head() -> None:
    chinese = catalog("zh_CN")

    def translate(context: str, source: str) -> str:
        return chinese.get((context, source)) or source

    assert message_text("password protected", translate) == "受密码保护"
    detail = "not a readable PDF: startxref not found"  # the marked head, then pypdf's own words
    assert message_text(detail, translate) == "无法读取的 PDF 文件：startxref not found"
    assert message_text("something: unmarked", translate) == "something: unmarked"
    assert message_text("", translate) == ""
