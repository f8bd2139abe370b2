"""The model list Settings offers comes from a real llama-cpp-python server's /v1/models."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.errors import ServerError, UsageError
from app.core.generate.remote import list_server_models
from tests.integration.llama_server import MODEL_NAME, LlamaServer, free_port

KEY = "sk-test-list-models"


@pytest.fixture(scope="module")
def keyed_server(smollm_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    running = LlamaServer(smollm_path, tmp_path_factory.mktemp("server") / "server.log", 512, KEY).start()
    yield running
    running.stop()


def test_the_servers_models_are_listed_and_each_failure_says_why(keyed_server: LlamaServer) -> None:
    assert list_server_models(keyed_server.url, KEY) == [MODEL_NAME]
    assert list_server_models(keyed_server.url + "/v1/", KEY) == [MODEL_NAME]  # the address as often pasted
    with pytest.raises(ServerError) as refused:
        list_server_models(keyed_server.url, "sk-wrong")
    assert refused.value.kind == "auth" and "refused the API key (HTTP 401)" in str(refused.value)
    assert "sk-wrong" not in str(refused.value)
    with pytest.raises(ServerError) as down:
        list_server_models(f"http://127.0.0.1:{free_port()}", None)
    assert down.value.kind == "unreachable" and "connection refused" in str(down.value)
    with pytest.raises(UsageError, match="must start with http"):
        list_server_models("127.0.0.1:8080", None)
