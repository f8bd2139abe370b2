"""What changed in a watched folder since the library last saw it: new, changed, deleted, moved, offline.

Pure decision over the files on disk and the library's documents; nothing is written here. A file
is hashed only when its size or modification time says it may differ from its document (or when
it may be a moved document: a new path with the size of a document whose file is gone)."""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from app.core.ingest.pipeline import sha256_of
from app.core.ingest.readers import file_kind
from app.core.store.folders import FolderInfo
from app.core.store.records import DocumentInfo

# A file modified up to this long before its document was stored is hashed again: file systems
# with coarse times (FAT: 2 s) and a file written while it was being read.
MTIME_SLACK_S = 2.0


@dataclass(frozen=True)
class Moved:
    """A document whose file now lives at another path (the same bytes)."""

    document_id: int
    old_path: str
    new_path: str


@dataclass(frozen=True)
class Unreadable:
    """A file of the folder that could not be read; its document (if any) is kept as it is."""

    path: str
    reason: str


@dataclass(frozen=True)
class FolderScan:
    """One folder's differences with the library. `offline`: the folder is not reachable (a removed
    drive, an unmounted share) and nothing else is decided: its documents are kept."""

    folder: str
    offline: bool = False
    offline_reason: str = ""
    new: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    deleted: tuple[DocumentInfo, ...] = ()
    moved: tuple[Moved, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    directories: tuple[str, ...] = ()  # the folder and its subfolders (hidden ones left out)
    documents: int = 0  # documents of the library under the folder (before this scan)
    files: int = 0  # readable-format files found

    @property
    def to_ingest(self) -> list[Path]:
        return [Path(p) for p in (*self.new, *self.changed)]

    @property
    def in_step(self) -> bool:
        """Nothing to do: no new, changed, deleted or moved file."""
        return not (self.new or self.changed or self.deleted or self.moved)

    def to_json(self) -> dict[str, object]:
        return {
            "folder": self.folder,
            "offline": self.offline,
            "offline_reason": self.offline_reason,
            "new": list(self.new),
            "changed": list(self.changed),
            "deleted": [{"id": d.id, "path": d.path} for d in self.deleted],
            "moved": [{"id": m.document_id, "from": m.old_path, "to": m.new_path} for m in self.moved],
            "unreadable": [{"path": u.path, "reason": u.reason} for u in self.unreadable],
            "documents": self.documents,
            "files": self.files,
        }


@dataclass(frozen=True)
class FolderState:
    """A watched folder as the library panel and `folio folders` show it."""

    path: str
    offline: bool
    reason: str  # why it is offline, else ""
    documents: int  # documents of the library under it

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "offline": self.offline,
            "reason": self.reason,
            "documents": self.documents,
        }


def folder_states(folders: Sequence[FolderInfo], documents: Sequence[DocumentInfo]) -> list[FolderState]:
    """Whether each watched folder is reachable, and how many documents it holds (cheap: no walk)."""
    states = []
    for folder in folders:
        count = sum(1 for d in documents if is_under(d.path, folder.path))
        reason = offline_reason(Path(folder.path), count > 0)
        states.append(FolderState(folder.path, bool(reason), reason, count))
    return states


def recount(states: Sequence[FolderState], documents: Sequence[DocumentInfo]) -> list[FolderState]:
    """The states with their document counts taken again from `documents` (no disk access)."""
    return [
        dataclasses.replace(state, documents=sum(1 for d in documents if is_under(d.path, state.path)))
        for state in states
    ]


@dataclass
class _Walk:
    files: list[tuple[Path, os.stat_result]] = field(default_factory=list)
    directories: list[str] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)


def is_under(path: str, folder: str) -> bool:
    """Whether `path` is inside `folder` (both absolute)."""
    return Path(path).is_relative_to(folder) and path != folder


