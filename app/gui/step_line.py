"""The step a whole-document or across-files answer is on ("Step 2 of 6: reading pp. 9–17 of 50 of
report.pdf"), and once it is done what it read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QWidget

if TYPE_CHECKING:
    from app.core.api import Progress


class StepLine(QLabel):
    """Hidden for the usual answers; fed each Progress event of a whole-document answer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stepLine")
        self.setWordWrap(True)
        self.setAccessibleName(self.tr("Progress of a whole-document answer"))
        self.steps: list[Progress] = []
        self.setVisible(False)

    def show_progress(self, progress: Progress) -> None:
        self.steps.append(progress)
        pages = self._pages(progress.first_page, progress.last_page)
        self.setText(
            self.tr("Step {0} of {1}: reading {2} of {3} of {4}…").format(
                progress.step, progress.steps, pages, progress.pages, progress.document
            )
        )
        self.setVisible(True)

    def show_done(self, stopped: bool) -> None:
        """What the steps read, once the answer has finished (or stopped)."""
        if not self.steps:
            return
        documents = list(dict.fromkeys(step.document for step in self.steps))
        read = sum(step.passages for step in self.steps)
        last = self.steps[-1]
        if len(documents) == 1:
            pages = self._pages(min(s.first_page for s in self.steps), max(s.last_page for s in self.steps))
            text = self.tr("Read {0} passages of {1}, {2} of {3}, in {4} of {5} steps").format(
                read, documents[0], pages, last.pages, len(self.steps), last.steps
            )
        else:
            text = self.tr("Read one passage of each of {0} files").format(len(documents))
        self.setText(text + (self.tr(" (stopped)") if stopped else ""))

    def _pages(self, first: int, last: int) -> str:
        if last <= first:
            return self.tr("p. {0}").format(first)
        return self.tr("pp. {0}–{1}").format(first, last)
