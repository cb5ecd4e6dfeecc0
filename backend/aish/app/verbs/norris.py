"""``? :norris GOAL`` (``?? GOAL`` in the shells): start a task; alone: show it; ``resume``.

The shell's own precmd hook sends ``:norris --ran STATUS MS COMMAND`` after each
command while a task waits in that shell; that report plans the next step.
The loop itself is ``app/norris.py``.
"""
from __future__ import annotations

from aish.app.norris_autorun import policy_lines
from aish.app.norris_task import Task
from aish.app.verbs.context import TaskFor, VerbContext
from aish.errors import AishError
from aish.ipc.verbs import BY_NAME

USAGE = BY_NAME["norris"].synopsis


def run(args: list[str], ctx: VerbContext):
    if args[:1] == ["--ran"]:
        if len(args) < 4:
            raise AishError("norris --ran needs STATUS MS COMMAND", hint="the shell integration sends it")
        try:
            status, ms = int(args[1]), int(args[2])
        except ValueError:
            raise AishError(f"norris --ran: '{args[1]} {args[2]}' are not numbers",
                            hint="the shell integration sends it") from None
        return TaskFor("report", status=status, ms=ms, command=" ".join(args[3:]))
    if args == ["resume"]:
        return TaskFor("resume")
    if args:
        return TaskFor("start", goal=" ".join(args))
    assert ctx.session is not None  # its row needs it
    task = Task.from_dict(ctx.session.task)
    if task is None:
        return ["[aish] norris: no task in this shell; start one: ? :norris GOAL (or ?? GOAL)"] + \
            policy_lines(ctx.config.norris, None)
    return task.lines(ctx.config.norris.max_steps) + policy_lines(ctx.config.norris, task)
