"""The opening every answer's prompt shares, evaluated into the model's empty KV cache once it loads."""

from __future__ import annotations

from app.core.config import Settings
from app.core.generate.chat_engine import ChatEngine
from app.core.prompt.budget import build_messages
from app.core.prompt.system import NO_PASSAGES, answer_instructions
from app.core.ui_text import chosen_language


def prompt_opening(engine: ChatEngine, settings: Settings) -> list[int]:
    """The tokens every answer's prompt opens with under these settings: the chat template's start
    and the instructions (Settings.prompt_style; a worked example in the interface's script, the
    likeliest script of the questions), up to where the passages begin."""
    sample = "？" if chosen_language(settings.language).startswith("zh") else "?"
    instructions = answer_instructions(settings.prompt_style, sample)
    rendered = engine.render_chat(build_messages(sample, [], [], instructions), False)
    return engine.tokenize_prompt(rendered[: rendered.index(NO_PASSAGES)])


def prime_opening(engine: ChatEngine, settings: Settings) -> int:
    """Make the first question prefill only what follows the prompt's opening: the prefill rate
    measured now if the TTFT budget needs it and none is stored (measuring empties the cache), then
    the opening evaluated into the KV cache. Returns the tokens cached. The caller holds the lock."""
    if settings.ttft_target_s > 0:
        engine.prefill_rate()
    return engine.prime(prompt_opening(engine, settings))
