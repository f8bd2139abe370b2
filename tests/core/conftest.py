"""Fixtures of the core tests: a library whose chunks are a few lines long, and its stored chunks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.config import Settings
from app.core.embed.embedder import Embedder
from app.core.passage import Hit
from app.core.qa import Folio
from app.core.services import build_services


@pytest.fixture
def small_chunks(library_dir: Path, embedder: Embedder) -> Iterator[Folio]:
    """A library whose chunks are a few lines long, so that each page of a small PDF has its own."""
    services = build_services(
        Settings(chunk_tokens=40, chunk_overlap_tokens=0), library_dir, embedder=embedder
    )
    yield services
    services.close()


def stored_chunks(folio: Folio) -> list[Hit]:
    """Every stored chunk of the library's one document, in reading order."""
    hits, _ = folio.library.reader.document_passages(folio.library.documents()[0].id)
    return hits
