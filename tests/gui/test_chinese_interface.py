"""The window in Chinese: every visible text translated, and switching language keeps the chat."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QLabel, QMenu, QPlainTextEdit, QTabWidget, QWidget
from pytestqt.qtbot import QtBot

from app.core.api import SOURCE_LANGUAGE, translations_dir
from app.core.config import Settings
from app.core.passage import Citation
from app.core.ui_text import catalog
from app.gui.main_window import MainWindow
from app.gui.settings_dialog import SettingsDialog
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_answer, fake_factory
from tests.gui.waiting import wait_idle, wait_model

REPO = Path(__file__).resolve().parents[2]
CITATION = Citation(1, 7, "solar-guide.pdf", "/docs/solar-guide.pdf", 2, 2, 0, 40, "Restart the inverter.")


@pytest.fixture(autouse=True, scope="module")
def built_translation() -> None:
    """The window loads resources/i18n/folio_zh_CN.qm, which set-up builds from the .ts (a build
    product, git-ignored): built again here, as `make translations` does, when older than the .ts."""
    qm, ts = translations_dir() / "folio_zh_CN.qm", translations_dir() / "folio_zh_CN.ts"
    if not qm.is_file() or qm.stat().st_mtime < ts.stat().st_mtime:
        spec = importlib.util.spec_from_file_location("translations", REPO / "packaging" / "translations.py")
        assert spec is not None and spec.loader is not None
        tool = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tool)
        tool.lrelease([ts])
    assert qm.is_file()


@pytest.fixture
def shown() -> Iterator[list[MainWindow]]:
    """The windows a test shows in Chinese; English again afterwards, even when the test fails,
    so no later test finds Chinese translators installed."""
    windows: list[MainWindow] = []
    yield windows
    for window in windows:
        if window.translations is not None:
            window.translations.use(SOURCE_LANGUAGE)


def untranslated_sources() -> set[str]:
    """English texts the Chinese translation changes: seen on screen, each one is a missed translation."""
    return {source for (_context, source), text in catalog("zh_CN").items() if text != source}


def visible_texts(window: QWidget) -> list[str]:
    """Every text a user can read in the window now: labels, buttons, tabs, menus, placeholders."""
    texts: list[str] = [window.windowTitle()]
    for label in window.findChildren(QLabel):
        if label.isVisibleTo(window) and label.text():
            texts.append(label.text())
    for button in window.findChildren(QAbstractButton):
        if button.isVisibleTo(window):
            texts += [button.text(), button.toolTip()]
    for tabs in window.findChildren(QTabWidget):
        texts += [tabs.tabText(i) for i in range(tabs.count())]
    if isinstance(window, MainWindow):
        for entry in window.menuBar().actions():
            texts.append(entry.text())
            menu = entry.menu()
            if isinstance(menu, QMenu):
                texts += [action.text() for action in menu.actions() if not action.isSeparator()]
    for edit in window.findChildren(QPlainTextEdit):
        texts.append(edit.placeholderText())
    return [text for text in texts if text]


def assert_all_chinese(window: QWidget) -> None:
    english = untranslated_sources()
    left = sorted(
        text for text in visible_texts(window) if text in english or text.replace("&", "") in english
    )
    assert left == [], f"shown in English: {left}"


def answered_window(
    qtbot: QtBot, make_window: WindowFactory, shown: list[MainWindow], language: str
) -> MainWindow:
    answerer = FakeAnswerer(["The inverter ", "restarts [1]."], hits=[])
    window = make_window(fake_factory(answerer), Settings(language=language))
    shown.append(window)
    wait_model(qtbot, window)
    state = window.chat.ask("How do I restart the inverter?")
    assert state is not None
    wait_idle(qtbot, window)
    assert state.final is not None
    # the answer as the check leaves it: cited and judged, so the verdict line and sources show
    state.finish(replace(fake_answer(state.answer_text, "stop"), citations=[CITATION], verdict="answered"))
    return window


def test_the_window_in_chinese_shows_chinese_texts(
    qtbot: QtBot, make_window: WindowFactory, shown: list[MainWindow]
) -> None:
    window = answered_window(qtbot, make_window, shown, "zh_CN")
    assert window.translations is not None and window.translations.loaded
    assert [window.tabs.tabText(i) for i in range(2)] == ["文档库", "对话"]
    assert [a.text() for a in window.menuBar().actions()] == ["文件(&F)", "对话(&C)", "帮助(&H)"]
    assert window.question.send.text() == "发送"
    assert window.question.edit.placeholderText().startswith("就你的文档提问")
    assert window.status.text() == "就绪"
    view = window.transcript.answer_views[0]
    assert view.support.text().startswith("已根据你的文档作答")
    assert "完整" in view.readout.text() and "首字延迟" in view.readout.text()
    assert "第 2 页" in view.sources.text() and "来源" in view.sources.text()
    assert "排队" in view.breakdown.text()
    assert_all_chinese(window)


def test_every_settings_tab_is_in_chinese(
    qtbot: QtBot, make_window: WindowFactory, shown: list[MainWindow]
) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])), Settings(language="zh_CN"))
    shown.append(window)
    dialog = SettingsDialog(window.app.settings, None, window)
    qtbot.addWidget(dialog)
    dialog.show()
    assert [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())] == ["模型", "回答", "文档", "界面"]
    for index in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(index)
        assert_all_chinese(dialog)
    dialog.done(0)


def test_the_language_setting_is_saved_from_the_dialog(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(), None)
    qtbot.addWidget(dialog)
    languages = [dialog.language.itemData(i) for i in range(dialog.language.count())]
    assert languages == ["system", "en", "zh_CN"]
    dialog.language.setCurrentIndex(languages.index("zh_CN"))
    assert dialog.values().language == "zh_CN"
    dialog.done(0)


def test_switching_language_keeps_the_chat_and_retranslates_it(
    qtbot: QtBot, make_window: WindowFactory, shown: list[MainWindow]
) -> None:
    window = answered_window(qtbot, make_window, shown, "en")
    view = window.transcript.answer_views[0]
    answer_text = view.body.toPlainText()
    question_labels = [label.text() for label in window.transcript.findChildren(QLabel, "question")]
    assert view.support.text().startswith("Answered from your documents")
    assert window.question.send.text() == "Send"

    window.app.apply_settings(window.app.settings.replace(language="zh_CN"))  # the Settings dialog's path
    qtbot.waitUntil(lambda: window.question.send.text() == "发送", timeout=5_000)
    assert window.transcript.answer_views == [view]  # the same widgets: nothing was rebuilt
    assert view.body.toPlainText() == answer_text
    assert [label.text() for label in window.transcript.findChildren(QLabel, "question")] == question_labels
    assert view.support.text().startswith("已根据你的文档作答")
    assert "第 2 页" in view.sources.text()
    assert window.chat.chat_id == 1 and window.chats.list.count() == 1
    assert "条消息" in window.chats.list.item(0).text()
    assert_all_chinese(window)

    window.app.apply_settings(window.app.settings.replace(language="en"))
    qtbot.waitUntil(lambda: window.question.send.text() == "Send", timeout=5_000)
    assert window.tabs.tabText(0) == "Library"
    assert view.support.text().startswith("Answered from your documents")
    assert view.body.toPlainText() == answer_text
