"""The embedder's identity is its weights and config: renamed copies bind, other models are refused."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from app.core.embed.binding import bind_library_embedder, reproduces_stored_vectors
from app.core.embed.embedder import Embedder
from app.core.embed.identity import model_identity
from app.core.errors import EmbedderMismatchError
from app.core.ingest.chunker import ChunkDraft
from app.core.store.database import STORE_FILE
from app.core.store.library import LibraryStore
from app.core.store.records import NewChunk


def _linked_copy(model: Path, target: Path) -> Path:
    """The same model files under another folder name (file symlinks, no 90 MB copy)."""
    for source in model.rglob("*"):
        if source.is_file():
            out = target / source.relative_to(model)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.symlink_to(source.resolve())
    return target


def _other_config_copy(model: Path, target: Path) -> Path:
    """The same weights with another max_seq_length: another model as far as vectors go."""
    _linked_copy(model, target)
    config = target / "sentence_bert_config.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    config.unlink()
    data["max_seq_length"] = int(data["max_seq_length"]) // 2
    config.write_text(json.dumps(data), encoding="utf-8")
    return target


def _write_chunks(store: LibraryStore, embedder: Embedder, texts: list[str]) -> None:
    vectors = embedder.embed(texts)
    chunks = [
        NewChunk(ChunkDraft(t, n + 1, 0, n + 1, len(t), 5), v)
        for n, (t, v) in enumerate(zip(texts, vectors, strict=True))
    ]
    store.write_document(
        path="/docs/a.txt", name="a.txt", sha256="0" * 64, kind="txt", size=1, batches=[chunks]
    )


def _forget_identity(library: Path, model_name: str) -> None:
    """Make the library look like one written before identities were recorded."""
    with sqlite3.connect(library / STORE_FILE) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'embed_identity'")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'embed_model'", (model_name,))


def test_identity_ignores_folder_name_and_documentation(embed_model_path: Path, tmp_path: Path) -> None:
    original = model_identity(embed_model_path)
    assert original.startswith("sha256:") and len(original) == len("sha256:") + 64
    renamed = _linked_copy(embed_model_path, tmp_path / "my-renamed-model")
    readme = renamed / "README.md"
    readme.unlink(missing_ok=True)  # a link to the installed model's file: never write through it
    readme.write_text("notes about this copy\n", encoding="utf-8")
    assert model_identity(renamed) == original
    assert model_identity(_other_config_copy(embed_model_path, tmp_path / "other")) != original
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no model files"):
        model_identity(empty)


def test_renamed_model_binds_and_another_model_is_refused(
    embedder: Embedder, embed_model_path: Path, tmp_path: Path
) -> None:
    library = tmp_path / "library"
    store = LibraryStore(library)
    bind_library_embedder(store, embedder)
    assert store.meta("embed_identity") == embedder.identity
    _write_chunks(store, embedder, ["Apples grow on trees.", "Bananas are tropical."])

    renamed = Embedder(_linked_copy(embed_model_path, tmp_path / "renamed"))
    bind_library_embedder(store, renamed)  # same weights and config under another name: accepted

    other = Embedder(_other_config_copy(embed_model_path, tmp_path / "other"))
    with pytest.raises(EmbedderMismatchError, match=r"all-MiniLM-L6-v2.*reindex-library"):
        bind_library_embedder(store, other)
    assert store.meta("embed_identity") == embedder.identity  # unchanged by the refusal
    store.close()


def test_library_from_before_identities_is_upgraded_only_for_its_own_model(
    embedder: Embedder, embed_model_path: Path, tmp_path: Path
) -> None:
    library = tmp_path / "library"
    store = LibraryStore(library)
    bind_library_embedder(store, embedder)
    _write_chunks(store, embedder, ["灯塔高三十一米。", "The mill pond froze in 1893."])
    store.close()
    _forget_identity(library, "an-old-folder-name")

    # The folder name differs, but the model reproduces the stored vectors: upgraded.
    store = LibraryStore(library)
    renamed = Embedder(_linked_copy(embed_model_path, tmp_path / "renamed"))
    assert reproduces_stored_vectors(store, renamed)
    bind_library_embedder(store, renamed)
    assert store.meta("embed_identity") == embedder.identity
    store.close()


def test_old_library_with_vectors_of_another_model_is_refused(embedder: Embedder, tmp_path: Path) -> None:
    library = tmp_path / "library"
    store = LibraryStore(library)
    bind_library_embedder(store, embedder)
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((2, embedder.dimension)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts = ["Apples grow on trees.", "Bananas are tropical."]
    chunks = [NewChunk(ChunkDraft(t, 1, 0, 1, len(t), 5), v) for t, v in zip(texts, vectors, strict=True)]
    store.write_document(
        path="/docs/b.txt", name="b.txt", sha256="1" * 64, kind="txt", size=1, batches=[chunks]
    )
    store.close()
    _forget_identity(library, "some-other-model")

    store = LibraryStore(library)
    assert not reproduces_stored_vectors(store, embedder)
    with pytest.raises(EmbedderMismatchError, match="some-other-model"):
        bind_library_embedder(store, embedder)
    assert store.meta("embed_identity") is None  # nothing recorded for a refused model
    store.close()
