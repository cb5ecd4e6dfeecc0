"""``aish trust [--revoke]``: trust this project's AISH.md and .aish.toml as they are now."""
from __future__ import annotations

from aish.app import project as _project
from aish.app.verbs.context import VerbContext

NEEDS = _project.NEEDS


def run(args: list[str], ctx: VerbContext) -> list[str]:
    return _project.run_named("trust", args, ctx)
