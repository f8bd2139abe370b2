"""Watched folders (a table of the library, so they move with it) and moving a document to a new path."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import DateTime, Integer, Text, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from app.core.errors import DocumentNotFoundError, UsageError
from app.core.store.base import Base, utcnow
from app.core.store.chats import Message
from app.core.store.file_lock import InterProcessLock
from app.core.store.models import Document


class WatchedFolder(Base):
    """A folder the user added as a folder: Folio keeps the library in step with its files.
    Created by `create_all` in an existing library too (a new table needs no migration)."""

    __tablename__ = "watched_folders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class FolderInfo:
    """A watched folder as listed: where it is and since when."""

    id: int
    path: str
    added_at: datetime

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "path": self.path, "added_at": self.added_at.isoformat()}


class WatchedFolders:
    """Reads and writes of the watched-folder list and of document moves (under the writer lock)."""

    def __init__(self, sessions: sessionmaker[Session], write_lock: InterProcessLock) -> None:
        self.sessions = sessions
        self.write_lock = write_lock

    def list(self) -> list[FolderInfo]:
        with self.sessions() as session:
            rows = session.scalars(select(WatchedFolder).order_by(WatchedFolder.path)).all()
            return [_info(row) for row in rows]

    def add(self, path: str) -> FolderInfo:
        """Watch `path` (an absolute folder path); watching it again returns the existing entry.
        A folder inside (or around) a watched one is refused: its files would be watched twice."""
        with self.write_lock, self.sessions.begin() as session:
            for row in session.scalars(select(WatchedFolder)).all():
                if row.path == path:
                    return _info(row)
                if _inside(path, row.path) or _inside(row.path, path):
                    raise UsageError(f"{path} overlaps the watched folder {row.path}")
            folder = WatchedFolder(path=path, added_at=utcnow())
            session.add(folder)
            session.flush()
            return _info(folder)

    def remove(self, path: str) -> bool:
        """Stop watching `path` (its documents stay in the library); False if it was not watched."""
        with self.write_lock, self.sessions.begin() as session:
            result = session.execute(delete(WatchedFolder).where(WatchedFolder.path == path))
            return bool(getattr(result, "rowcount", 0))

    def move_document(self, document_id: int, new_path: str) -> None:
        """Give a document (a file renamed or moved, same bytes) its new path and name, in one
        transaction; its chunks, vectors and the citations of saved answers are kept, and those
        citations point to the new path."""
        with self.write_lock, self.sessions.begin() as session:
            doc = session.get(Document, document_id)
            if doc is None:
                raise DocumentNotFoundError(f"no document with id {document_id}")
            old_path = doc.path
            doc.path, doc.name, doc.updated_at = new_path, Path(new_path).name, utcnow()
            for message in session.scalars(select(Message).where(Message.role == "assistant")).all():
                cited = message.citations or []
                if not any(c.get("path") == old_path for c in cited):
                    continue
                message.citations = [
                    {**c, "path": new_path, "document": doc.name} if c.get("path") == old_path else c
                    for c in cited
                ]


def _info(row: WatchedFolder) -> FolderInfo:
    added = row.added_at if row.added_at.tzinfo is not None else row.added_at.replace(tzinfo=UTC)
    return FolderInfo(row.id, row.path, added)  # SQLite gives the stored UTC time back without its zone


def _inside(path: str, folder: str) -> bool:
    return Path(path).is_relative_to(folder) and path != folder
