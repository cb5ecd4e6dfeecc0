"""``aish reset`` / ``? :reset``: start the conversation afresh; usage totals are kept."""
from __future__ import annotations

from aish.app.verbs.context import NEED_CONVERSATION, VerbContext
from aish.errors import AishError

NEEDS = frozenset({NEED_CONVERSATION})


def run(args: list[str], ctx: VerbContext) -> list[str]:
    if args:
        raise AishError(f"reset takes no arguments (got '{' '.join(args)}')", hint="usage: aish reset")
    assert ctx.conversation is not None  # NEEDS asks for it
    ctx.conversation.reset()
    return ["[aish] conversation reset (usage totals kept; 'aish cost reset' clears them)"]
