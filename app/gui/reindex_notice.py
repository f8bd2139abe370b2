"""The bar above the chat that offers to re-index a library written with an English-only embedder,
or to read again the documents an earlier version of Folio read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QToolButton, QWidget

from app.gui.language import is_language_change
from app.gui.reindex_controller import ReindexController

if TYPE_CHECKING:
    from app.core.api import ReindexAdvice, RereadAdvice


class ReindexNotice(QFrame):
    """Says why the library should be re-indexed and about how long it takes; "Re-index now" runs
    it on the store worker with its progress here; the window stays usable and the bar can be
    dismissed (it comes back the next time the library opens)."""

    def __init__(self, controller: ReindexController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setObjectName("reindexNotice")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#reindexNotice { background: #fff4ce; border: 1px solid #e0c36a; }")
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(True)
        self.reindex_button = QPushButton(self)
        self.cancel_button = QPushButton(self)
        self.dismiss_button = QToolButton(self)
        self.dismiss_button.setText("✕")
        self.advice: ReindexAdvice | RereadAdvice | None = None  # what the bar says, until a run replaces it
        self.retranslate()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.bar)
        layout.addWidget(self.reindex_button)
        layout.addWidget(self.cancel_button)
        layout.addWidget(self.dismiss_button)
        self.reindex_button.clicked.connect(self._act)
        self.cancel_button.clicked.connect(controller.cancel)
        self.dismiss_button.clicked.connect(self.hide)
        controller.advised.connect(self.show_advice)
        controller.progress.connect(self.show_progress)
        controller.running_changed.connect(self._set_running)
        controller.finished.connect(self.show_outcome)
        self._set_running(False)
        self.hide()

    def retranslate(self) -> None:
        self.reindex_button.setText(self.tr("Re-index now"))  # the advice's own words replace it
        self.cancel_button.setText(self.tr("Cancel"))
        self.dismiss_button.setToolTip(self.tr("Dismiss"))
        if self.advice is not None:
            self.show_advice(self.advice, reshow=False)

    def changeEvent(self, event: QEvent) -> None:
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def show_advice(self, advice: ReindexAdvice | RereadAdvice, reshow: bool = True) -> None:
        from app.core.api import RereadAdvice

        self.advice = advice
        if isinstance(advice, RereadAdvice):
            self.text.setText(
                self.tr(
                    "%n document(s) of this library were read by an earlier version of Folio, which "
                    "kept page headers and footers in their passages and did not mark contents pages. "
                    "Read them again (about {0} min for {1} pages; the window stays usable, and each "
                    "keeps its passages until the new ones are ready).",
                    "",
                    len(advice.documents),
                ).format(advice.minutes, advice.pages)
            )
            self.reindex_button.setText(self.tr("Read again"))
        else:
            self.text.setText(
                self.tr(
                    "This library was indexed with an English-only embedder ({0}): questions in one "
                    "language will not find pages in the other. Re-index it with {1} (about {2} min "
                    "for {3} pages; the window stays usable)."
                ).format(advice.embedder, advice.default, advice.minutes, advice.pages)
            )
            self.reindex_button.setText(self.tr("Re-index now"))
        if reshow:
            self.reindex_button.setVisible(True)
            self.show()

    def _act(self) -> None:
        """The button: documents read again in place (the ingest queue shows it), or the re-index."""
        from app.core.api import RereadAdvice

        if isinstance(self.advice, RereadAdvice):
            if self.controller.reread(self.advice):
                self.advice = None
                self.hide()
        else:
            self.controller.start()

    def show_progress(self, fraction: float, seconds_left: float | None) -> None:
        self.bar.setValue(round(fraction * 1000))
        left = (
            self.tr(", about {0} min left").format(max(1, round(seconds_left / 60))) if seconds_left else ""
        )
        self.bar.setFormat(f"{fraction:.0%}{left}")

    def show_outcome(self, message: str, done: bool) -> None:
        self.advice = None
        self.text.setText(message)
        self.reindex_button.setVisible(not done)
        self.show()

    def _set_running(self, running: bool) -> None:
        self.bar.setVisible(running)
        self.cancel_button.setVisible(running)
        self.reindex_button.setVisible(not running)
        self.dismiss_button.setEnabled(not running)
        if running:
            self.advice = None
            self.bar.setValue(0)
            self.bar.setFormat(self.tr("Re-indexing…"))
            self.text.setText(self.tr("Re-indexing the library: every document is read again."))
