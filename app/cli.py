"""The `folio` command line (ARCHITECTURE.md §4): JSON on stdout with --json, logs on stderr."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from app.cli_folders import folder_commands
from app.cli_text import error_line, in_language, use_language
from app.core import paths
from app.core.api import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    QT_TRANSLATE_NOOP,
    Cancelled,
    FolioError,
    UsageError,
    message_text,
    shown_heading,
    translate,
)

if TYPE_CHECKING:  # imported when a command runs: `folio documents` never loads torch or llama.cpp
    from app.core.api import IngestProgress, IngestReport
    from app.core.qa import Folio

IDLE_MINUTES = 15.0
# what happened to each file of an ingest (FileResult.status), as the human-readable report says it
FILE_STATUS = {
    "added": QT_TRANSLATE_NOOP("Cli", "added"),
    "updated": QT_TRANSLATE_NOOP("Cli", "updated"),
    "unchanged": QT_TRANSLATE_NOOP("Cli", "unchanged"),
    "failed": QT_TRANSLATE_NOOP("Cli", "failed"),
}


def _common_options() -> argparse.ArgumentParser:
    """--library and --json, shared by every subcommand."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--library",
        type=Path,
        default=None,
        help=translate("Cli", "library folder (default: FOLIO_LIBRARY or the app-data dir)"),
    )
    parser.add_argument(
        "--json", action="store_true", help=translate("Cli", "print one JSON document on stdout")
    )
    parser.add_argument(
        "--no-server",
        action="store_true",
        help=translate("Cli", "run in this process even when `folio serve` runs for the library"),
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="folio", description=translate("Cli", "Ask questions about your own documents, offline.")
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help=translate(
            "Cli",
            "ingest the bundled sample, search it and answer with the bundled model; exit 0 when all works",
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = [_common_options()]

    ingest = sub.add_parser(
        "ingest", parents=common, help=translate("Cli", "add or update files and folders (recursive)")
    )
    ingest.add_argument("paths", nargs="+", type=Path, metavar="PATH")

    search = sub.add_parser(
        "search", parents=common, help=translate("Cli", "find the passages that match a question")
    )
    search.add_argument("question")
    search.add_argument(
        "-k", type=int, default=None, help=translate("Cli", "number of passages (default: settings)")
    )

    sub.add_parser("documents", parents=common, help=translate("Cli", "list the documents in the library"))

    remove = sub.add_parser(
        "remove", parents=common, help=translate("Cli", "remove a document (by name, path or id)")
    )
    remove.add_argument("document")

    verify = sub.add_parser(
        "verify", parents=common, help=translate("Cli", "check store, vector index and keyword tables agree")
    )
    verify.add_argument("--repair", action="store_true", help=translate("Cli", "rebuild what disagrees"))

    reindex = sub.add_parser(
        "reindex-library",
        parents=common,
        help=translate(
            "Cli", "read every document of the library again into a NEW library (e.g. with another embedder)"
        ),
    )
    reindex.add_argument(
        "--into", type=Path, required=True, metavar="DIR", help=translate("Cli", "new, empty library folder")
    )
    reindex.add_argument(
        "--embedder",
        type=Path,
        default=None,
        metavar="DIR",
        help=translate("Cli", "embedding model (default: settings)"),
    )

    export = sub.add_parser(
        "export-chat",
        parents=common,
        help="write a chat as Markdown or one HTML file: answers, verdicts, sources with their sentences",
    )
    export.add_argument("chat_id", type=int, metavar="ID", help="the chat's id (`--json` of ask: chat_id)")
    export.add_argument("--format", default="md", choices=["md", "html"], help="default: md")
    export.add_argument("--out", type=Path, default=None, metavar="FILE", help="default: stdout")

    from app.cli_ask import add_ask_parser
    from app.cli_folders import add_folder_parsers

    add_ask_parser(sub, parents=common)
    add_folder_parsers(sub, parents=common)

    serve = sub.add_parser(
        "serve",
        help=translate(
            "Cli", "keep the models loaded for this library; later folio calls use it (Unix socket)"
        ),
    )
    serve.add_argument(
        "--library", type=Path, default=None, help=translate("Cli", "library folder (as above)")
    )
    serve.add_argument(
        "--idle-minutes",
        type=float,
        default=IDLE_MINUTES,
        help=translate("Cli", "stop after this many minutes without a call (default {0:g})").format(
            IDLE_MINUTES
        ),
    )
    return in_language(parser)


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


def _emit(out: TextIO, data: dict[str, Any]) -> None:
    out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    out.flush()


def _library_dir(args: argparse.Namespace) -> Path:
    return Path(args.library or paths.default_library_dir()).expanduser()


def _open(args: argparse.Namespace) -> Folio:
    from app.core.api import load_settings
    from app.core.qa import build_services

    return build_services(load_settings(), _library_dir(args))


def _progress_printer(out: TextIO) -> Callable[[IngestProgress], None]:
    def show(progress: IngestProgress) -> None:
        if (
            progress.stage == "parsing"
            and progress.pages_done % 25
            and progress.pages_done != progress.pages_total
        ):
            return
        name = Path(progress.path).name
        where = f"[{progress.file_index + 1}/{progress.file_count}]"
        page = translate("Cli", "page {0}/{1}").format(progress.pages_done, progress.pages_total)
        print(f"{where} {name}: {page}", file=out)

    return show


def cmd_ingest(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    report = folio.ingest(args.paths, progress=None if args.json else _progress_printer(sys.stderr))
    return _print_report(report, args.json, out)


def _print_report(report: IngestReport, as_json: bool, out: TextIO) -> int:
    if as_json:
        _emit(out, report.to_json())
    else:
        for item in report.files:
            detail = (
                message_text(item.error or "", translate)
                if item.status == "failed"
                else translate("Cli", "{0} pages, {1} chunks").format(item.pages, item.chunks)
            )
            status = translate("Cli", FILE_STATUS.get(item.status, item.status))
            print(f"{status:9} {item.document}: {detail}", file=out)
        print(
            translate("Cli", "{0} files in {1:.1f} s, {2} failed").format(
                len(report.files), report.elapsed_ms / 1000, len(report.failed)
            ),
            file=out,
        )
    if report.cancelled:
        return EXIT_FAILED
    return EXIT_FAILED if report.failed else EXIT_OK


def cmd_search(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    if not args.question.strip():
        raise UsageError(QT_TRANSLATE_NOOP("Core", "the question is empty"))
    result = folio.search(args.question, args.k)
    if args.json:
        _emit(out, result.to_json())
        return EXIT_OK
    for n, hit in enumerate(result.hits, start=1):
        pages = (
            translate("Cli", "p. {0}").format(hit.page)
            if hit.page == hit.page_end
            else translate("Cli", "pp. {0}-{1}").format(hit.page, hit.page_end)
        )
        snippet = hit.text if len(hit.text) <= 240 else hit.text[:237] + "..."
        if heading := shown_heading(hit):
            pages = f"{pages} · {heading}"
        print(
            f"{n}. {hit.document}, {pages}  "
            + translate("Cli", "(score {0:.4f}, similarity {1:.2f})").format(hit.score, hit.similarity),
            file=out,
        )
        print(f"   {snippet}", file=out)
    if not result.hits:
        print(translate("Cli", "no passages found"), file=out)
    print(translate("Cli", "retrieval {0:.0f} ms").format(result.retrieval_ms), file=out)
    return EXIT_OK


def cmd_documents(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    docs = folio.documents()
    if args.json:
        _emit(out, {"documents": [d.to_json() for d in docs]})
        return EXIT_OK
    for doc in docs:
        size = translate("Cli", "({0} pages, {1} chunks)").format(doc.pages, doc.chunks)
        print(f"{doc.id:5}  {doc.name}  {size}  {doc.path}", file=out)
    print(translate("Cli", "{0} documents").format(len(docs)), file=out)
    return EXIT_OK


def cmd_remove(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    info = folio.remove(args.document)
    if args.json:
        _emit(out, {"removed": info.to_json()})
    else:
        print(translate("Cli", "removed {0} ({1} chunks)").format(info.name, info.chunks), file=out)
    return EXIT_OK


def cmd_verify(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    report = folio.verify(repair=args.repair)
    if args.json:
        _emit(out, report.to_json())
    else:
        state = translate("Cli", "ok") if report.ok else translate("Cli", "PROBLEMS")
        counts = translate("Cli", "{0} documents, {1} chunks, {2} vectors").format(
            report.documents, report.chunks, report.vectors
        )
        print(f"{state}: {counts}", file=out)
        for problem in report.problems:
            print("  " + translate("Cli", "problem: {0}").format(message_text(problem, translate)), file=out)
        for fix in report.repaired:
            print("  " + translate("Cli", "repaired: {0}").format(message_text(fix, translate)), file=out)
    return EXIT_OK if report.ok else EXIT_FAILED


def cmd_export_chat(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    text = folio.export_chat(args.chat_id, args.format, translate)
    if args.out is None:
        if args.json:
            _emit(out, {"chat_id": args.chat_id, "format": args.format, "text": text})
        else:
            out.write(text)
        return EXIT_OK
    target = Path(args.out).expanduser()
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise FolioError(f"cannot write {target}: {exc.strerror or exc}") from exc
    if args.json:
        _emit(out, {"chat_id": args.chat_id, "format": args.format, "path": str(target)})
    else:
        print(f"wrote chat {args.chat_id} to {target}", file=sys.stderr)
    return EXIT_OK


def cmd_ask(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    from app.cli_ask import run_ask

    return run_ask(args, folio, out)


def cmd_serve(args: argparse.Namespace) -> int:
    from app.serve.server import serve

    if args.idle_minutes <= 0:
        raise UsageError(QT_TRANSLATE_NOOP("Core", "--idle-minutes must be more than 0"))
    return serve(_library_dir(args).absolute(), args.idle_minutes, run_in_process, sys.stderr)


def cmd_reindex_library(args: argparse.Namespace, folio: Folio, out: TextIO) -> int:
    """The old library is only read; vectors of two models never meet in one library."""
    from app.core.embed.embedder import Embedder

    embedder = (
        Embedder(args.embedder.expanduser(), precision=folio.settings.embed_precision)
        if args.embedder
        else None
    )
    progress = None if args.json else _progress_printer(sys.stderr)
    report = folio.reindex_library(Path(args.into).expanduser(), progress, embedder=embedder)
    return _print_report(report, args.json, out)


COMMANDS: dict[str, Callable[[argparse.Namespace, Folio, TextIO], int]] = {
    "ingest": cmd_ingest,
    "search": cmd_search,
    "documents": cmd_documents,
    "remove": cmd_remove,
    "verify": cmd_verify,
    "reindex-library": cmd_reindex_library,
    "ask": cmd_ask,
    "export-chat": cmd_export_chat,
}
COMMANDS.update(folder_commands(_progress_printer))


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
                _emit(out, {"error": str(exc)})
            return EXIT_FAILED
        except (Cancelled, KeyboardInterrupt):
            print("folio: " + translate("Cli", "cancelled"), file=sys.stderr)
            return EXIT_FAILED
        except (OSError, sqlite3.Error, SQLAlchemyError) as exc:  # disk full, read-only, damaged
            library = args.library or paths.default_library_dir()
            message = translate("Cli", "the library {0} cannot be used: {1}").format(library, _reason(exc))
            print(f"folio: {message}", file=sys.stderr)
            if args.json:
                _emit(out, {"error": message})
            return EXIT_FAILED
        finally:
            if folio is not None and folio is not served:
                folio.close()
