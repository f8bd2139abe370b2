"""The vector index layouts (exact flat, IVF above a size threshold): round trips, switch-over on
rebuild and on commits, agreement with the store, and IVF recall against flat. Real FAISS and
SQLite at small sizes: a threshold of 5,000 vectors forces IVF."""

from __future__ import annotations

from pathlib import Path

import faiss
import numpy as np
import numpy.typing as npt
import pytest

from app.core.index.consistency import verify_library
from app.core.index.layout import FLAT_BELOW_FRACTION, IndexLayout, ivf_layout, wanted_layout
from app.core.index.sync import apply_change, index_disagreement, open_vector_index, rebuild_index
from app.core.index.vector_index import INDEX_FILE, VectorIndex
from app.core.passage import ChunkDraft
from app.core.store.library import LibraryStore
from app.core.store.records import NewChunk

DIM = 32
THRESHOLD = 5_000


def clustered(n: int, seed: int, topics: int = 100) -> npt.NDArray[np.float32]:
    """Unit vectors around `topics` fixed topic centres (cosine to the centre ~0.7)."""
    centres = np.random.default_rng(99).standard_normal((topics, DIM)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal((n, DIM)).astype(np.float32) / np.sqrt(DIM)
    rows = centres[rng.integers(0, topics, n)] + noise
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def ivf_index(vectors: npt.NDArray[np.float32], ids: npt.NDArray[np.int64]) -> VectorIndex:
    index = VectorIndex.empty(DIM, ivf_layout(len(vectors)), vectors, approximate_from=THRESHOLD)
    index.add(ids, vectors)
    return index


def test_layout_by_size_keeps_its_kind_near_the_threshold() -> None:
    assert wanted_layout(THRESHOLD - 1, None, THRESHOLD).kind == "flat"
    grown = wanted_layout(THRESHOLD, None, THRESHOLD)
    assert grown.kind == "ivf" and grown.nlist == ivf_layout(THRESHOLD).nlist and grown.nprobe >= 1
    shrinking = int(THRESHOLD * FLAT_BELOW_FRACTION)
    assert wanted_layout(shrinking, grown, THRESHOLD) == grown  # no flip-flop just below the threshold
    assert wanted_layout(shrinking - 1, grown, THRESHOLD) == IndexLayout("flat")
    assert wanted_layout(THRESHOLD * 3, grown, THRESHOLD) == grown  # lists kept while it grows a little
    assert wanted_layout(THRESHOLD * 5, grown, THRESHOLD).nlist == ivf_layout(THRESHOLD * 5).nlist


def test_ivf_adds_removes_searches_and_round_trips(tmp_path: Path) -> None:
    vectors = clustered(6_000, seed=1)
    ids = np.arange(1, 6_001, dtype=np.int64) * 7  # ids are not positions
    index = ivf_index(vectors, ids)
    assert index.layout.kind == "ivf" and index.count == 6_000
    assert np.array_equal(np.sort(index.ids()), ids)
    assert index.search(vectors[10], 1)[0][0] == ids[10]
    gone = ids[:100]
    assert index.remove(gone) == 100
    assert index.count == 5_900 and np.array_equal(np.sort(index.ids()), ids[100:])
    assert all(cid not in set(gone.tolist()) for cid, _ in index.search(vectors[5], 50))
    path = tmp_path / INDEX_FILE
    index.save(path)
    loaded = VectorIndex.load(path, DIM)
    assert loaded.layout == index.layout and loaded.layout.nprobe == index.layout.nprobe
    assert np.array_equal(np.sort(loaded.ids()), ids[100:])
    query = clustered(1, seed=5)[0]
    assert loaded.search(query, 10) == index.search(query, 10)
    loaded.add(ids[:100], vectors[:100])
    assert loaded.count == 6_000 and loaded.search(vectors[3], 1)[0][0] == ids[3]


def test_load_refuses_files_folio_does_not_write(tmp_path: Path) -> None:
    path = tmp_path / INDEX_FILE
    faiss.write_index(faiss.IndexHNSWFlat(DIM, 16), str(path))
    with pytest.raises(ValueError, match="IndexHNSWFlat"):
        VectorIndex.load(path, DIM)
    faiss.write_index(faiss.IndexIDMap2(faiss.IndexFlatL2(DIM)), str(path))
    with pytest.raises(ValueError, match="not a flat index"):
        VectorIndex.load(path, DIM)
    l2 = faiss.IndexIVFFlat(faiss.IndexFlatL2(DIM), DIM, 4, faiss.METRIC_L2)
    l2.train(clustered(200, seed=2))
    faiss.write_index(l2, str(path))
    with pytest.raises(ValueError, match="inner-product"):
        VectorIndex.load(path, DIM)
    with pytest.raises(ValueError, match="dimension"):
        VectorIndex.load(path, DIM * 2)


def test_ivf_recall_against_flat_on_clustered_vectors() -> None:
    vectors = clustered(20_000, seed=3)
    ids = np.arange(1, 20_001, dtype=np.int64)
    flat = VectorIndex(DIM)
    flat.add(ids, vectors)
    ivf = ivf_index(vectors, ids)
    queries = clustered(200, seed=4)
    recall = [
        len({c for c, _ in ivf.search(q, 10)} & {c for c, _ in flat.search(q, 10)}) / 10 for q in queries
    ]
    assert np.mean(recall) >= 0.95


def _library(tmp_path: Path) -> LibraryStore:
    store = LibraryStore(tmp_path / "library")
    store.bind_embedder("synthetic", DIM)
    return store


def _write(
    store: LibraryStore, doc: int, vectors: npt.NDArray[np.float32], index: VectorIndex | None = None
) -> None:
    """One document of these vectors; with `index`, kept up to date by the commit hook."""
    drafts = [ChunkDraft(f"chunk {doc}-{n}", n + 1, 0, n + 1, 9, 3) for n in range(len(vectors))]
    chunks = [NewChunk(draft, vector) for draft, vector in zip(drafts, vectors, strict=True)]
    path = store.library_dir / INDEX_FILE
    hook = None if index is None else (lambda change: apply_change(index, store, change, path))
    store.write_document(
        path=f"/d/{doc}.txt",
        name=f"{doc}.txt",
        sha256=f"{doc:064d}",
        kind="txt",
        size=1,
        batches=[chunks[i : i + 500] for i in range(0, len(chunks), 500)],
        on_commit=hook,
    )


def test_rebuild_and_commits_switch_the_layout_and_stay_consistent(tmp_path: Path) -> None:
    store = _library(tmp_path)
    path = store.library_dir / INDEX_FILE
    vectors = clustered(6_000, seed=6)
    for doc in range(6):
        _write(store, doc, vectors[doc * 1_000 : (doc + 1) * 1_000])
    index = rebuild_index(store, DIM, path, approximate_from=THRESHOLD)
    assert index.layout == ivf_layout(6_000) and index_disagreement(index, store) is None
    assert VectorIndex.load(path, DIM).layout == index.layout
    assert verify_library(store, path).report.ok
    # Deleting down to 2,000 chunks (under half the threshold) makes it flat again, in place.
    for info in store.documents()[:4]:
        store.delete_document(info.id, on_commit=lambda change: apply_change(index, store, change, path))
    assert index.layout.kind == "flat" and index_disagreement(index, store) is None
    assert VectorIndex.load(path, DIM).layout.kind == "flat"
    assert index.generation == store.index_generation()
    # Ingesting past the threshold again: the commit that crosses it retrains an IVF.
    for doc in range(10, 13):
        _write(store, doc, clustered(1_000, seed=doc), index)
    assert index.layout.kind == "ivf" and index.count == 5_000 and index_disagreement(index, store) is None
    assert VectorIndex.load(path, DIM).layout == index.layout
    assert verify_library(store, path).report.ok
    # A flat file for a library over the threshold is rebuilt as IVF when opened, with a notice.
    flat = VectorIndex(DIM)
    for ids, blob in store.iter_embeddings():
        flat.add(ids, np.frombuffer(blob, dtype=np.float32).reshape(len(ids), DIM))
    flat.save(path)
    notices: list[str] = []
    opened = open_vector_index(store, DIM, path, notices.append, approximate_from=THRESHOLD)
    assert opened.layout.kind == "ivf" and index_disagreement(opened, store) is None
    assert len(notices) == 1 and "ivf index" in notices[0]
    # ... and an IVF file under its own threshold opens as it is.
    notices.clear()
    again = open_vector_index(store, DIM, path, notices.append, approximate_from=THRESHOLD)
    assert again.layout == opened.layout and not notices
    store.close()