def scan_folder(folder: Path, documents: Sequence[DocumentInfo]) -> FolderScan:
    """Compare `folder` (absolute) with the library's `documents` (all of them: a document whose
    file vanished elsewhere and reappears here, same bytes, is a move)."""
    name = str(folder)
    under = [d for d in documents if is_under(d.path, name)]
    offline = offline_reason(folder, bool(under))
    if offline:
        return FolderScan(name, True, offline, documents=len(under))
    walk = _walk(folder)
    on_disk = {str(path) for path, _ in walk.files}
    by_path = {d.path: d for d in documents}
    unreadable = list(walk.unreadable)
    changed: list[str] = []
    candidates: list[tuple[Path, os.stat_result]] = []
    for path, info in walk.files:
        document = by_path.get(str(path))
        if document is None:
            candidates.append((path, info))
        elif _may_differ(info, document):
            digest = _digest(path, unreadable)
            if digest is not None and digest != document.sha256:
                changed.append(str(path))
    gone_here = [d for d in under if d.path not in on_disk]
    moved, new = _match_moves(candidates, gone_here, documents, name, unreadable)
    moved_ids = {m.document_id for m in moved}
    deleted = tuple(d for d in gone_here if d.id not in moved_ids)
    return FolderScan(
        name,
        new=tuple(new),
        changed=tuple(changed),
        deleted=deleted,
        moved=tuple(moved),
        unreadable=tuple(unreadable),
        directories=tuple(walk.directories),
        documents=len(under),
        files=len(walk.files),
    )


def offline_reason(folder: Path, has_documents: bool) -> str:
    """Why the folder is offline (missing, unreadable, or empty though it held documents: an
    unmounted mount point), or "" when it is reachable."""
    try:
        if not folder.is_dir():
            return "the folder is missing (a removed drive or an unmounted share?)"
        empty = next(os.scandir(folder), None) is None
    except OSError as exc:
        return f"the folder cannot be read: {exc.strerror or exc}"
    if empty and has_documents:  # an unmounted mount point is an empty folder
        return "the folder is empty (is its drive mounted?)"
    return ""


def _walk(folder: Path) -> _Walk:
    """Readable-format files and the subfolders, hidden names left out (as `collect_files`)."""
    walk = _Walk()

    def failed(error: OSError) -> None:
        walk.unreadable.append(Unreadable(str(error.filename), f"cannot list: {error.strerror or error}"))

    for root, dirs, names in os.walk(folder, onerror=failed):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        walk.directories.append(root)
        for file_name in sorted(names):
            path = Path(root) / file_name
            if file_name.startswith(".") or file_kind(path) is None:
                continue
            try:
                info = path.stat()
            except OSError as exc:
                reason = "a link to a missing file" if path.is_symlink() else str(exc.strerror or exc)
                walk.unreadable.append(Unreadable(str(path), reason))
                continue
            if not stat.S_ISREG(info.st_mode):
                walk.unreadable.append(Unreadable(str(path), "not a regular file"))
                continue
            walk.files.append((path, info))
    return walk


def _may_differ(info: os.stat_result, document: DocumentInfo) -> bool:
    stored = document.updated_at
    stored = stored if stored.tzinfo is not None else stored.replace(tzinfo=UTC)  # SQLite: naive UTC
    modified = datetime.fromtimestamp(info.st_mtime, UTC)
    return info.st_size != document.size or modified.timestamp() > stored.timestamp() - MTIME_SLACK_S


def _digest(path: Path, unreadable: list[Unreadable]) -> str | None:
    try:
        return sha256_of(path)
    except OSError as exc:
        unreadable.append(Unreadable(str(path), f"cannot read the file: {exc.strerror or exc}"))
        return None


def _match_moves(
    candidates: list[tuple[Path, os.stat_result]],
    gone_here: list[DocumentInfo],
    documents: Sequence[DocumentInfo],
    folder: str,
    unreadable: list[Unreadable],
) -> tuple[list[Moved], list[str]]:
    """Split the paths unknown to the library into moves (same bytes as a document whose file is
    gone) and new files. Only a path whose size matches such a document is hashed."""
    gone: list[DocumentInfo] | None = None
    moved: list[Moved] = []
    new: list[str] = []
    taken: set[int] = set()
    for path, info in candidates:
        if gone is None and candidates:  # documents elsewhere are looked at once, if needed
            elsewhere = [d for d in documents if not is_under(d.path, folder) and not _exists(d.path)]
            gone = gone_here + elsewhere
        sizes = [d for d in gone or [] if d.size == info.st_size and d.id not in taken]
        digest = _digest(path, unreadable) if sizes else _readable(path, unreadable)
        if digest is None:
            continue
        twin = next((d for d in sizes if d.sha256 == digest), None)
        if twin is not None:
            taken.add(twin.id)
            moved.append(Moved(twin.id, twin.path, str(path)))
        else:
            new.append(str(path))
    return moved, new


def _readable(path: Path, unreadable: list[Unreadable]) -> str | None:
    """ "" when the file opens for reading (its ingestion hashes it), else None with the reason."""
    try:
        with path.open("rb"):
            return ""
    except OSError as exc:
        unreadable.append(Unreadable(str(path), f"cannot read the file: {exc.strerror or exc}"))
        return None


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except OSError:
        return False
