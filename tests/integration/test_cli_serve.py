"""`folio serve`: calls through the running service print the same JSON with the same exit codes as
in-process calls; a stale socket file is ignored by the CLI and replaced by a new service."""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from app.cli import run_in_process
from app.serve.client import forward, library_from_argv
from app.serve.protocol import socket_path
from tests.pdfgen import write_pdf

READY_TIMEOUT_S = 600  # the service imports torch and loads the embedder; slow on a busy machine


def folio_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=300, check=False
    )


def make_stale_socket(path: Path) -> None:
    """A socket file with nobody listening: what a killed service leaves behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(os.fspath(path))
    stale.close()


def wait_ready(service: subprocess.Popen[str]) -> list[str]:
    """The service's stderr lines up to its "ready" line."""
    assert service.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(service.stderr, selectors.EVENT_READ)
    lines: list[str] = []
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if service.poll() is not None:
            pytest.fail(f"folio serve exited early: {''.join(lines)}{service.stderr.read()}")
        if selector.select(timeout=1.0):
            line = service.stderr.readline()
            lines.append(line)
            if "ready" in line:
                return lines
    pytest.fail("folio serve did not get ready")


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "retrieval_ms"}


def test_stale_socket_is_ignored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = tmp_path / "lib"
    make_stale_socket(socket_path(library))
    assert forward(["documents", "--library", str(library), "--json"]) is None
    listed = folio_cli("documents", "--library", str(library), "--json")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == {"documents": []}


def test_library_from_argv_matches_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert library_from_argv(["search", "q", "--library", "lib"]) == tmp_path / "lib"
    assert library_from_argv(["search", "q", "--library=other"]) == tmp_path / "other"
    monkeypatch.setenv("FOLIO_LIBRARY", str(tmp_path / "env-lib"))
    assert library_from_argv(["documents"]) == tmp_path / "env-lib"


def test_calls_through_the_service_match_in_process_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = tmp_path / "lib"
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(
        docs / "tea.pdf", [["Green tea is steeped at 80 degrees."], ["Black tea is steeped at 95 degrees."]]
    )
    lib = ["--library", str(library)]
    assert run_in_process(["ingest", str(docs), *lib, "--json"]) == 0
    capsys.readouterr()
    local: dict[str, tuple[int, str]] = {}
    calls = {
        "search": ["search", "How hot for black tea?", "-k", "2", "--json", *lib],
        "documents": ["documents", "--json", *lib],
        "verify": ["verify", "--json", *lib],
        "empty": ["search", "  ", "--json", *lib],
        "missing": ["remove", "no-such-document", "--json", *lib],
        "reread": ["reread", "--json", *lib],  # nothing read by an earlier version
    }
    for name, argv in calls.items():
        code = run_in_process(argv)
        local[name] = (code, capsys.readouterr().out)

    make_stale_socket(socket_path(library))  # a crashed service's socket: the new one replaces it
    service = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", *lib, "--idle-minutes", "30"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_ready(service)
        for name, argv in calls.items():
            served = folio_cli(*argv)
            code, out = local[name]
            assert served.returncode == code, (name, served.stderr)
            if name in ("search", "documents", "verify"):
                ours, theirs = json.loads(served.stdout), json.loads(out)
                assert without_timing(ours) == without_timing(theirs), name
            else:
                assert served.stdout == out, name
        empty = folio_cli(*calls["empty"])
        assert empty.returncode == 2 and "the question is empty" in empty.stderr
        bypass = folio_cli(*calls["documents"], "--no-server")
        assert bypass.returncode == 0 and json.loads(bypass.stdout) == json.loads(local["documents"][1])
        assert socket_path(library).exists()
    finally:
        service.send_signal(signal.SIGTERM)
        _, log = service.communicate(timeout=120)
    assert service.returncode == 0, log
    for name in ("search", "documents", "verify", "remove", "reread"):
        assert f"folio serve: {name} exit" in log  # the calls above ran in the service
    assert not socket_path(library).exists()
