"""The embedder a library was indexed with, recorded in `meta` on first use and checked after."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from app.core.errors import EmbedderMismatchError
from app.core.messages import QT_TRANSLATE_NOOP
from app.core.store.file_lock import InterProcessLock
from app.core.store.models import Meta
from app.core.store.schema import SCHEMA_VERSION


def bind_embedder(
    sessions: sessionmaker[Session],
    write_lock: InterProcessLock,
    name: str,
    dimension: int,
    identity: str | None = None,
    same_as_legacy: Callable[[], bool] | None = None,
) -> None:
    """Record the embedder on first use; refuse a library indexed with another one.

    `identity` is the hash of the model's weights and config (embed/identity.py): a renamed
    copy of the same model is accepted. A library made before identities were recorded holds
    only the model's folder name; it is upgraded when the name matches or when
    `same_as_legacy()` confirms that the model reproduces the stored vectors."""
    with write_lock, sessions.begin() as session:
        stored = {
            key: row.value
            for key in ("embed_model", "embed_dim", "embed_identity")
            if (row := session.get(Meta, key)) is not None
        }
        if "embed_model" not in stored or "embed_dim" not in stored:
            session.merge(Meta(key="embed_model", value=name))
            session.merge(Meta(key="embed_dim", value=str(dimension)))
            if identity is not None:
                session.merge(Meta(key="embed_identity", value=identity))
            session.merge(Meta(key="schema_version", value=SCHEMA_VERSION))
            return
        same_dimension = stored["embed_dim"] == str(dimension)
        if identity is not None and "embed_identity" in stored:
            same = same_dimension and stored["embed_identity"] == identity
        elif identity is not None:  # a library from before identities: upgrade it if it is ours
            same = same_dimension and (
                stored["embed_model"] == name or (same_as_legacy is not None and same_as_legacy())
            )
            if same:
                session.merge(Meta(key="embed_identity", value=identity))
        else:
            same = same_dimension and stored["embed_model"] == name
        if not same:
            raise EmbedderMismatchError(
                QT_TRANSLATE_NOOP(
                    "Core",
                    "this library was indexed with the embedding model {0!r} ({1} "
                    "dimensions), not {2!r} ({3}); use that model, or re-index the "
                    "documents into a new library (folio reindex-library --into DIR)",
                ),
                stored["embed_model"],
                stored["embed_dim"],
                name,
                dimension,
            )
