"""The `folio` command line (ARCHITECTURE.md §4): JSON on stdout with --json, logs on stderr."""

from __future__ import annotations

import argparse
import contextlib
import logging
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli_folders import folder_commands
from app.cli_library import (
    cmd_documents,
    cmd_export_chat,
    cmd_ingest,
    cmd_reindex_library,
    cmd_remove,
    cmd_reread,
    cmd_search,
    cmd_verify,
    emit_json,
    progress_printer,
)
from app.cli_parser import build_parser
from app.cli_text import error_line, use_language
from app.core import paths
from app.core.api import (
    EXIT_FAILED,
    EXIT_USAGE,
    QT_TRANSLATE_NOOP,
    Cancelled,
    FolioError,
    UsageError,
    translate,
)

if TYPE_CHECKING:  # imported when a command runs: `folio documents` never loads torch or llama.cpp
    from app.core.qa import Folio


@contextlib.contextmanager
def _stdout_reserved_for_json(enabled: bool) -> Iterator[TextIO]:
    """With --json, anything a library prints goes to stderr; the JSON goes to the real stdout."""
    real = sys.stdout
    if not enabled:
        yield real
        return
    sys.stdout = sys.stderr
    try:
        yield real
    finally:
        sys.stdout = real


def _library_dir(args: argparse.Namespace) -> Path:
    return Path(args.library or paths.default_library_dir()).expanduser()


def _open(args: argparse.Namespace) -> Folio:
    from app.core.api import load_settings
    from app.core.services import build_services

    return build_services(load_settings(), _library_dir(args))


def cmd_ask(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    from app.cli_ask import run_ask

    return run_ask(args, folio, out)


def cmd_serve(args: argparse.Namespace) -> int:
    from app.serve.server import serve

    if args.idle_minutes <= 0:
        raise UsageError(QT_TRANSLATE_NOOP("Core", "--idle-minutes must be more than 0"))
    return serve(_library_dir(args).absolute(), args.idle_minutes, run_in_process, sys.stderr)


COMMANDS: dict[str, Callable[[argparse.Namespace, Folio, TextIO], int]] = {
    "ingest": cmd_ingest,
    "search": cmd_search,
    "documents": cmd_documents,
    "remove": cmd_remove,
    "reread": cmd_reread,
    "verify": cmd_verify,
    "reindex-library": cmd_reindex_library,
    "ask": cmd_ask,
    "export-chat": cmd_export_chat,
}
COMMANDS.update(folder_commands(progress_printer))


def _reason(exc: BaseException) -> str:
    """The underlying message of a store or file-system error, without SQL or a traceback."""
    original = getattr(exc, "orig", None) or exc
    if isinstance(original, OSError) and original.strerror:
        where = f" ({original.filename})" if original.filename else ""
        return f"{original.strerror}{where}"
    return str(original).splitlines()[0] if str(original) else type(original).__name__


def run_cli(argv: list[str]) -> int:
    """`folio ARGV`: through the library's running `folio serve` when there is one (same output and
    exit code), else in this process."""
    # an answer from a chat server runs here: its API key stays in this process's environment
    to_server = any(arg == "--server" or arg.startswith("--server=") for arg in argv)
    if argv and argv[0] in COMMANDS and "--no-server" not in argv and not to_server:
        from app.serve.client import forward

        code = forward(argv)
        if code is not None:
            return code
    return run_in_process(argv)


def run_in_process(argv: list[str], served: Folio | None = None) -> int:
    """Run one command here; `served` is the open library of `folio serve` (kept open after)."""
    from sqlalchemy.exc import SQLAlchemyError

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="folio: %(message)s")
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    use_language(served.settings.language if served is not None else None)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        from app.selftest import run_self_test

        return run_self_test()
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if args.command == "serve":
        try:
            return cmd_serve(args)
        except UsageError as exc:
            print(f"folio: {error_line(exc)}", file=sys.stderr)
            return EXIT_USAGE
        except FolioError as exc:
            print(f"folio: {error_line(exc)}", file=sys.stderr)
            return EXIT_FAILED
    with _stdout_reserved_for_json(args.json) as out:
        folio: Folio | None = None
        try:
            folio = served or _open(args)
            return COMMANDS[args.command](args, folio, out)
        except UsageError as exc:
            print(f"folio: {error_line(exc)}", file=sys.stderr)
            return EXIT_USAGE
        except FolioError as exc:
            print(f"folio: {error_line(exc)}", file=sys.stderr)
            if args.json:
                emit_json(out, {"error": str(exc)})
            return EXIT_FAILED
        except (Cancelled, KeyboardInterrupt):
            print("folio: " + translate("Cli", "cancelled"), file=sys.stderr)
            return EXIT_FAILED
        except (OSError, sqlite3.Error, SQLAlchemyError) as exc:  # disk full, read-only, damaged
            library = args.library or paths.default_library_dir()
            message = translate("Cli", "the library {0} cannot be used: {1}").format(library, _reason(exc))
            print(f"folio: {message}", file=sys.stderr)
            if args.json:
                emit_json(out, {"error": message})
            return EXIT_FAILED
        finally:
            if folio is not None and folio is not served:
                folio.close()
