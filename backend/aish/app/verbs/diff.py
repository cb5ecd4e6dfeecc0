"""``? :diff``: attach the staged and unstaged git diff to the next question."""
from __future__ import annotations

from aish.app import project as _project
from aish.app.verbs.context import VerbContext

NEEDS = _project.NEEDS


def run(args: list[str], ctx: VerbContext) -> list[str]:
    return _project.run_named("diff", args, ctx)
