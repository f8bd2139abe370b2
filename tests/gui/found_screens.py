"""Screenshots of the real app answering questions over given files: the "Found on" lines, the answer
and its verdict, as a person sees them.

Run: xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python -m tests.gui.found_screens OUT \\
         --files A.pdf B.pdf --question "…" [--question "…"] [--language zh_CN]
The real window, models and embedder over a temporary library of the files (dropped on the window).
Each question is asked in a new chat; the script prints the answer, its verdict and its found lines,
and saves the window after each as OUT-<n>.png (OUT.png for one question).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from app.core.config import Settings
from tests.gui.screenshots import ask_in_new_chat, library_window, save, styled_app


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="the screenshots' path without .png")
    parser.add_argument("--files", type=Path, nargs="+", required=True)
    parser.add_argument("--question", action="append", required=True)
    parser.add_argument("--language", default="en", help="the interface's language (en, zh_CN)")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="folio-found-shots-"))
    app = styled_app()  # noqa: F841  (kept alive while the window runs)
    docs = work / "docs"
    docs.mkdir()
    for file in args.files:
        shutil.copy(file, docs / file.name)
    settings = Settings(temperature=0.0, seed=42, language=args.language)
    window = library_window(settings, work, docs)
    for number, question in enumerate(args.question, start=1):
        final = ask_in_new_chat(window, question).final
        if final is not None:
            found = "\n".join(
                f"      {f.citation.document} p. {f.citation.page}: {f.sentence}" for f in final.located
            )
            print(
                f"[{number}] {question}\n    answer: {final.answer!r}\n    verdict: {final.verdict}\n"
                f"    found:\n{found}",
                flush=True,
            )
        name = f"{args.out.name}.png" if len(args.question) == 1 else f"{args.out.name}-{number}.png"
        save(window, args.out.parent / name)
    window.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
