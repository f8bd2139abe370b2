"""The PDF extractor's wait for its worker process ends when the user cancels."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from app.core.cancel import CancelToken
from app.core.errors import Cancelled
from app.core.ingest.worker import PageExtractor


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a named pipe")
def test_cancel_ends_the_wait_for_a_reader_that_hangs(tmp_path: Path) -> None:
    never_written = tmp_path / "hangs.pdf"
    os.mkfifo(never_written)  # the worker's open() blocks forever: a reader stuck in a file
    extractor = PageExtractor()
    cancel = CancelToken()
    timer = threading.Timer(0.5, cancel.cancel)
    timer.start()
    try:
        with pytest.raises(Cancelled):
            list(extractor.pages(never_written, cancel))  # without the check: a 60 s time-out
        assert extractor._process is None, "the stuck worker was stopped"
    finally:
        timer.cancel()
        extractor.close()
