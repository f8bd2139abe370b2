"""Take the README screenshots of Settings › Model (a real server's models; the models found on this
computer) and of an answer given through the server, from the real app under Xvfb, with a
llama-cpp-python server started on 127.0.0.1.

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.settings_screens docs
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.core import paths
from app.core.config import Settings
from app.core.services import build_services
from app.gui.answer_state import DONE
from app.gui.app import create_window, load_stylesheet
from tests.core.conftest_answer import make_thinking_gguf
from tests.gui.screenshots import pause, save, wait_for
from tests.integration.llama_server import LlamaServer

INVERTER_NOTES = (
    "Inverter care. Check the inverter display once a month. When the display shows E5, the inverter "
    "has overheated: switch it off at the isolator and wait 30 minutes before switching it on again. "
    "If E5 returns, call the installer."
)


def furnish_home(home: Path) -> None:
    """The bundled models where LM Studio, GPT4All, Jan and Ollama would keep them (links, and
    one copy with a thinking template, so every column has something to say)."""
    models = paths.models_dir()
    lmstudio = home / ".lmstudio/models/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF"
    lmstudio.mkdir(parents=True)
    (lmstudio / paths.DEFAULT_CHAT_MODEL_FILE.replace("0.5B", "1.5B")).symlink_to(
        models / "Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf"
    )
    gpt4all = home / ".local/share/nomic.ai/GPT4All"
    gpt4all.mkdir(parents=True)
    (gpt4all / paths.FAST_CHAT_MODEL_FILE).symlink_to(models / paths.FAST_CHAT_MODEL_FILE)
    jan = home / ".config/Jan/data/models/llamacpp/smollm2-thinking"
    jan.mkdir(parents=True)
    make_thinking_gguf(models / paths.FAST_CHAT_MODEL_FILE, jan / "model.gguf")
    ollama = home / ".ollama/models"
    source = models / paths.DEFAULT_CHAT_MODEL_FILE
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    (ollama / "blobs").mkdir(parents=True)
    (ollama / "blobs" / f"sha256-{digest}").symlink_to(source)
    manifest = ollama / "manifests/registry.ollama.ai/library/qwen2.5-coder/0.5b"
    manifest.parent.mkdir(parents=True)
    layer = {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}"}
    manifest.write_text(json.dumps({"layers": [layer]}), encoding="utf-8")


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-settings-shots-"))
    home = work / "home"
    furnish_home(home)
    os.environ["HOME"] = str(home)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "OLLAMA_MODELS"):
        os.environ.pop(name, None)
    os.environ["FOLIO_CONFIG_DIR"] = str(work / "config")
    alias = "qwen2.5-coder-0.5b"
    server = LlamaServer(
        paths.default_chat_model(), work / "server.log", 4096, threads=2, alias=alias
    ).start()
    library = work / "library"
    notes = work / "docs" / "inverter-notes.txt"
    notes.parent.mkdir()
    notes.write_text(INVERTER_NOTES, encoding="utf-8")
    prepared = build_services(Settings(), library)
    try:
        assert not prepared.library.ingest([notes]).failed
    finally:
        prepared.close()
    try:
        app = QApplication(sys.argv)
        app.setStyleSheet(load_stylesheet())
        settings = Settings(server_url=server.url, server_model=alias)
        window = create_window(settings, library, settings_path=work / "settings.json")
        window.resize(1280, 800)
        window.show()
        window.app.start()
        wait_for(lambda: window.app.model_info is not None, 180_000)
        window.open_settings()
        dialog = window.settings_dialog
        assert dialog is not None
        QTest.mouseClick(dialog.server.list_button, Qt.MouseButton.LeftButton)
        wait_for(lambda: dialog.server.status.text().startswith("Listed"), 60_000)
        dialog.adjustSize()
        save(dialog, out / "settings-server.png")
        QTest.mouseClick(dialog.use_local, Qt.MouseButton.LeftButton)
        wait_for(lambda: dialog.found.scan is not None, 60_000)
        dialog.adjustSize()
        save(dialog, out / "settings-found-models.png")
        dialog.reject()
        state = window.chat.ask("How long should I wait before switching the inverter on again after E5?")
        assert state is not None
        wait_for(lambda: state.phase == DONE and not window.chat.busy, 300_000)
        pause(500)
        save(window, out / "answer-server.png")
        window.close()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")))
