"""``aish help`` / ``? :help``: the verbs, from the one table."""
from __future__ import annotations

from aish.app.verbs.context import VerbContext
from aish.ipc.verbs import help_lines



def run(args: list[str], ctx: VerbContext) -> list[str]:
    return help_lines()
