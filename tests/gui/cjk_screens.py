"""Every screen that shows Chinese, built for real over a fake facade: which glyphs draw as boxes.

Run in a subprocess (fontconfig reads its configuration once, so the test points FONTCONFIG_FILE at
a font folder without CJK before Qt starts): python -m tests.gui.cjk_screens OUT.json
It starts as `run_gui` does (the Chinese font, then the stylesheet), types a Chinese question into
the question box, lets a fake answer in Chinese with a Chinese source finish, opens the chat list,
the Token budget dialog and the viewer's text panel, and writes, for each screen, the characters
of its Chinese text that the widget's font (after Qt's per-glyph fallback) draws as boxes.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QInputMethodEvent, QTextDocumentFragment
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip

from app.core.answering.types import AnswerEvent, AskOptions, Finished
from app.core.cancel import CancelToken
from app.core.config import Settings
from app.core.passage import Citation
from app.core.prompt.budget import DroppedPassage
from app.core.store.conversations import ChatSummary
from app.gui.answer_view import QuestionView
from app.gui.app import create_window, load_stylesheet, say_when_chinese_cannot_show
from app.gui.budget_dialog import BudgetDialog
from app.gui.fonts import ensure_cjk_font, glyph_report
from tests.gui.fakes import FakeAnswerer, fake_answer, fake_factory
from tests.gui.screenshots import wait_for

QUESTION = "逆变器的红色故障灯亮了怎么办？"
ANSWER = "如果红色故障灯持续亮一小时，请重启逆变器 [1]。"
DOCUMENT = "太阳能系统手册.md"
PASSAGE = "逆变器维护：如果红色故障灯持续亮一小时，请重启逆变器。"
CHAT_TITLE = "逆变器故障"
# The screens issue 22 lists; the test checks that each was looked at.
SCREENS = (
    "question box",
    "question bubble",
    "answer",
    "sources",
    "viewer text panel",
    "viewer title",
    "tooltip",
    "budget dialog",
    "chat list",
)


class ChineseAnswerer(FakeAnswerer):
    """Streams a Chinese answer that cites a Chinese document, with a dropped passage in its budget."""

    def ask_stream(
        self, question: str, options: AskOptions | None, chat_id: int | None, cancel: CancelToken | None
    ) -> Iterator[AnswerEvent]:
        for event in super().ask_stream(question, options, chat_id, cancel):
            if isinstance(event, Finished):
                citation = Citation(1, 7, DOCUMENT, f"/nowhere/{DOCUMENT}", 2, 2, 0, len(PASSAGE), PASSAGE)
                answer = fake_answer(event.answer.answer, "stop", citations=[citation])
                assert answer.budget is not None
                dropped = DroppedPassage(9, DOCUMENT, 3, 120, "context")
                event = Finished(
                    replace(
                        answer, question=question, budget=replace(answer.budget, passages_dropped=[dropped])
                    )
                )
            yield event

    def chats(self) -> list[ChatSummary]:
        now = datetime.now(UTC)
        return [ChatSummary(1, CHAT_TITLE, now, now, 2)] if self.requests else []


def check(font: QFont, text: str) -> dict[str, Any]:
    missing, families = glyph_report(font, text)
    return {"text": text, "missing": missing, "families": sorted(families)}


def main(out: Path) -> int:
    app = QApplication(sys.argv[:1])
    chinese = ensure_cjk_font()  # what run_gui does first
    app.setStyleSheet(load_stylesheet())
    work = Path(tempfile.mkdtemp(prefix="folio-cjk-"))
    answerer = ChineseAnswerer([ANSWER[:10], ANSWER[10:]])
    window = create_window(
        Settings(), work / "library", fake_factory(answerer), settings_path=work / "settings.json"
    )
    window.resize(1200, 780)
    window.show()
    say_when_chinese_cannot_show(chinese, window.app.reporter)
    window.app.start()
    wait_for(lambda: window.app.model_info is not None and window.question.send.isEnabled(), 20_000)

    typing = QInputMethodEvent()  # how Chinese is typed: an input method commits the text
    typing.setCommitString(QUESTION)
    QApplication.sendEvent(window.question.edit, typing)
    typed = window.question.edit.toPlainText()
    QTest.keyClick(window.question.edit, Qt.Key.Key_Return)
    wait_for(lambda: not window.chat.busy and len(window.transcript.answer_views) == 1, 20_000)
    wait_for(lambda: window.chats.list.count() == 1, 20_000)
    window.question.edit.setPlainText(QUESTION)  # a draft of the next question
    view = window.transcript.answer_views[0]
    bubble = window.transcript.findChildren(QuestionView)[0]
    window.open_citation(view.state.citations[0])
    wait_for(lambda: window.viewer is not None and window.viewer.isVisible(), 20_000)
    viewer = window.viewer
    assert viewer is not None
    dialog = BudgetDialog(view.state.budget, window)  # what the answer's "Token budget…" link opens
    dialog.show()
    rows = [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]
    chat_item = window.chats.list.item(0)
    for widget in (window.question.edit, bubble, view.body, view.sources, viewer.passage, dialog.table):
        widget.ensurePolished()

    screens = {
        "question box": check(window.question.edit.font(), window.question.edit.toPlainText()),
        "question bubble": check(bubble.font(), bubble.text()),
        "answer": check(view.body.document().defaultFont(), view.body.toPlainText()),
        "sources": check(
            view.sources.font(), QTextDocumentFragment.fromHtml(view.sources.text()).toPlainText()
        ),
        "viewer text panel": check(viewer.passage.font(), viewer.passage.toPlainText()),
        "viewer title": check(viewer.title.font(), viewer.title.text()),
        "tooltip": check(QToolTip.font(), chat_item.toolTip()),
        "budget dialog": check(dialog.table.font(), next(r for r in rows if DOCUMENT in r)),
        "chat list": check(window.chats.list.font(), chat_item.text()),
    }
    result = {
        "font": {"family": chinese.family, "source": chinese.source},
        "typed": typed,
        "problems": [message for kind, message in window.app.reporter.history if kind == "problem"],
        "screens": screens,
    }
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    dialog.close()
    viewer.close()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
