"""A re-indexed library put in the place of the one it was read from; the old one kept beside it."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path


def reindex_folder(library_dir: Path) -> Path:
    """The folder beside a library that the window re-indexes it into (emptied of any earlier try)."""
    folder = library_dir.with_name(library_dir.name + ".reindexing")
    if folder.exists():
        shutil.rmtree(folder)
    return folder


def replace_library(library_dir: Path, reindexed: Path) -> Path:
    """Put the re-indexed library in the place of the old one, which is kept beside it (renamed
    with the time: nothing of the user's is deleted). The old library must be closed. Returns
    where the old library is now."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = library_dir.with_name(f"{library_dir.name}.before-reindex-{stamp}")
    library_dir.rename(kept)
    try:
        reindexed.rename(library_dir)
    except OSError:
        kept.rename(library_dir)  # the old library back where it was
        raise
    return kept
