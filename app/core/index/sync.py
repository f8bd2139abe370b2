"""Keep a process's vector index in agreement with the store (the truth): open it, follow the
store's index generation (other processes' writes), apply own changes, rebuild when it disagrees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from app.core.index.vector_index import VectorIndex
from app.core.store.library import LibraryStore
from app.core.store.records import VectorChange


def index_disagreement(index: VectorIndex, store: LibraryStore) -> str | None:
    """Why the index does not match the store's chunks, or None when it does."""
    ids = store.all_chunk_ids()
    if index.count != len(ids):
        return f"it holds {index.count} vectors for {len(ids)} chunks"
    if not np.array_equal(np.sort(index.ids()), ids):
        return "its chunk ids differ from the store's"
    return None


def rebuild_index(store: LibraryStore, dimension: int, index_path: Path) -> VectorIndex:
    """A new index from the embeddings stored with the chunks, saved atomically (under the
    writer lock: no other process changes the store or writes the file meanwhile)."""
    with store.write_lock:
        index = VectorIndex(dimension)
        generation = store.index_generation()
        for ids, blob in store.iter_embeddings():
            vectors = np.frombuffer(blob, dtype=np.float32).reshape(len(ids), dimension)
            index.add(ids, vectors)
        index.generation = generation
        index.save(index_path)
    return index


def refresh_index(index: VectorIndex, store: LibraryStore) -> int:
    """Bring `index` up to the store's generation if it moved (another process wrote): remove the
    vectors of deleted chunks, add those of new chunks from the store. Returns how many vectors
    changed. Cheap when nothing moved: one read of the generation."""
    if store.index_generation() == index.generation:
        return 0
    with index.lock:
        generation, ids = store.chunk_ids_at_generation()
        if generation == index.generation:
            return 0
        have = index.ids()
        gone = np.setdiff1d(have, ids, assume_unique=True)
        new = np.setdiff1d(ids, have, assume_unique=True)
        index.remove(gone)
        found, blob = store.embeddings_of(new)
        index.add(found, np.frombuffer(blob, dtype=np.float32).reshape(len(found), index.dimension))
        index.generation = generation
        return len(gone) + len(found)


def apply_change(index: VectorIndex, store: LibraryStore, change: VectorChange, index_path: Path) -> None:
    """After a commit (the caller holds the writer lock): apply the change if this copy was
    current just before it, else catch up from the store; then save, so the file on disk
    always holds every process's writes."""
    with index.lock:
        if index.generation == change.before:
            index.remove(change.removed)
            if len(change.added):
                found, blob = store.embeddings_of(change.added)
                index.add(found, np.frombuffer(blob, dtype=np.float32).reshape(len(found), index.dimension))
            index.generation = change.after
        else:
            refresh_index(index, store)
        index.save(index_path)


def open_vector_index(
    store: LibraryStore, dimension: int, index_path: Path, notify: Callable[[str], None]
) -> VectorIndex:
    """Load the index file; if it is missing, unreadable or disagrees with the store, rebuild it
    and say why through `notify`. Done under the writer lock, so a file another process is about
    to save after its commit is not mistaken for a damaged one."""
    reason: str | None
    with store.write_lock:
        if not index_path.exists():
            reason = None if store.chunk_count() == 0 else "the index file is missing"
            index = VectorIndex(dimension)
        else:
            try:
                index = VectorIndex.load(index_path, dimension)
                reason = None
            except ValueError as exc:
                index = VectorIndex(dimension)
                reason = str(exc)
        if reason is None:
            mismatch = index_disagreement(index, store)
            reason = f"the index disagrees with the store ({mismatch})" if mismatch else None
        if reason is None:
            index.generation = store.index_generation()
            return index
        rebuilt = rebuild_index(store, dimension, index_path)
    notify(f"vector index rebuilt from the store: {reason}; now {rebuilt.count} vectors")
    return rebuilt
