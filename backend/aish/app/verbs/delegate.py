"""``? :delegate MODEL TASK`` / ``aish delegate MODEL TASK``: one task for another configured model.

The answer streams to the user and is costed as ``delegate``; the
conversation and its model stay as they were.
"""
from __future__ import annotations

from aish.app.verbs import VerbContext
from aish.errors import AishError

USAGE = "aish delegate MODEL TASK"


def run(args: list[str], ctx: VerbContext) -> list[str]:
    from aish.app import delegate

    if len(args) < 2:
        raise AishError("delegate: name a configured model and a task", hint=f"usage: {USAGE}")
    name, task = args[0], " ".join(args[1:])
    delegate.run(ctx.extra["env"], ctx.conversation, name, task, ctx.extra["reply"])
    return []
