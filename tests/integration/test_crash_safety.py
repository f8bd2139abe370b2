"""A process killed in the middle of ingesting leaves a library that opens and verifies."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import CJK_BOOK
from tests.pdfgen import write_pdf


def test_kill_during_ingest_leaves_a_consistent_library(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    small = write_pdf(tmp_path / "small.pdf", [["Owls hunt at night."], ["Larks sing at dawn."]])
    base = [sys.executable, "-m", "app"]
    first = subprocess.run(
        [*base, "ingest", str(small), "--library", str(library)], capture_output=True, text=True, timeout=300
    )
    assert first.returncode == 0, first.stderr

    # Ingest the 251-page book and kill the process (SIGKILL: no clean-up) once it is well into it.
    proc = subprocess.Popen(
        [*base, "ingest", str(CJK_BOOK), "--library", str(library)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 240
    for line in proc.stderr:
        if "page 75/251" in line or time.monotonic() > deadline:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    assert proc.returncode == -signal.SIGKILL

    verify = subprocess.run(
        [*base, "verify", "--json", "--library", str(library)], capture_output=True, text=True, timeout=300
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    state = json.loads(verify.stdout)
    assert state["ok"] and state["documents"] == 1 and state["chunks"] == state["vectors"]

    search = subprocess.run(
        [*base, "search", "When do larks sing?", "--json", "--library", str(library)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert json.loads(search.stdout)["hits"][0]["document"] == "small.pdf"
