"""The composition root: `build_services` wires one library's parts into the `Folio` facades."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.config import Settings, SettingsOwner
from app.core.embed.embedder import Embedder
from app.core.facade.answering import Answering
from app.core.facade.chats import Chats
from app.core.facade.lazy import Lazy
from app.core.facade.library import Library, open_library
from app.core.qa import Folio
from app.core.store.conversations import ConversationStore

if TYPE_CHECKING:
    from app.core.answering.evidence.scoring import Embed
    from app.core.answering.judge.checking import Verifier
    from app.core.answering.judge.policy import Policy
    from app.core.answering.pipeline.model_slot import ModelSlot
    from app.core.answering.pipeline.pipeline import Answerer
    from app.core.answering.pipeline.reader import LibraryReader
    from app.core.embed.engine import CosineScales
    from app.core.generate.chat_engine import ChatEngine

__all__ = ["Checking", "build_services", "words_only"]


@dataclass(frozen=True)
class Checking:
    """How the answerer scores and checks: the word check every sentence starts from, the embedder
    that scores sentences (None: words alone), its cosine scales (None: keywords alone at the
    gate) and the judge's policy."""

    verifier: Verifier
    embed: Embed | None
    scales: CosineScales | None
    policy: Policy


def words_only() -> Checking:
    """Checking by words alone under the default policy: no embedder is loaded for it."""
    from app.core.answering.judge.checking import lexical_verifier
    from app.core.answering.judge.policy import DEFAULT

    return Checking(lexical_verifier, None, None, DEFAULT)


def embedder_checking(library: Library) -> Checking:
    """The library's embedder scores and checks (each text embedded once, `RecentVectors`), under
    the policy calibrated for it (judge/policy.py). Loads the embedder."""
    from app.core.answering.judge.checking import embedding_verifier
    from app.core.answering.judge.policy import policy_for
    from app.core.embed.recent import RecentVectors
    from app.core.retrieve import stored_vectors

    scales = library.embedder.scales
    embed = RecentVectors(library.embedder.embed)  # the check and the judge embed once
    verifier = embedding_verifier(partial(stored_vectors, library.store), embed, scales)
    return Checking(verifier, embed, scales, policy_for(library.embedder.name))


def build_services(
    settings: Settings,
    library_dir: Path,
    *,
    embedder: Embedder | None = None,
    engine: ChatEngine | None = None,
    embedder_for: Callable[[Path], Embedder] | None = None,
    reader: LibraryReader | None = None,
    checking: Checking | None = None,
) -> Folio:
    """The one place the CLI, the GUI, `folio serve`, the self-test and the tests build Folio.
    The store opens now; the embedder (the one given, else the library's own or the settings':
    `library_embedder`) is made but loads at the first search; the model slot and the answering
    pipeline are built at the first question or model load, so the GUI thread imports and loads
    nothing heavy. The tests' overrides: `engine` (a shared model), `reader` (what the answerer
    reads instead of the library), `checking` (e.g. `words_only()`, instead of `embedder_checking`)."""
    settings.validate()
    owner = SettingsOwner(settings)
    library = open_library(owner, library_dir, embedder, embedder_for)
    conversations = ConversationStore(library.store.sessions)
    slot: Lazy[ModelSlot] = Lazy(partial(_model_slot, owner, engine))

    def answerer() -> Answerer:
        from app.core.answering.pipeline.pipeline import Answerer

        checks = checking or embedder_checking(library)
        return Answerer(
            owner,
            conversations,
            reader or library.reader,
            slot.get(),
            checks.verifier,
            checks.embed,
            checks.scales,
            checks.policy,
        )

    return Folio(owner, library, Chats(conversations), Answering(Lazy(answerer), slot))


def _model_slot(settings: SettingsOwner, engine: ChatEngine | None) -> ModelSlot:
    from app.core.answering.pipeline.model_slot import ModelSlot

    return ModelSlot(settings, engine)
