"""The suite's socket guard: a connection off this machine fails, localhost still works."""

from __future__ import annotations

import socket

import pytest


def test_connections_off_this_machine_fail_and_localhost_works() -> None:
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as outside,
        pytest.raises(OSError, match="Folio is offline"),
    ):
        outside.connect(("93.184.215.14", 443))
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
