"""``? :halt``: stop this shell's norris task; its state stays for ``? :norris resume``."""
from __future__ import annotations

from aish.app import norris
from aish.app.verbs.context import VerbContext
from aish.context.output import plural
from aish.errors import AishError



def run(args: list[str], ctx: VerbContext) -> list[str]:
    if args:
        raise AishError(f"halt takes no arguments (got '{' '.join(args)}')", hint="usage: aish halt")
    assert ctx.session is not None  # its row needs it
    task = norris.halt(ctx.session)
    if task is None:
        return ["[aish] norris: no task is running in this shell"]
    return [f"[aish] norris: halted after {plural(task.steps, 'step')}: {task.goal} ('? :norris resume' continues)"]
