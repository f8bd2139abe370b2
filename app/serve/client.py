"""The `folio` side of `folio serve`: hand a call to the running service, or say that none runs."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from app.core import paths
from app.core.api import translate
from app.serve.protocol import encode, read_line, shared_env, socket_path, usable_socket_path

CONNECT_TIMEOUT_S = 2.0


def library_from_argv(argv: Sequence[str]) -> Path:
    """The library a call names (`--library DIR` or `--library=DIR`), else the default, resolved
    the way the command itself resolves it."""
    library: str | None = None
    for n, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--library" and n + 1 < len(argv):
            library = argv[n + 1]
        elif arg.startswith("--library="):
            library = arg.split("=", 1)[1]
    chosen = Path(library) if library is not None else paths.default_library_dir()
    return chosen.expanduser().absolute()


def _connect(path: Path) -> socket.socket | None:
    """A connection to a live service; None when there is no socket or it is stale (no listener)."""
    if not usable_socket_path(path) or not path.exists():
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(CONNECT_TIMEOUT_S)
    try:
        conn.connect(os.fspath(path))
    except OSError:  # refused (stale file from a crashed service), not a socket, no permission
        conn.close()
        return None
    conn.settimeout(None)
    return conn


def forward(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int | None:
    """Run `folio ARGV` in the service of its library and return the exit code; None when no
    service runs (or it declines this call), so the caller runs it in-process. Output is identical."""
    out, err = out or sys.stdout, sys.stderr if err is None else err
    conn = _connect(socket_path(library_from_argv(argv)))
    if conn is None:
        return None
    started = False
    try:
        with conn:
            request = {"argv": list(argv), "cwd": os.getcwd(), "env": shared_env()}
            conn.sendall(encode(request))
            buffer = bytearray()
            while True:
                line = read_line(conn, buffer, limit=1 << 30)
                if line is None:
                    if not started:
                        return None  # the service closed before doing anything: run in-process
                    stopped = translate("Cli", "the service stopped before finishing this call")
                    print(f"folio: {stopped}", file=err)
                    return 1
                message = json.loads(line)
                if "fallback" in message:
                    return None
                started = True
                if "exit" in message:
                    return int(message["exit"])
                stream = out if message.get("stream") == "out" else err
                stream.write(message.get("text", ""))
                stream.flush()
    except KeyboardInterrupt:  # closing the connection cancels the call in the service
        with contextlib.suppress(Exception):
            out.flush()
        print("folio: " + translate("Cli", "cancelled"), file=err)
        return 1
    except (OSError, ValueError) as exc:
        if not started:
            return None
        print("folio: " + translate("Cli", "lost the connection to the service: {0}").format(exc), file=err)
        return 1
