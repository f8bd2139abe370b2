"""Keep a process's vector index in agreement with the store (the truth): open it, follow the
store's index generation (other processes' writes), apply own changes, rebuild when it disagrees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from app.core.index.layout import APPROXIMATE_FROM, TRAINING_POINTS_PER_LIST, IndexLayout, wanted_layout
from app.core.index.vector_index import VectorIndex
from app.core.messages import QT_TRANSLATE_NOOP
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


def rebuild_index(
    store: LibraryStore,
    dimension: int,
    index_path: Path,
    approximate_from: int = APPROXIMATE_FROM,
    current: IndexLayout | None = None,
) -> VectorIndex:
    """A new index from the embeddings stored with the chunks, in the layout the library's size
    calls for (layout.py; `current` is the layout in use, for its hysteresis), saved atomically
    (under the writer lock: no other process changes the store or writes the file meanwhile).
    An IVF is trained from the stored vectors, never by embedding again. Slow for big libraries
    (a k-means): call it from a worker, never from the GUI thread."""
    with store.write_lock:
        generation = store.index_generation()
        chunk_ids = store.all_chunk_ids()
        layout = wanted_layout(len(chunk_ids), current, approximate_from)
        training = _training_sample(store, chunk_ids, layout, dimension) if layout.kind == "ivf" else None
        index = VectorIndex.empty(dimension, layout, training, approximate_from)
        for ids, blob in store.iter_embeddings():
            vectors = np.frombuffer(blob, dtype=np.float32).reshape(len(ids), dimension)
            index.add(ids, vectors)
        index.generation = generation
        index.save(index_path)
    return index


def _training_sample(
    store: LibraryStore, chunk_ids: np.ndarray, layout: IndexLayout, dimension: int
) -> np.ndarray:
    """A seeded random sample of the stored vectors, TRAINING_POINTS_PER_LIST per IVF list."""
    size = min(len(chunk_ids), layout.nlist * TRAINING_POINTS_PER_LIST)
    chosen = np.sort(np.random.default_rng(0).choice(chunk_ids, size, replace=False))
    found, blob = store.embeddings_of(chosen)
    return np.frombuffer(blob, dtype=np.float32).reshape(len(found), dimension)


def relayout_if_due(index: VectorIndex, store: LibraryStore, index_path: Path) -> bool:
    """Rebuild `index` in place from the store when its size calls for another layout (flat grown
    past the threshold, IVF shrunk well below it or outgrown its lists). The caller holds the
    writer lock and the index is current. Returns whether it was rebuilt (and saved)."""
    if wanted_layout(index.count, index.layout, index.approximate_from) == index.layout:
        return False
    rebuilt = rebuild_index(store, index.dimension, index_path, index.approximate_from, index.layout)
    with index.lock:
        index.take_over(rebuilt)
        index.generation = rebuilt.generation
    return True


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
    always holds every process's writes. When the library has crossed the size threshold the
    index is rebuilt in the other layout (in the writer's worker thread, like the commit)."""
    with index.lock:
        if index.generation == change.before:
            index.remove(change.removed)
            if len(change.added):
                found, blob = store.embeddings_of(change.added)
                index.add(found, np.frombuffer(blob, dtype=np.float32).reshape(len(found), index.dimension))
            index.generation = change.after
        else:
            refresh_index(index, store)
    if not relayout_if_due(index, store, index_path):
        index.save(index_path)


def open_vector_index(
    store: LibraryStore,
    dimension: int,
    index_path: Path,
    notify: Callable[[str], None],
    approximate_from: int = APPROXIMATE_FROM,
) -> VectorIndex:
    """Load the index file; if it is missing, unreadable, disagrees with the store or is of the
    wrong layout for the library's size, rebuild it and say why through `notify` (call it from a
    worker: a rebuild can take a while). Done under the writer lock, so a file another process is
    about to save after its commit is not mistaken for a damaged one."""
    reason: str | None
    with store.write_lock:
        if not index_path.exists():
            reason = None if store.chunk_count() == 0 else "the index file is missing"
            index = VectorIndex(dimension, approximate_from=approximate_from)
        else:
            try:
                index = VectorIndex.load(index_path, dimension, approximate_from)
                reason = None
            except ValueError as exc:
                index = VectorIndex(dimension, approximate_from=approximate_from)
                reason = str(exc)
        if reason is None:
            mismatch = index_disagreement(index, store)
            reason = f"the index disagrees with the store ({mismatch})" if mismatch else None
        current = index.layout if reason is None else None
        wanted = wanted_layout(index.count, current, approximate_from)
        if current is not None and wanted != current:
            lists = f" of {wanted.nlist} lists" if wanted.kind == "ivf" else ""
            reason = f"{index.count} vectors call for a {wanted.kind} index{lists}"
        if reason is None:
            index.generation = store.index_generation()
            return index
        rebuilt = rebuild_index(store, dimension, index_path, approximate_from, current)
    notify(
        QT_TRANSLATE_NOOP("Core", "vector index rebuilt from the store")
        + f": {reason}; now {rebuilt.count} vectors"
    )
    return rebuilt
