"""Tell a refusal ("the documents do not cover this") from an answer, in English and Chinese."""

from __future__ import annotations

import re

# What the prompt asks the model to say, what the grounding gate says, and the usual paraphrases.
_REFUSAL = re.compile(
    r"(?:documents?|passages?|sources?|context|library|text)s?\b[^.!?\n]{0,60}?\b(?:do(?:es)?\s+not|don't|"
    r"doesn't|never)\s+(?:cover|contain|mention|say|include|provide|answer|address|specify|state)"
    r"|\bno (?:information|mention|answer)\b[^.!?\n]{0,40}?\b(?:documents?|passages?|sources?|context)"
    r"|\b(?:not|never) (?:covered|mentioned|stated|specified) in the (?:documents?|passages?|sources?)"
    r"|\bcannot (?:find|answer)\b[^.!?\n]{0,40}?\b(?:documents?|passages?|sources?)"
    r"|(?:文档|文件|资料|段落|材料|原文)[^。！？\n]{0,20}?(?:没有|未|并未|不)(?:涉及|提到|提及|包含|说明|记载|给出|回答|覆盖)"
    r"|(?:没有|未)(?:找到|提供)[^。！？\n]{0,12}?(?:信息|内容|答案)"
    r"|无法(?:根据|从)[^。！？\n]{0,20}?(?:回答|得知|确定)",
    re.IGNORECASE,
)


def is_refusal(text: str) -> bool:
    """True when `text` says the documents do not answer the question."""
    return _REFUSAL.search(text) is not None
