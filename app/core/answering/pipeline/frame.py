"""The frame of an answer that only restates its question: its words up to the slot the answer fills."""

from __future__ import annotations

import re

from app.core.prompt.citations import strip_markers
from app.core.script import has_cjk

# The Chinese words that ask; the slot is where the last of them stands ("…要按什么组合键" → "…要按")
ASKING_WORDS = (
    "哪一年|什么时候|多长时间|多少|多久|多长|多大|多高|多重|多远|多深|多宽"
    "|什么|哪些|哪个|哪里|哪儿|哪|几|怎么|如何|谁|何时"
)
_ASKING = re.compile(ASKING_WORDS)
# The continuation of a frame may not open with an asking word (the first characters of ASKING_WORDS,
# or a question mark): unconstrained, the model wrote the asking word back into 6 of 7 frames
# (benchmarks/README.md, "A restatement continued from its frame").
FILL_GRAMMAR = "root ::= [^多哪几什怎如谁何？?] [^\\x00]*"
_CLOSING = " \t\n.。!！?？:：;；,，、*-"
_LEAD_IN = re.compile(r"^根据(?:文档|段落|提供的信息)(?:内容)?[，,]\s*")
_SENTENCE_END = re.compile(r"(?<=[。！？!?])")


def answer_frame(answer: str) -> str | None:
    """The first sentence of a Chinese `answer`, markers, a lead-in ("根据文档内容，") and closing
    punctuation dropped, cut just before the last asking word ("LP-07 …要量取多少毫升的样品去滴定。"
    → "LP-07 …要量取"), or whole when it ends where a value follows ("收件地址是 [1]。" → "收件地址是");
    None for any other answer (it is not continued). English restatements front their asking word
    ("Which tool builds one?") and leave no frame to fill: they are not continued."""
    text = strip_markers(answer).strip()
    if not has_cjk(text):
        return None
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    frame = _LEAD_IN.sub("", first.strip()).rstrip(_CLOSING)
    slots = list(_ASKING.finditer(frame))
    if slots:
        frame = frame[: slots[-1].start()].rstrip(_CLOSING)
    elif not frame.endswith(("是", "为", "在", "用")):
        return None
    return frame if len(frame) >= 4 else None
