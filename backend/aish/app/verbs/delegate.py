"""``? :delegate MODEL TASK`` / ``aish delegate MODEL TASK``: one task for another configured model.

The answer streams to the user and is costed as ``delegate``; the
conversation and its model stay as they were.
"""
from __future__ import annotations

from aish.app.verbs.context import VerbContext
from aish.errors import AishError
from aish.ipc.verbs import BY_NAME

USAGE = BY_NAME["delegate"].synopsis


def run(args: list[str], ctx: VerbContext) -> list[str]:
    if len(args) < 2:
        raise AishError("delegate: name a configured model and a task", hint=f"usage: {USAGE}")
    name, task = args[0], " ".join(args[1:])
    assert ctx.delegate is not None  # the row's needs name the model
    ctx.delegate(name, task)  # streams to the user; costed as `delegate`
    return []
