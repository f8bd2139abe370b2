"""Chat templates: the GGUF's own template in a sandbox, ChatML fallback, the thinking switch."""

from __future__ import annotations

import pytest

from app.core.errors import ModelError
from app.core.generate.template import CHATML_TEMPLATE, ChatTemplate, thinking_support

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi?"}]
SWITCH = (
    "{% for m in messages %}<{{ m['role'] }}>{{ m['content'] }}{% endfor %}"
    "{% if add_generation_prompt %}<assistant>"
    "{% if not enable_thinking %}<think></think>{% endif %}{% endif %}"
)


def test_chatml_fallback_when_the_gguf_has_no_template() -> None:
    template = ChatTemplate(None, bos_token="<s>", eos_token="</s>")
    assert template.is_fallback
    assert template.render(MESSAGES, enable_thinking=False) == (
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi?<|im_end|>\n<|im_start|>assistant\n"
    )
    assert "im_start" in CHATML_TEMPLATE


def test_enable_thinking_reaches_the_template() -> None:
    template = ChatTemplate(SWITCH, bos_token="", eos_token="")
    assert template.render(MESSAGES, enable_thinking=True) == "<system>Be brief.<user>Hi?<assistant>"
    assert template.render(MESSAGES, enable_thinking=False).endswith("<assistant><think></think>")


def test_bos_token_and_raise_exception_are_available() -> None:
    template = ChatTemplate(
        "{{ bos_token }}{% if messages|length > 5 %}{{ raise_exception('too many') }}{% endif %}", "<s>", ""
    )
    assert template.render(MESSAGES, enable_thinking=False) == "<s>"
    with pytest.raises(ModelError, match="too many"):
        template.render(MESSAGES * 3, enable_thinking=False)


def test_template_runs_sandboxed() -> None:
    hostile = "{{ ''.__class__.__mro__[1].__subclasses__() }}"
    with pytest.raises(ModelError, match="failed to render"):
        ChatTemplate(hostile, "", "").render(MESSAGES, enable_thinking=False)


def test_broken_template_is_a_model_error_naming_the_model() -> None:
    with pytest.raises(ModelError, match=r"tiny\.gguf"):
        ChatTemplate("{% for x in %}", "", "", model_name="tiny.gguf")


def test_thinking_support_reports_a_reason() -> None:
    assert thinking_support(SWITCH).supported
    plain = thinking_support("{{ messages }}")
    assert not plain.supported and "enable_thinking" in plain.reason
    always = thinking_support("{{ '<think>' }}")
    assert not always.supported and "always thinks" in always.reason
    assert not thinking_support(None).supported


def test_prompt_ending_inside_a_think_block_starts_in_thinking() -> None:
    assert ChatTemplate.opens_thinking("<|im_start|>assistant\n<think>\n")
    assert not ChatTemplate.opens_thinking("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert not ChatTemplate.opens_thinking("<|im_start|>assistant\n")
