"""``? :remember TEXT`` / ``aish remember TEXT``: keep one fact (``aish memory add``)."""
from __future__ import annotations

from aish.app.verbs import memory
from aish.app.verbs.context import VerbContext

NEEDS = memory.NEEDS


def run(args: list[str], ctx: VerbContext) -> list[str]:
    return memory.run(["add", *args], ctx)
