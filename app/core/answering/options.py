"""A question's options resolved once against the current Settings, with config.py's validation."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.answering.evidence.scope import Scope, parse_scope
from app.core.answering.types import AskOptions
from app.core.config import Settings
from app.core.errors import UsageError
from app.core.generate.model import Sampling
from app.core.messages import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class ResolvedAsk:
    """What one question runs with: every per-question override applied to the settings."""

    question: str
    settings: Settings  # the current settings with this question's overrides (validated)
    sampling: Sampling
    thinking: bool
    continue_from: str
    scope: Scope | None = None  # chosen by the user (None: detected from the question)
    selected: str = ""  # the document selected in the window, for "this document"

    @property
    def passages_k(self) -> int:
        return self.settings.passages_k

    @property
    def cite_mode(self) -> str:
        return self.settings.cite_mode


def resolve_options(question: str, options: AskOptions | None, settings: Settings) -> ResolvedAsk:
    """The options over the settings; UsageError names the first invalid value (Settings.validate)."""
    question = question.strip()
    if not question:
        raise UsageError(QT_TRANSLATE_NOOP("Core", "the question is empty"))
    options = options or AskOptions()
    overrides = {
        "temperature": options.temperature,
        "top_k": options.top_k,
        "top_p": options.top_p,
        "min_p": options.min_p,
        "seed": options.seed,
        "max_tokens": options.max_tokens,
        "passages_k": options.passages_k or None,  # 0 means "the setting", as None does
        "cite_mode": options.cite_mode,
    }
    effective = settings.replace(**{name: value for name, value in overrides.items() if value is not None})
    sampling = Sampling(
        temperature=float(effective.temperature),
        top_k=int(effective.top_k),
        top_p=float(effective.top_p),
        min_p=float(effective.min_p),
        repeat_penalty=effective.repeat_penalty,
        seed=int(effective.seed),
        max_tokens=int(effective.max_tokens),
    )
    scope = parse_scope(options.scope)
    if scope is not None and scope.whole and options.continue_from:
        raise UsageError("a whole-document or across-files answer cannot be continued")
    return ResolvedAsk(
        question, effective, sampling, options.thinking, options.continue_from, scope, options.selected
    )
