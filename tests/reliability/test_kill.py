"""kill -9 at seeded random moments during `folio ingest` and `folio ask`: the library and the chat
history stay valid, committed documents stay intact and searchable, a re-run completes the rest."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import threading
import time
from pathlib import Path

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.services import build_services
from app.core.store.database import STORE_FILE
from tests.reliability.campaign import SCALE, TOPICS, cli_json, record, start_cli, write_corpus


def _kill_after_lines(proc_args: tuple[Path, ...], argv: tuple[str, ...], lines: int, delay: float) -> int:
    """Start the CLI, kill -9 it after `lines` lines of progress plus `delay` s; lines seen."""
    library = proc_args[0]
    proc = start_cli(library, *argv)
    seen: list[str] = []
    reached = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            seen.append(line)
            if len(seen) >= lines:
                reached.set()
        reached.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reached.wait(300)
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    reader.join(5)
    assert proc.stdout is not None
    proc.stdout.close()
    return len(seen)


def test_kill_during_ingest(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    rng = random.Random(20261130)
    committed_total = 0
    for trial in range(SCALE.kill_trials):
        library = tmp_path / f"lib-{trial}"
        lines = rng.randint(0, 2 * len(corpus))
        _kill_after_lines((library,), ("ingest", str(tmp_path / "corpus")), lines, rng.uniform(0.0, 0.6))
        folio = build_services(Settings(), library)  # the embedder the CLI wrote it with (the default)
        try:
            folio.library.warm_up()  # a lagging index file is rebuilt from the store here, with a notice
            report = folio.library.verify()
            assert report.ok, (trial, report.problems)
            assert report.vectors == report.chunks
            before = {d.name: (d.sha256, d.chunks) for d in folio.library.documents()}
            for name in before:
                topic = name.removesuffix(".pdf")
                assert folio.library.search(f"{topic} measurement", 3).hits[0].document == name, (trial, name)
        finally:
            folio.close()
        committed_total += len(before)
        rerun = cli_json(library, "ingest", str(tmp_path / "corpus"))
        assert rerun["_returncode"] == 0, rerun
        statuses = {Path(f["path"]).name: f["status"] for f in rerun["files"]}
        assert all(statuses[name] == "unchanged" for name in before), (trial, statuses)
        verify = cli_json(library, "verify")
        assert verify["ok"] and verify["documents"] == len(TOPICS), verify
        assert verify["chunks"] == verify["vectors"]
        after = cli_json(library, "documents")
        for doc in after["documents"]:
            if doc["document"] in before:  # intact: the same bytes and chunks as before the kill
                assert (doc["sha256"], doc["chunks"]) == before[doc["document"]]
        assert not list(library.glob(".staging-*.sqlite3*")), "scratch files of the killed run removed"
        record("kill_ingest_trials_done", trial + 1)
    record("kill_ingest_trials", SCALE.kill_trials)
    record("kill_ingest_documents_committed_before_kill", committed_total)


def test_kill_during_ask(tmp_path: Path, embedder: Embedder) -> None:
    library = tmp_path / "lib"
    write_corpus(tmp_path / "corpus", TOPICS[:2], pages=3)
    folio = build_services(Settings(), library, embedder=embedder)
    folio.library.ingest([tmp_path / "corpus"])
    folio.close()
    rng = random.Random(7)
    for trial in range(SCALE.ask_kills):
        proc = start_cli(library, "ask", "What did the volcano readings do?", "--max-tokens", "200")
        time.sleep(rng.uniform(2.0, 12.0))  # start-up, model load, retrieval or decoding
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
        conn = sqlite3.connect(library / STORE_FILE)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", trial
        finally:
            conn.close()
        folio = build_services(Settings(), library, embedder=embedder)
        try:
            for chat in folio.chats.summaries():
                for answer in folio.chats.answers(chat.id):  # every stored chat reads back whole
                    assert answer.question
        finally:
            folio.close()
    answered = cli_json(library, "ask", "What did the volcano readings do?", "--max-tokens", "40")
    assert answered["finish_reason"] in ("stop", "length") and answered["answer"], answered
    record("kill_ask_trials", SCALE.ask_kills)
