"""A third process for the two-writer rounds: search the library until told to stop, count failures.

Run as `python -m tests.reliability.searcher LIBRARY STOP_FILE RESULT_FILE`.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

from app.core.config import Settings
from app.core.services import build_services


def main(library: Path, stop: Path, result: Path) -> None:
    folio = build_services(Settings(), library)
    searches = failures = 0
    errors: list[str] = []
    try:
        while not stop.exists():
            try:
                folio.library.search("volcano measurement", 5)
                searches += 1
            except Exception:
                failures += 1
                errors.append(traceback.format_exc()[-800:])
    finally:
        folio.close()
    result.write_text(json.dumps({"searches": searches, "failures": failures, "errors": errors[:3]}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
