"""``aish explain CMD`` / ``? :explain``: explain a command piece by piece.

The model does the explaining, so this returns an ``AskFor`` that the service
runs as an ask in ``explain`` mode; without words it explains the prompt line.
"""
from __future__ import annotations

from aish.app.verbs.context import AskFor, VerbContext



def run(args: list[str], ctx: VerbContext) -> AskFor:
    return AskFor(mode="explain", buffer=" ".join(args) if args else ctx.buffer)
