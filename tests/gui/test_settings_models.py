"""Settings › Model: the models found on this computer and a server's models, each looked up on a worker."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QThread
from PySide6.QtWidgets import QFileDialog, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.core.config import Settings, load_settings
from app.core.generate import found_models
from app.core.generate.found_models import ModelFolder, ModelScan
from app.core.server_key import load_server_key
from app.gui.settings_dialog import SettingsDialog
from app.gui.tasks import TaskRunner
from tests.core.gguf_files import QWEN3_LIKE_TEMPLATE, add_ollama_model, write_gguf
from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_factory
from tests.gui.waiting import wait_for, wait_model
from tests.integration.llama_server import MODEL_NAME, LlamaServer

KEY = "sk-settings-test"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with an LM Studio model, an Ollama model and a GPT4All embedder (not a chat model)."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "OLLAMA_MODELS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(found_models, "OLLAMA_SERVICE_MODELS", home / "no-system-ollama")
    write_gguf(
        home / ".lmstudio/models/Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf",
        arch="qwen3",
        template=QWEN3_LIKE_TEMPLATE,
        file_type=7,
        context_length=40960,
    )
    add_ollama_model(home / ".ollama/models", "qwen2.5", "0.5b", write_gguf(home / "src.gguf", file_type=14))
    write_gguf(home / ".local/share/nomic.ai/GPT4All/nomic-embed.gguf", arch="nomic-bert", template=None)
    return home


@pytest.fixture
def runner() -> Iterator[TaskRunner]:
    tasks = TaskRunner()
    yield tasks
    assert tasks.shutdown() == []


def rows(dialog: SettingsDialog) -> list[list[str]]:
    tree = dialog.found.tree
    return [[item.text(c) for c in range(tree.columnCount())] for item in _items(dialog)]


def _items(dialog: SettingsDialog) -> list[QTreeWidgetItem]:
    tree = dialog.found.tree
    return [item for i in range(tree.topLevelItemCount()) if (item := tree.topLevelItem(i)) is not None]


def click_row(qtbot: QtBot, dialog: SettingsDialog, name: str) -> None:
    item = next(item for item in _items(dialog) if item.text(0) == name)
    tree = dialog.found.tree
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())


def test_found_models_are_listed_from_a_worker_and_one_is_used_where_it_is(
    qtbot: QtBot, home: Path, runner: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = found_models.find_models

    def spy(folders: list[ModelFolder], cancel: object = None) -> ModelScan:
        threads.append(QThread.currentThread().objectName())
        return real(folders, cancel)  # type: ignore[arg-type]

    monkeypatch.setattr(found_models, "find_models", spy)
    dialog = SettingsDialog(Settings(), None, runner=runner)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.found.scanned, timeout=20_000):
        dialog.show()
    assert threads == ["folio-lookup"]  # never the GUI thread
    assert rows(dialog) == [
        ["Qwen3-0.6B-Q8_0", "LM Studio", "0 MB", "Q8_0", "40,960", "yes, switchable"],
        ["qwen2.5:0.5b", "Ollama", "0 MB", "Q4_K_S", "4,096", "no"],
    ]
    status = dialog.found.status
    assert status.text() == "2 chat models in GPT4All, LM Studio, Ollama. 1 files left out (hover for why)."
    assert "an embedding model (nomic-bert)" in status.toolTip()
    click_row(qtbot, dialog, "qwen2.5:0.5b")
    blob = next(p for p in (home / ".ollama/models/blobs").iterdir())
    assert dialog.model_path.text() == str(blob)
    assert dialog.known_models.currentData() is None  # the combo says "another file", not a bundled one
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    assert dialog.result_settings is not None and dialog.result_settings.model_path == str(blob)
    assert blob.is_file() and len(list(blob.parent.iterdir())) == 1  # nothing copied or moved


def test_the_chosen_models_row_is_selected_and_an_added_folder_is_searched(
    qtbot: QtBot, home: Path, runner: TaskRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lmstudio = home / ".lmstudio/models/Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf"
    dialog = SettingsDialog(Settings(model_path=str(lmstudio)), None, runner=runner)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.found.scanned, timeout=20_000):
        dialog.show()
    current = dialog.found.tree.currentItem()
    assert current is not None and current.text(0) == "Qwen3-0.6B-Q8_0"
    mine = write_gguf(tmp_path / "my-models" / "Mistral-7B-Instruct-Q5_K_M.gguf", file_type=17)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_args, **_kw: str(mine.parent))
    with qtbot.waitSignal(dialog.found.scanned, timeout=20_000):
        qtbot.mouseClick(dialog.found.add_folder, Qt.MouseButton.LeftButton)
    assert ["Mistral-7B-Instruct-Q5_K_M", "my-models", "0 MB", "Q5_K_M", "4,096", "no"] in rows(dialog)
    click_row(qtbot, dialog, "Mistral-7B-Instruct-Q5_K_M")
    assert dialog.values().model_path == str(mine)


def test_settings_from_the_window_search_on_its_runner_and_apply_the_found_model(
    qtbot: QtBot, home: Path, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = make_window(fake_factory(FakeAnswerer(["ok"])))
    wait_model(qtbot, window)
    window.open_settings()
    dialog = window.settings_dialog
    assert dialog is not None and dialog.found.runner is window.app.runner
    wait_for(qtbot, dialog.found.scanned, lambda: dialog.found.scan is not None, 20_000)
    click_row(qtbot, dialog, "Qwen3-0.6B-Q8_0")
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    chosen = str(home / ".lmstudio/models/Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf")
    wait_for(qtbot, window.app.settings_changed, lambda: window.app.settings.model_path == chosen, 10_000)
    assert load_settings(tmp_path / "config" / "settings.json").model_path == chosen


@pytest.fixture(scope="module")
def keyed_server(smollm_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    running = LlamaServer(smollm_path, tmp_path_factory.mktemp("server") / "server.log", 512, KEY).start()
    yield running
    running.stop()


def test_a_server_is_chosen_its_models_listed_on_a_worker_and_its_key_stored_apart(
    qtbot: QtBot, home: Path, runner: TaskRunner, keyed_server: LlamaServer
) -> None:
    dialog = SettingsDialog(Settings(), None, runner=runner)
    qtbot.addWidget(dialog)
    dialog.show()
    assert (
        dialog.use_local.isChecked() and not dialog.server.url.isVisible() and dialog.model_path.isVisible()
    )
    qtbot.mouseClick(dialog.use_server, Qt.MouseButton.LeftButton)
    assert dialog.server.url.isVisible() and not dialog.model_path.isVisible()
    box = dialog.server
    box.url.setText(keyed_server.url)
    box.key.setText("sk-wrong")
    with qtbot.waitSignal(box.list_failed, timeout=20_000):
        qtbot.mouseClick(box.list_button, Qt.MouseButton.LeftButton)
    assert "refused the API key (HTTP 401)" in box.status.text() and "sk-wrong" not in box.status.text()
    box.key.setText(KEY)
    with qtbot.waitSignal(box.listed, timeout=20_000) as listed:
        qtbot.mouseClick(box.list_button, Qt.MouseButton.LeftButton)
    assert listed.args == [[MODEL_NAME]]
    assert box.model_name() == MODEL_NAME and box.status.text() == f"Listed by the server: {MODEL_NAME}"
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    result = dialog.result_settings
    assert result is not None and (result.server_url, result.server_model) == (keyed_server.url, MODEL_NAME)
    assert load_server_key(keyed_server.url) == KEY
    assert KEY not in json.dumps(result.to_dict())

    reopened = SettingsDialog(result, None, runner=runner)  # the key stays stored; the field stays empty
    qtbot.addWidget(reopened)
    reopened.show()
    assert reopened.use_server.isChecked() and reopened.server.key.text() == ""
    with qtbot.waitSignal(reopened.server.listed, timeout=20_000):  # with the stored key
        qtbot.mouseClick(reopened.server.list_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(reopened.use_local, Qt.MouseButton.LeftButton)
    assert reopened.values().server_url == ""  # answers from this computer again


def test_an_unreachable_server_is_said_in_words(qtbot: QtBot, runner: TaskRunner) -> None:
    from tests.integration.llama_server import free_port

    dialog = SettingsDialog(Settings(), None, runner=runner)
    qtbot.addWidget(dialog)
    dialog.use_server.setChecked(True)
    dialog.server.url.setText(f"http://127.0.0.1:{free_port()}")
    with qtbot.waitSignal(dialog.server.list_failed, timeout=20_000):
        qtbot.mouseClick(dialog.server.list_button, Qt.MouseButton.LeftButton)
    assert (
        "connection refused" in dialog.server.status.text()
        and "is it running?" in dialog.server.status.text()
    )


@pytest.mark.parametrize(
    ("url", "model", "message"),
    [
        ("localhost:8080", "m", "must start with http:// or https://"),
        ("http://user:pw@127.0.0.1:8080", "m", "must not hold a user name or password"),
        ("http://127.0.0.1:8080", "", "a server needs the name of its model"),
    ],
)
def test_invalid_server_settings_are_shown_and_nothing_is_stored(
    qtbot: QtBot, url: str, model: str, message: str
) -> None:
    dialog = SettingsDialog(Settings(), None)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.use_server.setChecked(True)
    dialog.server.url.setText(url)
    dialog.server.model.setCurrentText(model)
    dialog.server.key.setText("sk-never-stored")
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
    assert dialog.isVisible() and dialog.result_settings is None
    assert message in dialog.error.text()
    assert load_server_key(url) is None


def test_a_list_for_an_address_since_changed_is_not_shown(
    qtbot: QtBot, runner: TaskRunner, keyed_server: LlamaServer
) -> None:
    dialog = SettingsDialog(Settings(), None, runner=runner)
    qtbot.addWidget(dialog)
    dialog.use_server.setChecked(True)
    box = dialog.server
    box.url.setText(keyed_server.url)
    box.key.setText(KEY)
    box.model.setCurrentText("typed-by-hand")
    box.list_models()
    box.url.setText("http://127.0.0.1:9")  # edited before the reply reaches the GUI thread
    qtbot.waitUntil(lambda: box.list_button.isEnabled(), timeout=20_000)
    assert box.status.text() == "The address changed: press List models again."
    assert box.model_name() == "typed-by-hand" and box.model.count() == 0


def _offered(
    qtbot: QtBot, tmp_path: Path, runner: TaskRunner, monkeypatch: pytest.MonkeyPatch, key: str
) -> tuple[SettingsDialog, int, Path]:
    """Settings with only the catalog model `key` installed on request (only its file's presence is
    read): the dialog, that model's row in its bundled-models list, the models folder."""
    from app.core.generate.catalog import by_key

    models = tmp_path / "models"
    models.mkdir()
    (models / by_key(key).file).write_bytes(b"GGUF")
    monkeypatch.setenv("FOLIO_MODELS", str(models))
    dialog = SettingsDialog(Settings(), None, runner=runner)
    qtbot.addWidget(dialog)
    return dialog, dialog.known_models.findData(str(models / by_key(key).file)), models


