"""``aish fix`` / ``? :fix``: fix the last command from its exit status and what it printed.

The model writes the fix, so this returns an ``AskFor`` that the service runs
as an ask in ``fix`` mode (app/attach_output.py builds the question; app/fix.py may
already hold a draft).
"""
from __future__ import annotations

from aish.app.verbs.context import AskFor, VerbContext



def run(args: list[str], ctx: VerbContext) -> AskFor:
    return AskFor(mode="fix", buffer=ctx.buffer)
