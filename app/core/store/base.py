"""The declarative base every table of the store derives from."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Shared metadata for all ORM tables."""


def utcnow() -> datetime:
    return datetime.now(UTC)
