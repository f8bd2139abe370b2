"""The `folio` command line's arguments: every subcommand and its options, in the CLI's language."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli_text import in_language
from app.core.api import translate

IDLE_MINUTES = 15.0


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
    _add_library_parsers(sub, common)
    _add_copy_parsers(sub, common)

    from app.cli_ask import add_ask_parser
    from app.cli_folders import add_folder_parsers

    add_ask_parser(sub, parents=common)
    add_folder_parsers(sub, parents=common)
    _add_serve_parser(sub)
    return in_language(parser)


def _add_library_parsers(
    sub: argparse._SubParsersAction,  # type: ignore[type-arg]
    common: list[argparse.ArgumentParser],
) -> None:
    """`ingest`, `search`, `documents`, `remove`, `reread`, `verify`: the library's own commands."""
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

    reread = sub.add_parser(
        "reread",
        parents=common,
        help=translate(
            "Cli",
            "read documents again in place (default: those an earlier version of Folio read)",
        ),
    )
    reread.add_argument("documents", nargs="*", metavar="DOCUMENT", help=translate("Cli", "name, path or id"))

    verify = sub.add_parser(
        "verify", parents=common, help=translate("Cli", "check store, vector index and keyword tables agree")
    )
    verify.add_argument("--repair", action="store_true", help=translate("Cli", "rebuild what disagrees"))


def _add_copy_parsers(
    sub: argparse._SubParsersAction,  # type: ignore[type-arg]
    common: list[argparse.ArgumentParser],
) -> None:
    """`reindex-library` and `export-chat`: the library or a chat written somewhere else."""
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


def _add_serve_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """`serve`: keep the models loaded for one library."""
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
