"""Chat scenarios (benchmarks/eval/chats.json): turns asked in one chat, each checked for whether its
prompt showed the history, the language of its answer, the passages it was given and, where the
turn gives patterns, whether the answer says what the page says."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.core.answering.types import AskOptions
from app.core.qa import Folio
from app.core.script import has_cjk
from benchmarks.evaluation.dataset import answer_matches

CHATS = Path(__file__).resolve().parents[1] / "eval" / "chats.json"


@dataclass
class TurnRecord:
    """One asked turn of a scenario and what its checks found."""

    scenario: str
    turn: int
    question: str
    answer: str
    history_expected: bool
    history_used: int
    lang_expected: str
    lang_ok: bool
    passages_ok: bool | None  # None when the turn names no page
    verdict: str | None
    answer_ok: bool | None = None  # None when the turn gives no answer patterns

    @property
    def ok(self) -> bool:
        return (
            (self.history_used > 0) == self.history_expected
            and self.lang_ok
            and self.passages_ok is not False
            and self.answer_ok is not False
        )


def answer_language(text: str) -> str:
    """ "zh" when most letters of the answer are CJK, else "en" (Folio's notices count as written)."""
    cjk = sum(1 for ch in text if has_cjk(ch))
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    return "zh" if cjk > latin / 3 else "en"


def run_chats(folio: Folio, options: AskOptions, path: Path = CHATS) -> list[TurnRecord]:
    scenarios: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["scenarios"]
    records: list[TurnRecord] = []
    print("\n## Chat scenarios, per turn (history shown in the prompt; answer language; pages)")
    for scenario in scenarios:
        chat_id = folio.chats.new(scenario["id"])
        for number, turn in enumerate(scenario["turns"], start=1):
            answer = folio.answering.ask(turn["question"], options, chat_id=chat_id)
            used = answer.budget.history_turns_used if answer.budget is not None else 0
            passages_ok = None
            if turn.get("document"):
                passages_ok = any(
                    hit.document == turn["document"]
                    and any(hit.page <= page <= max(hit.page, hit.page_end) for page in turn["pages"])
                    for hit in answer.passages
                )
            patterns = tuple(tuple(group) for group in turn.get("answers", []))
            record = TurnRecord(
                scenario["id"],
                number,
                turn["question"],
                answer.answer,
                bool(turn["history"]),
                used,
                turn["lang"],
                answer_language(answer.answer) == turn["lang"],
                passages_ok,
                answer.verdict,
                answer_matches(patterns, answer.answer) if patterns else None,
            )
            records.append(record)
            mark = "ok" if record.ok else "✗"
            flat = " ".join(answer.answer.split())[:90]
            want = "some" if record.history_expected else "none"
            print(
                f"{scenario['id']:22} #{number} {mark:2} history {used} (want {want})"
                f" · {answer_language(answer.answer)} (want {turn['lang']}) · pages {passages_ok}"
                f" · answer {record.answer_ok} | {flat}"
            )
    return records


def summarize_chats(records: list[TurnRecord]) -> dict[str, Any]:
    return {
        "turns": len(records),
        "ok": sum(1 for r in records if r.ok),
        "history_right": sum(1 for r in records if (r.history_used > 0) == r.history_expected),
        "language_right": sum(1 for r in records if r.lang_ok),
        "answer_right": sum(1 for r in records if r.answer_ok),
        "answer_checked": sum(1 for r in records if r.answer_ok is not None),
        "records": [asdict(r) for r in records],
    }
