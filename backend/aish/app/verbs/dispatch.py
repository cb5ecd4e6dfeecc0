"""From a verb request's words to its handler: parsed once, looked up in ``aish.ipc.verbs``."""
from __future__ import annotations

import importlib
from typing import Callable

from aish.errors import NotFound, UsageError
from aish.ipc.verbs import BY_NAME, HELP_WORDS


def parse(argv: list[str]) -> tuple[str, list[str], bool]:
    """``[":cost", "detail", "--json"]`` -> ``("cost", ["detail"], True)``; nothing means help.

    ``--json`` is taken out here, once, wherever it stands; each handler reads ``ctx.json``."""
    words = [word for word in argv if word != ""]
    as_json = "--json" in words
    words = [word for word in words if word != "--json"]
    if not words or words[0] in HELP_WORDS:
        return "help", words[1:], as_json
    return words[0].lstrip(":"), words[1:], as_json


def handler(name: str) -> tuple[Callable, frozenset]:
    """The function that runs verb ``name`` and the parts of daemon state its row needs;
    an unknown name is an error naming ``aish help``."""
    row = BY_NAME.get(name)
    if row is None:
        raise NotFound(f"unknown verb '{name}'", hint="'aish help' lists them")
    module, _, function = row.handler.partition(":")
    return getattr(importlib.import_module(module), function), row.needs


def check_arguments(name: str, args: list[str]) -> None:
    """A verb whose row declares no arguments refuses any (``aish status --bogus`` ran as
    ``aish status``)."""
    row = BY_NAME[name]
    if args and not row.usage and row.daemon:
        raise UsageError(f"'{name}' takes no arguments (got {' '.join(args)[:60]})",
                         hint=f"usage: {row.synopsis}")
