"""Where the answer is, shown before the model's conclusion: "Found on a.pdf p. 3: …" links."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from app.core.api import LocatedSentence, shown_heading
from app.gui.language import is_language_change


class FoundLine(QLabel):
    """The passage sentences Folio located for the question; each is a link that opens its page
    with the sentence marked (`sentence_activated(citation, sentence)`)."""

    sentence_activated = Signal(object, str)  # Citation, the sentence to mark

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("foundLine")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByKeyboard | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        self.setAccessibleName(self.tr("Where the answer was found"))
        self.linkActivated.connect(self._link)
        self.found: list[LocatedSentence] = []
        self.setVisible(False)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.setAccessibleName(self.tr("Where the answer was found"))
            self.show_found(self.found)
        super().changeEvent(event)

    def show_found(self, found: list[LocatedSentence]) -> None:
        self.found = list(found)
        self.setVisible(bool(found))
        rows = []
        for index, item in enumerate(found):
            c = item.citation
            place = c.section or (
                self.tr("p. {0}").format(c.page)
                if c.page_end <= c.page
                else self.tr("pp. {0}–{1}").format(c.page, c.page_end)
            )
            if heading := shown_heading(c):
                place = f"{place} · {heading}"
            where = self.tr("Found on {0} {1}").format(c.document, place)
            link = f'<a href="found:{index}">{html.escape(where)}</a>'
            rows.append(self.tr("{0}: “{1}”").format(link, html.escape(item.sentence)))
        self.setText("<br>".join(rows))

    def _link(self, link: str) -> None:
        scheme, _, number = link.partition(":")
        if scheme == "found" and number.isdigit() and int(number) < len(self.found):
            item = self.found[int(number)]
            self.sentence_activated.emit(item.citation, item.sentence)
