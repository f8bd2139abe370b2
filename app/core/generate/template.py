"""Render a model's own GGUF chat template in a Jinja2 sandbox (ChatML when it has none)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

from app.core.errors import ModelError
from app.core.messages import QT_TRANSLATE_NOOP

CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
CHATML_STOPS = ("<|im_end|>", "<|im_start|>")  # ChatML's turn markers: a generation stops at either
THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


@dataclass(frozen=True)
class ThinkingSupport:
    """Whether a per-question thinking switch exists, and why (for a disabled GUI control)."""

    supported: bool
    reason: str


def thinking_support(template: str | None) -> ThinkingSupport:
    if template is None:
        return ThinkingSupport(
            False,
            QT_TRANSLATE_NOOP(
                "Core", "the model has no chat template; Folio uses ChatML, which has no thinking switch"
            ),
        )
    if "enable_thinking" in template:
        return ThinkingSupport(
            True, QT_TRANSLATE_NOOP("Core", "the chat template has an enable_thinking switch")
        )
    if THINK_OPEN in template:
        return ThinkingSupport(
            False,
            QT_TRANSLATE_NOOP(
                "Core", "the model always thinks (no enable_thinking switch); its thinking is shown apart"
            ),
        )
    return ThinkingSupport(
        False, QT_TRANSLATE_NOOP("Core", "the model's chat template has no thinking switch (enable_thinking)")
    )


def _tojson(
    value: Any,
    ensure_ascii: bool = False,
    indent: int | None = None,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
) -> str:
    return json.dumps(
        value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
    )


def _raise_exception(message: str) -> None:
    raise jinja2.TemplateError(message)


def _strftime_now(fmt: str) -> str:
    return datetime.now().strftime(fmt)


class ChatTemplate:
    """A compiled chat template; render() is safe for untrusted template text (sandboxed)."""

    def __init__(self, source: str | None, bos_token: str, eos_token: str, model_name: str = "") -> None:
        self.source = source
        self.is_fallback = source is None
        self.bos_token = bos_token
        self.eos_token = eos_token
        self.thinking = thinking_support(source)
        environment = ImmutableSandboxedEnvironment(
            loader=jinja2.BaseLoader(),
            trim_blocks=True,
            lstrip_blocks=True,
            extensions=[jinja2.ext.loopcontrols],
        )
        environment.filters["tojson"] = _tojson
        environment.globals["raise_exception"] = _raise_exception
        environment.globals["strftime_now"] = _strftime_now
        try:
            self._template = environment.from_string(source if source is not None else CHATML_TEMPLATE)
        except jinja2.TemplateError as exc:
            raise ModelError(
                QT_TRANSLATE_NOOP("Core", "the chat template of {0} is not valid: {1}"),
                model_name or "the model",
                exc,
            ) from exc

    def render(
        self, messages: Sequence[dict[str, str]], enable_thinking: bool, add_generation_prompt: bool = True
    ) -> str:
        try:
            return self._template.render(
                messages=list(messages),
                add_generation_prompt=add_generation_prompt,
                enable_thinking=enable_thinking,
                bos_token=self.bos_token,
                eos_token=self.eos_token,
                tools=None,
            )
        except jinja2.TemplateError as exc:
            raise ModelError(
                QT_TRANSLATE_NOOP("Core", "the model's chat template failed to render: {0}"), exc
            ) from exc

    @staticmethod
    def opens_thinking(prompt: str) -> bool:
        """True when the prompt ends inside an open <think> block (the model continues thinking)."""
        open_at = prompt.rfind(THINK_OPEN)
        return open_at >= 0 and prompt.rfind(THINK_CLOSE) < open_at
