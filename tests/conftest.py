"""Shared fixtures: every test runs against tmp dirs, with the real bundled models."""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core import paths
from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.ingest.pipeline import IngestReport
from app.core.qa import Folio
from app.core.services import build_services

REPO = Path(__file__).resolve().parents[1]
# ../shared beside the checkout; FOLIO_SHARED names it when the checkout is a worktree elsewhere.
SHARED = Path(os.environ.get("FOLIO_SHARED", str(REPO.parent / "shared")))
PDF_SAMPLES = SHARED / "pdf-samples"
CJK_BOOK = PDF_SAMPLES / "cjk" / "debian-reference.zh-cn.pdf"

pytest_plugins = ["tests.core.conftest_answer"]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The suite asserts English texts whatever the machine's locale (the window and the CLI follow it);
# the tests of the Chinese interface ask for Chinese themselves (Settings.language, LANG).
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _local_only(address: object) -> None:
    """Folio is offline: the suite fails on any connection that leaves this machine."""
    if isinstance(address, (str, bytes)):  # AF_UNIX
        return
    host = str(address[0]) if isinstance(address, tuple) else str(address)  # type: ignore[index]
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host.split("%")[0]).is_loopback:
            return
    except ValueError:
        pass
    raise OSError(f"network access in a test: connection to {address!r} refused (Folio is offline)")


def _guarded_connect(self: socket.socket, address: object) -> None:
    _local_only(address)
    _real_connect(self, address)  # type: ignore[arg-type]


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    _local_only(address)
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


socket.socket.connect = _guarded_connect  # type: ignore[method-assign,assignment]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign,assignment]


@pytest.fixture(scope="session", autouse=True)
def _session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One cache dir for the whole run (the embedder's load cache is made once, not per test), never
    the user's; the CLI processes the tests start inherit it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOLIO_CACHE_DIR", str(tmp_path_factory.mktemp("user-cache")))
        yield


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never touch the user's real library or settings."""
    monkeypatch.setenv("FOLIO_LIBRARY", str(tmp_path / "user-library"))
    monkeypatch.setenv("FOLIO_CONFIG_DIR", str(tmp_path / "user-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))


@pytest.fixture(scope="session")
def models_dir() -> Path:
    folder = paths.models_dir()
    if not all(
        (folder / name).is_file() for name in (paths.DEFAULT_CHAT_MODEL_FILE, paths.FAST_CHAT_MODEL_FILE)
    ):
        pytest.fail(f"default models missing in {folder}: run `make setup`")
    return folder


@pytest.fixture(scope="session")
def chat_model_path(models_dir: Path) -> Path:
    """The fast model (SmolLM2) for the tests of the machinery; tests/integration/test_cited_answers.py
    and the self-test hold the default model to right answers."""
    return models_dir / paths.FAST_CHAT_MODEL_FILE


@pytest.fixture(scope="session")
def embed_model_path(models_dir: Path) -> Path:
    """all-MiniLM-L6-v2: the tests of the machinery were written against it (the default of new
    libraries, USE multilingual, has tests of its own: test_cross_language.py, test_embedder_default.py)."""
    return models_dir / paths.ENGLISH_EMBED_MODEL_DIR


@pytest.fixture(scope="session")
def embedder(embed_model_path: Path) -> Embedder:
    """The real all-MiniLM-L6-v2, loaded once for the whole session."""
    model = Embedder(embed_model_path)
    model.load()
    return model


@pytest.fixture(scope="session")
def multilingual_embedder(models_dir: Path) -> Embedder:
    """The real USE multilingual v3, the default of new libraries, loaded once for the session."""
    folder = models_dir / paths.DEFAULT_EMBED_MODEL_DIR
    if not folder.is_dir():
        pytest.fail(f"{folder} is missing: run `make setup`")
    model = Embedder(folder)
    model.load()
    return model


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return tmp_path / "library"


@pytest.fixture
def folio(library_dir: Path, embedder: Embedder) -> Iterator[Folio]:
    services = build_services(Settings(), library_dir, embedder=embedder)
    yield services
    services.close()


@pytest.fixture(scope="session")
def samples_library(
    tmp_path_factory: pytest.TempPathFactory, embedder: Embedder
) -> Iterator[tuple[Folio, IngestReport]]:
    """All of ../shared/pdf-samples (the 251-page Chinese book included), ingested once."""
    if not PDF_SAMPLES.is_dir():
        pytest.fail(f"{PDF_SAMPLES} is missing")
    services = build_services(Settings(), tmp_path_factory.mktemp("samples") / "library", embedder=embedder)
    report = services.library.ingest([PDF_SAMPLES])
    yield services, report
    services.close()
