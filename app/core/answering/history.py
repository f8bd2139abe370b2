"""Which earlier turns of a chat the prompt shows: only for a follow-up that depends on them, never
an answer Folio found unsupported, and with the question's own language asked for."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.script import cjk_language
from app.core.store.conversations import Turn

# Verdicts of an earlier answer that may be shown again as what the documents say.
TRUSTED_VERDICTS = frozenset({"answered", "partly"})
_LANGUAGE_NOTE = {
    None: "(Answer in the language of this question: English.)",
    "zh": "（请用中文回答这个问题。）",
    "ja": "（この質問には日本語で答えてください。）",
    "ko": "(이 질문에는 한국어로 답하세요.)",
}


def trusted(turn: Turn) -> bool:
    """Whether an earlier answer may be fed back as fact: its verdict says it answered from the
    documents (an older trace without a verdict: at least one statement was supported)."""
    verdict = turn.trace.get("verdict")
    if verdict is not None:
        return verdict in TRUSTED_VERDICTS
    rate = turn.trace.get("support_rate")
    return rate is None or float(rate) > 0.0


def prompt_history(question: str, turns: Sequence[Turn], follow_up: bool) -> list[Turn]:
    """The turns the prompt shows: none for a question that stands on its own (it names its
    subject: the gate passed on the question alone), else the trusted ones."""
    if not follow_up:
        return []
    return [turn for turn in turns if trusted(turn)]


def question_in_its_language(question: str, history: Sequence[Turn]) -> str:
    """The question as the prompt shows it: after turns in another language, with a note asking for
    an answer in the question's language (a small model otherwise follows the chat's language)."""
    language = cjk_language(question)
    if not history or all(cjk_language(turn.question) == language for turn in history):
        return question
    return f"{question}\n{_LANGUAGE_NOTE.get(language, _LANGUAGE_NOTE[None])}"
