"""``aish reset`` / ``? :reset``: start the conversation afresh; usage totals are kept."""
from __future__ import annotations

from aish.app.verbs.context import VerbContext
from aish.errors import AishError



def run(args: list[str], ctx: VerbContext) -> list[str]:
    if args:
        raise AishError(f"reset takes no arguments (got '{' '.join(args)}')", hint="usage: aish reset")
    assert ctx.session is not None  # its row needs it
    ctx.session.reset()
    return ["[aish] conversation reset (usage totals kept; 'aish cost reset' clears them)"]
