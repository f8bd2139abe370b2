"""The question in the library's other language, written by the chat model, for a second search (issue 22)."""

from __future__ import annotations

import re

from app.core.cancel import CancelToken
from app.core.generate.engine import Engine
from app.core.generate.model import Sampling
from app.core.generate.steps import GenerationEnd, TokenStep
from app.core.script import has_cjk

MAX_TOKENS = 64
TARGETS = {True: "English", False: "Simplified Chinese"}  # by whether the question has CJK


# Two examples each way: without them the small bundled model answers the question instead.
EXAMPLES = {
    True: (
        ("这台机器的保修期是多久？", "How long is this machine's warranty?"),
        ("文档里的第一个例子讲了什么？", "What does the first example in the document describe?"),
    ),
    False: (
        ("How long is this machine's warranty?", "这台机器的保修期是多久？"),
        ("What does the first example in the document describe?", "文档里的第一个例子讲了什么？"),
    ),
}


def translation_prompt(question: str) -> list[dict[str, str]]:
    """The chat messages that ask for the question in the other language, and nothing else."""
    cjk = has_cjk(question)
    target = TARGETS[cjk]
    messages = [
        {"role": "system", "content": f"You translate questions into {target}. You never answer them."}
    ]
    for source, translation in EXAMPLES[cjk]:
        messages.append({"role": "user", "content": f"Translate into {target}: {source}"})
        messages.append({"role": "assistant", "content": translation})
    messages.append({"role": "user", "content": f"Translate into {target}: {question}"})
    return messages


def translate_question(engine: Engine, question: str, cancel: CancelToken | None = None) -> str | None:
    """The question in the other language (greedy, at most MAX_TOKENS tokens, one line), or None
    when the model wrote nothing usable or was cancelled. The caller holds the engine's lock."""
    messages = [{**m, "content": engine.escape_special(m["content"])} for m in translation_prompt(question)]
    tokens = engine.tokenize_prompt(engine.render_chat(messages, enable_thinking=False))
    text: list[str] = []
    reason = "error"
    sampling = Sampling(temperature=0.0, max_tokens=MAX_TOKENS)
    for event in engine.stream(tokens, sampling, cancel, stops=("\n",)):
        if isinstance(event, TokenStep):
            text += [piece for channel, piece in event.pieces if channel == "answer"]
        elif isinstance(event, GenerationEnd):
            text += [piece for channel, piece in event.pieces if channel == "answer"]
            reason = event.finish_reason
    line = "".join(text).strip().split("\n")[0].strip().strip('"“”')
    usable = has_cjk(line) if not has_cjk(question) else re.search("[A-Za-z]{2}", line) is not None
    if reason in ("cancelled", "error") or not line or line == question.strip() or not usable:
        return None
    return line