def test_the_bigger_bundled_model_is_offered_as_more_careful_and_slower_with_its_figures(
    qtbot: QtBot, tmp_path: Path, runner: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialog, row, _ = _offered(qtbot, tmp_path, runner, monkeypatch, "qwen2.5-coder-1.5b")
    combo = dialog.known_models
    assert row > 0 and combo.itemText(row).endswith(" — more careful, slower")
    tip = combo.itemData(row, Qt.ItemDataRole.ToolTipRole)
    assert "English right 0.60" in tip and "Chinese 0.50" in tip and "2×" in tip
    assert combo.itemData(0, Qt.ItemDataRole.ToolTipRole) is None  # the default has no such note


def test_the_requantised_default_is_offered_as_faster_and_weaker_in_chinese(
    qtbot: QtBot, tmp_path: Path, runner: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.generate.catalog import by_key

    dialog, row, models = _offered(qtbot, tmp_path, runner, monkeypatch, "qwen2.5-coder-0.5b-q4_0")
    combo = dialog.known_models
    assert row > 0 and combo.itemText(row).endswith(" — faster, weaker in Chinese")
    tip = combo.itemData(row, Qt.ItemDataRole.ToolTipRole)
    assert "29 of 95" in tip and "34 of 97" in tip
    assert combo.findData(str(models / by_key("qwen2.5-coder-1.5b").file)) < 0  # not installed: not offered
