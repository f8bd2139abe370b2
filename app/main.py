"""Entry point: no arguments opens the window, a subcommand runs the `folio` command line."""

from __future__ import annotations

import io
import multiprocessing
import os
import sys


def _guard_frozen_streams() -> None:
    """A windowed frozen app has no stdout/stderr; libraries that print must not crash it."""
    if sys.stdout is None:
        sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    multiprocessing.freeze_support()
    _guard_frozen_streams()
    # Never reach for a model hub: every model comes from a local folder.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from app.core.generate.threads import prefer_passive_openmp

    prefer_passive_openmp()  # before llama.cpp or torch loads OpenMP
    args = sys.argv[1:] if argv is None else argv
    if not args or args == ["--check-fonts"]:
        # Qt aborts with a misleading message when its xcb plugin lacks a system library: name it.
        from app.platform_check import gui_problem

        problem = gui_problem()
        if problem:
            print(problem, file=sys.stderr)
            return 1
        if args:  # the window's font set-up, drawn once: prints one line (the package test runs it)
            from app.gui.fonts import run_font_check

            return run_font_check(sys.argv[:1])
        from app.gui.app import run_gui

        return run_gui(sys.argv[:1])
    from app.cli import run_cli

    return run_cli(args)


if __name__ == "__main__":
    raise SystemExit(main())
