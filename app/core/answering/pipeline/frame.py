"""The frame of an answer that only restates its question: its words up to the slot the answer fills."""

from __future__ import annotations

import re

from app.core.prompt.citations import strip_markers
from app.core.script import has_cjk

# The Chinese words that ask (the slot is where the last of them stands: "…要按什么组合键" → "…要按")
_CJK_ASKING = re.compile(
    "哪一年|什么时候|多长时间|多少|多久|多长|多大|多高|多重|多远|多深|多宽|什么|哪些|哪个|哪里|哪儿|哪|几|怎么|如何|谁|何时"
)
# An English sentence that ends where a value would follow ("The command to fix it is [1].")
_LATIN_OPEN_END = re.compile(
    r"\b(?:is|are|was|were|be|to|by|of|at|in|for|from|with|called|named|set to|equal to)$", re.IGNORECASE
)
_CLOSING = " \t\n.。!！?？:：;；,，、*-"
_LEAD_IN = re.compile(r"^(?:根据(?:文档|段落|提供的信息)(?:内容)?[，,]\s*)")


def answer_frame(answer: str) -> str | None:
    """The first sentence of `answer`, markers and closing punctuation dropped, cut just before
    the slot its question's asking word leaves open (Chinese), or ending where a value follows
    (English, "… is"); None when no such frame is there (the answer is not continued)."""
    first = re.split(r"(?<=[.!?。！？])\s+|(?<=[。！？])", strip_markers(answer).strip(), maxsplit=1)[0]
    text = _LEAD_IN.sub("", first.strip().rstrip(_CLOSING))
    if not text:
        return None
    if has_cjk(text):
        slots = list(_CJK_ASKING.finditer(text))
        if slots:
            text = text[: slots[-1].start()].rstrip(_CLOSING)
        elif not text.endswith(("是", "为", "在", "用")):
            return None
        return text if len(text) >= 4 else None
    return text if _LATIN_OPEN_END.search(text) else None
