"""The CLI's language: chosen from the settings or the locale, argparse's own words, error lines."""

from __future__ import annotations

import argparse
from typing import Any

from app.core.api import CLI_TEXT, FolioError, error_message, translate


def error_line(error: BaseException) -> str:
    """An error's message in the CLI's language (the core's marked messages are translated)."""
    return error_message(error, translate)


def use_language(setting: str | None = None) -> None:
    """The CLI's language: `setting` (a running `folio serve`'s), else the settings file's choice,
    else the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). A settings file that cannot be read is
    reported by the command that reads it."""
    if setting is None:
        from app.core.api import load_settings

        try:
            setting = load_settings().language
        except FolioError:
            setting = "system"
    CLI_TEXT.use(setting)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's own words in the CLI's language (argparse has no translation of its own here)."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, prefix or translate("Cli", "usage: "))


def in_language(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The parser and its subcommands' parsers with argparse's titles and -h help translated."""
    parsers = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            parsers += list(action.choices.values())
    for each in parsers:
        each.formatter_class = _HelpFormatter
        each._positionals.title = translate("Cli", "positional arguments")
        each._optionals.title = translate("Cli", "options")
        for action in each._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = translate("Cli", "show this help message and exit")
    return parser
