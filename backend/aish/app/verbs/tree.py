"""``? :tree [DEPTH]``: attach the project's file tree to the next question."""
from __future__ import annotations

from aish.app import project as _project
from aish.app.verbs.context import VerbContext

NEEDS = _project.NEEDS


def run(args: list[str], ctx: VerbContext) -> list[str]:
    return _project.run_named("tree", args, ctx)
