"""GUI responsiveness: launch to window shown and to ready to answer, and the event-loop stalls
(10 ms heartbeat: worst and p99 gap) while ingesting a 100-page PDF and while streaming an answer.

Usage: python benchmarks/bench_gui.py [--pages 100] [--max-tokens 256]
The real window, controllers, workers, embedder and default chat model, over a temporary library
and config; QT_QPA_PLATFORM decides the platform (offscreen unless set, e.g. xcb under xvfb-run).
Times start when this script starts, before Qt or the app is imported. Prints the figures and writes
benchmarks/results/gui.json (+ .env.json). Never run by the tests.
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()

import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LONG_ANSWER_QUESTION = (
    "List, section by section, how many tonnes the harbour crane lifts in sections 1 to 12."
)
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def wait_until(app: Any, done: Callable[[], bool], timeout_s: float) -> float:
    """Run the event loop until `done()`; the time it took."""
    started = time.perf_counter()
    while not done():
        if time.perf_counter() - started > timeout_s:
            raise TimeoutError(f"not done within {timeout_s:.0f} s")
        app.processEvents()
        time.sleep(0.002)
    return time.perf_counter() - started


def stalls(beat: Any) -> dict[str, float]:
    return {
        "worst_ms": round(beat.worst_gap_ms, 1),
        "worst_at_s": round(beat.worst_at_s, 2),
        "p99_ms": round(beat.percentile(0.99), 1),
        "median_ms": round(beat.percentile(0.5), 1),
        "beats": beat.beats,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--max-tokens", type=int, default=256)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="folio-gui-bench-") as tmp:
        home = Path(tmp)
        os.environ["FOLIO_LIBRARY"] = str(home / "library")
        os.environ["FOLIO_CONFIG_DIR"] = str(home / "config")
        from PySide6.QtWidgets import QApplication

        from app.core.config import Settings
        from app.gui.app import create_window
        from app.gui.app_controller import default_factory
        from benchmarks.bench_ingest import write_long_pdf
        from tests.gui.heartbeat import Heartbeat

        app = QApplication.instance() or QApplication(["folio"])
        settings = Settings(max_tokens=args.max_tokens, temperature=0.0)
        window = create_window(settings, home / "library", default_factory, home / "config" / "settings.json")
        window.show()
        wait_until(app, window.isVisible, 10)
        app.processEvents()
        shown_s = time.perf_counter() - STARTED
        window.app.start()
        wait_until(app, lambda: window.app.folio is not None, 120)
        services_s = time.perf_counter() - STARTED
        wait_until(app, lambda: window.app.model_info is not None, 300)
        ready_s = time.perf_counter() - STARTED
        print(f"launch → window shown        {shown_s:6.2f} s", flush=True)
        print(f"launch → library open        {services_s:6.2f} s", flush=True)
        print(f"launch → ready to answer     {ready_s:6.2f} s (model loaded)", flush=True)

        pdf = write_long_pdf(home / "long.pdf", args.pages)
        beat = Heartbeat()
        finished: list[object] = []
        window.ingest.batch_finished.connect(finished.append)
        beat.start()
        window.ingest.add([pdf])
        ingest_s = wait_until(app, lambda: bool(finished), 600)
        beat.stop()
        ingesting = stalls(beat)
        print(f"ingest {args.pages} pages: {ingest_s:.1f} s; stalls {ingesting}", flush=True)

        beat = Heartbeat()
        beat.start()
        state = window.chat.ask(LONG_ANSWER_QUESTION)
        assert state is not None, "the question was not accepted"
        answer_s = wait_until(app, lambda: not window.chat.busy, 600)
        beat.stop()
        streaming = stalls(beat)
        tokens = state.final.metrics.completion_tokens if state.final is not None else None
        print(f"answer ({tokens} tokens): {answer_s:.1f} s; stalls {streaming}", flush=True)
        window.close()
        app.processEvents()

    from benchmarks.record_env import write_result

    path = write_result(
        "gui",
        {
            "platform": os.environ["QT_QPA_PLATFORM"],
            "launch_to_window_s": round(shown_s, 2),
            "launch_to_library_open_s": round(services_s, 2),
            "launch_to_ready_s": round(ready_s, 2),
            "ingest": {"pages": args.pages, "seconds": round(ingest_s, 1), "stalls": ingesting},
            "answer": {"completion_tokens": tokens, "seconds": round(answer_s, 1), "stalls": streaming},
        },
    )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
