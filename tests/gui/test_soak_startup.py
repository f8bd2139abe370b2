"""A 20,000-token streaming soak (refcount of None stays flat) and the window-before-models rule."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.conftest import WindowFactory
from tests.gui.fakes import FakeAnswerer, fake_factory
from tests.gui.heartbeat import Heartbeat
from tests.gui.waiting import wait_idle, wait_model

ROOT = Path(__file__).resolve().parents[2]
SOAK_TOKENS = 20_000


def test_streaming_soak_survives_and_none_refcount_stays_flat(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    """20,000 deltas through the real runner, controller, throttle and Markdown view.

    PySide6 6.12.0 leaks a reference to None on every void call; over this many signal emissions and
    widget calls such a leak would add tens of thousands of references.
    """
    tokens = [f"word{n % 97} " if n % 40 else "\n\n" for n in range(SOAK_TOKENS)]
    answerer = FakeAnswerer(tokens)
    window = make_window(fake_factory(answerer))
    wait_model(qtbot, window)
    window.chat.ask("warm-up")  # first use creates caches, translators, fonts
    wait_idle(qtbot, window, timeout=60_000)
    heartbeat = Heartbeat()
    before = sys.getrefcount(None)
    heartbeat.start()
    state = window.chat.ask("soak")
    assert state is not None
    wait_idle(qtbot, window, timeout=300_000)
    heartbeat.stop()
    after = sys.getrefcount(None)
    assert state.answer_tokens == SOAK_TOKENS
    assert (
        window.transcript.answer_views[-1].body.toPlainText().count("word") == SOAK_TOKENS - SOAK_TOKENS // 40
    )
    print(
        f"None refcount {before} -> {after}; "
        f"worst heartbeat gap during the soak {heartbeat.worst_gap_ms:.1f} ms"
    )
    assert after - before < SOAK_TOKENS // 10


def test_the_window_appears_before_the_heavy_libraries_are_imported(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from PySide6.QtWidgets import QApplication
        from app.core.config import Settings
        from app.gui.app import create_window
        app = QApplication([])
        window = create_window(Settings(), Path(sys.argv[1]))
        window.show()
        app.processEvents()
        heavy = [m for m in ("torch", "sentence_transformers", "faiss", "llama_cpp") if m in sys.modules]
        print("visible" if window.isVisible() else "hidden", ",".join(heavy) or "none")
        window.close()
        """
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "library")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.split() == ["visible", "none"], out.stdout + out.stderr
