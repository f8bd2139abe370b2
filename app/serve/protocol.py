"""The wire format between `folio` and `folio serve`: one JSON object per line over a Unix socket.

client → server: {"argv": [...], "cwd": "...", "env": {...}}
server → client: {"stream": "out" | "err", "text": "..."}… then {"exit": code}
                 or {"fallback": reason}: the server will not run this call; run it in-process.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

SOCKET_NAME = "folio.sock"
MAX_SOCKET_PATH = 100  # AF_UNIX paths hold 108 bytes on Linux, 104 on macOS
MAX_REQUEST_BYTES = 1 << 20
# The environment that changes what a call means: the server only runs calls that agree with it.
SHARED_ENV = ("FOLIO_CONFIG_DIR", "FOLIO_MODELS", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")


def socket_path(library_dir: Path) -> Path:
    return library_dir / SOCKET_NAME


def usable_socket_path(path: Path) -> bool:
    return hasattr(socket, "AF_UNIX") and len(os.fsencode(path)) <= MAX_SOCKET_PATH


def shared_env() -> dict[str, str]:
    return {key: os.environ[key] for key in SHARED_ENV if key in os.environ}


def encode(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8")


def read_line(conn: socket.socket, buffer: bytearray, limit: int = MAX_REQUEST_BYTES) -> bytes | None:
    """The next line (without its newline) from `conn`, `buffer` holding what was read past it;
    None at end of stream. ValueError for a line longer than `limit`."""
    while True:
        end = buffer.find(b"\n")
        if end >= 0:
            line = bytes(buffer[:end])
            del buffer[: end + 1]
            return line
        if len(buffer) > limit:
            raise ValueError("message too long")
        chunk = conn.recv(65536)
        if not chunk:
            return None
        buffer.extend(chunk)
