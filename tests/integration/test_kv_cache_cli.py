"""`folio ask --json`'s kv_cache object: the real CLI with the fast model, f16 and q8_0, and reuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core import paths
from app.core.config import Settings
from app.core.generate.gguf_header import read_gguf_header
from app.core.generate.kv_cache import kv_shape
from app.core.qa import Folio
from tests.integration.test_ask_cli import QUESTION, ask, ask_folio, folio_process, write_docs

__all__ = ["ask_folio"]  # the fixture, shared with test_ask_cli.py


@pytest.fixture(scope="module")
def kv_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kv-cli")
    library = root / "library"
    proc = folio_process(library, "ingest", str(write_docs(root / "docs")), "--json")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return library


@pytest.mark.slow
@pytest.mark.parametrize("kv_type", ["f16", "q8_0"])
def test_folio_ask_json_reports_the_kv_cache(kv_library: Path, kv_type: str) -> None:
    model = paths.models_dir() / paths.FAST_CHAT_MODEL_FILE
    proc = folio_process(
        kv_library,
        "ask",
        QUESTION,
        "--json",
        "--max-tokens",
        "24",
        "--temperature",
        "0",
        "--model",
        str(model),
        "--kv-cache",
        kv_type,
    )
    stdout, stderr = proc.communicate(timeout=300)
    data = json.loads(stdout)
    assert data["error"] is None, stderr
    kv = data["kv_cache"]
    shape = kv_shape(read_gguf_header(model))
    assert kv["type_k"] == kv["type_v"] == kv_type
    assert kv["n_ctx"] == Settings().n_ctx
    assert kv["bytes"] == shape.bytes(kv["n_ctx"], kv_type, kv_type)
    # a new process: nothing of the prompt was in the cache, all of it was evaluated
    assert kv["reused_tokens"] == 0
    assert kv["evaluated_tokens"] == data["metrics"]["prompt_tokens"] > 0


def test_a_follow_up_reuses_the_prompt_prefix(ask_folio: Folio) -> None:
    code, stdout = ask(ask_folio, QUESTION, "--json", "--max-tokens", "24")
    first = json.loads(stdout)
    assert code in (0, 1) and first["kv_cache"]["type_k"] == "f16"
    code, stdout = ask(
        ask_folio, "And green tea?", "--json", "--max-tokens", "24", "--chat", str(first["chat_id"])
    )
    second = json.loads(stdout)
    kv = second["kv_cache"]
    assert kv["reused_tokens"] > 0, second["budget"]
    assert kv["reused_tokens"] + kv["evaluated_tokens"] == second["metrics"]["prompt_tokens"]
    assert kv["reused_tokens"] == second["budget"]["cached_prompt_tokens"]


def test_an_answer_without_the_model_has_no_kv_cache(ask_folio: Folio) -> None:
    _code, stdout = ask(ask_folio, "Who won the football world cup in 1998?", "--json")
    data = json.loads(stdout)
    assert data["grounded"] is False and data["metrics"]["completion_tokens"] == 0
    assert data["kv_cache"] is None
