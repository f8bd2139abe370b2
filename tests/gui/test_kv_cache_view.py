"""The KV cache in view: the Token budget dialog's rows, and Settings > Model > KV cache."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.answering.types import AnswerEvent, AskOptions, Finished
from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.generate.kv_cache import KvCacheUse
from app.core.generate.model import ModelInfo
from app.gui.answer_state import DONE
from app.gui.budget_dialog import BudgetDialog, budget_rows
from app.gui.settings_dialog import SettingsDialog
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_factory
from tests.gui.waiting import wait_idle, wait_model

LOCAL = KvCacheUse("q8_0", "q8_0", 26_738_688, 4096, 700, 332)
INFO = ModelInfo(
    "fake.gguf",
    "/models/fake.gguf",
    4096,
    8192,
    True,
    "",
    "gguf",
    2,
    kv_cache_type="f16",
    kv_cache_bytes=50_331_648,
    kv_cache_types=("f16", "q8_0"),
)


class KvAnswerer(FakeAnswerer):
    """The fake answerer, its answers carrying a KV cache figure like the real pipeline's."""

    def ask_stream(
        self, question: str, options: AskOptions | None, chat_id: int | None, cancel: CancelToken | None
    ) -> Iterator[AnswerEvent]:
        for event in super().ask_stream(question, options, chat_id, cancel):
            yield Finished(replace(event.answer, kv_cache=LOCAL)) if isinstance(event, Finished) else event


def rows_of(dialog: BudgetDialog) -> dict[str, str]:
    table = dialog.table
    return {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}


def test_the_token_budget_link_opens_the_kv_cache_of_the_answer(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = make_window(fake_factory(KvAnswerer(["Yes", "."])))
    wait_model(qtbot, window)
    qtbot.keyClicks(window.question.edit, "Is the cache reused?")
    qtbot.keyClick(window.question.edit, Qt.Key.Key_Return)
    wait_idle(qtbot, window)
    assert len(window.transcript.answer_views) == 1
    view = window.transcript.answer_views[0]
    assert view.state.phase == DONE
    assert view.budget_link.isVisibleTo(window)
    view.budget_link.linkActivated.emit("budget")
    qtbot.waitUntil(lambda: bool(window.findChildren(BudgetDialog)), timeout=5_000)
    rows = rows_of(window.findChildren(BudgetDialog)[0])
    assert rows["KV cache size"] == "25.5 MiB for 4096 tokens"
    assert rows["KV cache type"] == "keys q8_0 · values q8_0"
    assert rows["Prompt tokens reused from the KV cache"] == "700"
    assert rows["Prompt tokens evaluated"] == "332"
    assert "Prompt tokens reused from cache" not in rows  # one row for the reused prefix


def test_a_server_kv_cache_says_what_is_not_known() -> None:
    server = KvCacheUse(None, None, None, None, 120, 880)
    rows = dict(budget_rows({"n_ctx": 8192, "kv_cache": server.to_json()}))
    assert rows["KV cache size"] == "not known" and rows["KV cache type"] == "not known"
    assert rows["Prompt tokens reused from the KV cache"] == "120"
    silent = dict(budget_rows({"kv_cache": KvCacheUse(None, None, None, None, None, None).to_json()}))
    assert silent["Prompt tokens evaluated"] == "not known"


def test_settings_offer_q8_0_when_the_loaded_model_takes_it(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(), INFO)
    qtbot.addWidget(dialog)
    choice = dialog.kv_cache
    assert [choice.itemData(i) for i in range(choice.count())] == ["f16", "q8_0"] and choice.isEnabled()
    assert "48.0 MiB for 4096 tokens" in choice.toolTip()
    assert dialog.values().kv_cache_type == "f16"
    choice.setCurrentIndex(choice.findData("q8_0"))
    assert dialog.values().kv_cache_type == "q8_0"


def test_settings_keep_the_saved_type_when_nothing_says_what_llama_cpp_takes(qtbot: QtBot) -> None:
    for info in (None, replace(INFO, kv_cache_types=("f16",)), replace(INFO, server="http://x:8080")):
        dialog = SettingsDialog(Settings(kv_cache_type="q8_0"), info)
        qtbot.addWidget(dialog)
        assert dialog.values().kv_cache_type == "q8_0"
    only = SettingsDialog(Settings(), replace(INFO, kv_cache_types=("f16",)))
    qtbot.addWidget(only)
    assert only.kv_cache.count() == 1 and not only.kv_cache.isEnabled()
    later = SettingsDialog(Settings(), None)
    qtbot.addWidget(later)
    assert not later.kv_cache.isEnabled()
    later.set_model_info(INFO)  # the model loaded while the dialog was open
    assert later.kv_cache.isEnabled() and later.kv_cache.count() == 2
