"""Which earlier turns of a chat the prompt shows: only for a follow-up that depends on them, never
an answer Folio found unsupported, and with the question's own language asked for."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from app.core.answering.evidence.gate import question_terms
from app.core.keywords import is_number
from app.core.script import cjk_language, has_cjk
from app.core.store.conversations import Turn

# A question that opens like this goes on from the one before ("And why?", "What about the S5?").
_GOES_ON = re.compile(
    r"^\W*(?:and|but|so|then|also|what about|how about|why not|which one)\b"
    r"|^\W*(?:那|那么|还有|另外|而|但|所以|为什么呢|它|它们|其|这个|那个)",
    re.IGNORECASE,
)
# ...and so does one that names at most this many content words (Latin questions),
FEW_TERMS = 2
# ...or (Chinese) one that points back at what was said: "如果这样做了还是不行呢？", "它多重？".
_REFERS_BACK = re.compile(r"这样|这么做|这个|那个|这些|那些|它|上述|上面说|刚才|以上|这一步|这种|那种|此时")

# What stands for an earlier answer that is not trusted, when its question is shown.
WITHHELD = ""
# Verdicts of an earlier answer that may be shown again as what the documents say.
TRUSTED_VERDICTS = frozenset({"answered", "partly"})
# Put before the question: after it, the small bundled model tends to repeat the question and note.
_LANGUAGE_NOTE = {
    None: "Answer this question in English:",
    "zh": "请用中文回答这个问题：",
    "ja": "この質問には日本語で答えてください：",
    "ko": "이 질문에는 한국어로 답하세요:",
}


def names_little(question: str) -> bool:
    """Whether a question names little of its subject and so goes on from the chat: it opens with
    a connective or a pronoun, or holds at most FEW_TERMS content words (Latin script) or a word
    that points back (Chinese)."""
    if _GOES_ON.match(question):
        return True
    if has_cjk(question):
        return bool(_REFERS_BACK.search(question))
    return len([t for t in question_terms(question) if not is_number(t)]) <= FEW_TERMS


def trusted(turn: Turn) -> bool:
    """Whether an earlier answer may be fed back as fact: its verdict says it answered from the
    documents (an older trace without a verdict: at least one statement was supported)."""
    verdict = turn.trace.get("verdict")
    if verdict is not None:
        return verdict in TRUSTED_VERDICTS
    rate = turn.trace.get("support_rate")
    return rate is None or float(rate) > 0.0


def prompt_history(question: str, turns: Sequence[Turn], follow_up: bool) -> list[Turn]:
    """The turns the prompt shows: none for a question that stands on its own (the retrieval found
    it covered on its own and it names its subject: stages.retrieve), else the trusted ones, and
    the last turn's question even when its answer is not trusted (the follow-up is about it): that
    turn is shown with its answer withheld."""
    if not follow_up:
        return []
    shown = [turn for turn in turns if trusted(turn)]
    if turns and not trusted(turns[-1]):
        shown.append(replace(turns[-1], answer=WITHHELD))
    return shown


def question_in_its_language(question: str, history: Sequence[Turn]) -> str:
    """The question as the prompt shows it: after turns in another language, with a note asking for
    an answer in the question's language (a small model otherwise follows the chat's language)."""
    language = cjk_language(question)
    if not history or all(cjk_language(turn.question) == language for turn in history):
        return question
    return f"{_LANGUAGE_NOTE.get(language, _LANGUAGE_NOTE[None])}\n{question}"
