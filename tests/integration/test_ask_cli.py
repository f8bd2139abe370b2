"""`folio ask` (ARCHITECTURE.md §4) on a real small library: JSON, plain streaming, exit codes, Ctrl+C."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli_ask import run_ask
from app.cli_parser import build_parser
from app.core import paths
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.generate.engine import Engine
from app.core.qa import Folio
from app.core.services import build_services

TEA = (
    "# Tea\n\nGreen tea is steeped at 80 degrees Celsius for two minutes.\n\n"
    "Black tea is steeped at 95 degrees Celsius for four minutes.\n"
)
CACHE = (
    "# Inference\n\nThe KV cache stores the keys and values of earlier tokens, "
    "so decoding does not recompute them.\n"
)
METRICS_LINE = re.compile(
    r"^ttft \d+ ms · (?:[\d.]+|–) tok/s · \d+ tokens · (stop|length|cancelled)$", re.MULTILINE
)
QUESTION = "At what temperature is black tea steeped?"


def write_docs(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tea.md").write_text(TEA, encoding="utf-8")
    (folder / "cache.md").write_text(CACHE, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def ask_folio(
    tmp_path_factory: pytest.TempPathFactory, embedder: Embedder, chat_engine: Engine
) -> Iterator[Folio]:
    root = tmp_path_factory.mktemp("ask-cli")
    settings = Settings(n_ctx=chat_engine.n_ctx, n_threads=chat_engine.n_threads, temperature=0.0)
    folio = build_services(settings, root / "library", embedder=embedder, engine=chat_engine)
    report = folio.library.ingest([write_docs(root / "docs")])
    assert not report.failed
    yield folio
    folio.close()


def ask(folio: Folio, *argv: str) -> tuple[int, str]:
    args = build_parser().parse_args(["ask", *argv])
    out = io.StringIO()
    code = run_ask(args, folio, out)
    return code, out.getvalue()


def test_json_answer_has_valid_citations_and_full_metrics(ask_folio: Folio) -> None:
    """What SmolLM2 writes greedily depends on the CPU kernels' rounding (under the zen4 kernels it
    cited nothing here): the answer's citations are checked when it has any, each of them, while the
    sentence Folio locates, the document's structure and the metrics hold for any answer."""
    code, stdout = ask(ask_folio, QUESTION, "--json", "--max-tokens", "64")
    data = json.loads(stdout)
    assert code == (0 if data["finish_reason"] == "stop" else 1)
    assert data["grounded"] is True and data["error"] is None and data["answer"].strip()
    hits = {
        hit.chunk_id: hit for hit in ask_folio.library.search(QUESTION, ask_folio.settings.passages_k).hits
    }
    best = data["located"][0]  # found before the model's first word, whatever the model then writes
    assert "Black tea is steeped at 95 degrees" in best["sentence"]
    assert hits[best["chunk_id"]].document == "tea.md"
    assert {c["n"] for c in data["citations"]} >= {n for s in data["sentences"] for n in s["citations"]}
    for citation in data["citations"]:
        hit = hits[citation["chunk_id"]]
        assert "Black tea" in hit.text
        assert citation["document"] == hit.document and hit.page <= citation["page"] <= hit.page_end
        assert citation["text"] == hit.text
    metrics = data["metrics"]
    assert (
        metrics["ttft_ms"] > 0 and metrics["prompt_tokens"] > 0 and metrics["total_ms"] >= metrics["ttft_ms"]
    )
    if metrics["completion_tokens"] > 1:
        assert metrics["tokens_per_s"] > 0 and metrics["tpot_ms"] > 0
    assert data["budget"]["passages_used"]


def test_plain_mode_streams_then_prints_the_metrics_line(ask_folio: Folio) -> None:
    code, stdout = ask(ask_folio, QUESTION, "--max-tokens", "2")
    assert code == 1
    assert "[cut off: the answer reached the maximum number of tokens]" in stdout
    match = METRICS_LINE.search(stdout)
    assert match is not None and match.group(1) == "length"
    assert " 2 tokens · length" in stdout


def test_tiny_max_tokens_in_json_is_incomplete_and_exits_1(ask_folio: Folio) -> None:
    code, stdout = ask(ask_folio, QUESTION, "--json", "--max-tokens", "1")
    data = json.loads(stdout)
    assert code == 1 and data["finish_reason"] == "length" and data["complete"] is False


def test_unanswerable_question_is_answered_without_the_model(ask_folio: Folio) -> None:
    code, stdout = ask(ask_folio, "Who won the football world cup in 1998?", "--json")
    data = json.loads(stdout)
    assert code == 0 and data["grounded"] is False and data["finish_reason"] == "stop"
    assert data["answer"] == "The documents in your library do not cover this question."
    assert data["metrics"]["completion_tokens"] == 0


def test_missing_model_names_the_file_and_exits_1(
    ask_folio: Folio, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = ask(ask_folio, QUESTION, "--model", str(tmp_path / "nowhere.gguf"))
    assert code == 1
    assert "nowhere.gguf" in capsys.readouterr().err
    assert ask_folio.answering.load_model().name == "SmolLM2-135M-Instruct.Q4_1.gguf"


def test_missing_model_in_json_mode_still_prints_one_json_document(ask_folio: Folio, tmp_path: Path) -> None:
    code, stdout = ask(ask_folio, QUESTION, "--json", "--model", str(tmp_path / "nowhere.gguf"))
    data = json.loads(stdout)
    assert code == 1 and data["finish_reason"] == "error" and "nowhere.gguf" in data["error"]


def test_bad_option_value_is_a_usage_error(ask_folio: Folio) -> None:
    code, _ = ask(ask_folio, QUESTION, "--temperature", "-3")
    assert code == 2


def folio_process(library: Path, *argv: str) -> subprocess.Popen[str]:
    env = dict(os.environ, FOLIO_LIBRARY=str(library), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=env,
    )


@pytest.fixture(scope="module")
def cli_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ask-cli-process")
    library = root / "library"
    proc = folio_process(library, "ingest", str(write_docs(root / "docs")), "--json")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return library


@pytest.mark.slow
def test_folio_ask_json_process_prints_one_json_document(cli_library: Path) -> None:
    proc = folio_process(cli_library, "ask", QUESTION, "--json", "--max-tokens", "48", "--temperature", "0")
    stdout, stderr = proc.communicate(timeout=300)
    data = json.loads(stdout)  # stdout holds the JSON document and nothing else
    assert proc.returncode == (0 if data["finish_reason"] == "stop" else 1), stderr
    assert data["model"] == paths.DEFAULT_CHAT_MODEL_FILE
    assert data["chat_id"] is not None and data["message_id"] is not None


@pytest.mark.slow
def test_ctrl_c_stops_the_answer_and_prints_it_marked_as_stopped(cli_library: Path) -> None:
    proc = folio_process(
        cli_library, "ask", "Explain in a long essay how black tea is made.", "--max-tokens", "3000"
    )
    assert proc.stdout is not None
    first = proc.stdout.read(1)  # the answer has started streaming
    assert first
    proc.send_signal(signal.SIGINT)
    rest, stderr = proc.communicate(timeout=120)
    stdout = first + rest
    assert proc.returncode == 1, stderr
    assert "[stopped: the answer was cancelled and is incomplete]" in stdout
    match = METRICS_LINE.search(stdout)
    assert match is not None and match.group(1) == "cancelled"
    assert "Traceback" not in stderr
