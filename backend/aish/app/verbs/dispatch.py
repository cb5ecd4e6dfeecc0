"""From a verb request's words to the verb's module (the table is ``aish.ipc.verbs``)."""
from __future__ import annotations

import importlib
from types import ModuleType

from aish.errors import NotFound
from aish.ipc.verbs import BY_NAME, HELP_WORDS


def parse(argv: list[str]) -> tuple[str, list[str]]:
    """``[":cost", "detail"]`` -> ``("cost", ["detail"])``; nothing at all means help."""
    words = [word for word in argv if word != ""]
    if not words or words[0] in HELP_WORDS:
        return "help", words[1:]
    return words[0].lstrip(":"), words[1:]


def module(name: str) -> ModuleType:
    """The module that runs verb ``name``; an unknown name is an error naming ``aish help``."""
    if name not in BY_NAME:
        raise NotFound(f"unknown verb '{name}'", hint="'aish help' lists them")
    return importlib.import_module(f"aish.app.verbs.{name}")
