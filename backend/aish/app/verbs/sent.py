"""``aish sent`` / ``? :sent``: the receipt of what the last ask sent to a model (app/receipt.py)."""
from __future__ import annotations

import json

from aish.app import receipt
from aish.app.verbs.context import VerbContext
from aish.errors import AishError


def run(args: list[str], ctx: VerbContext) -> list[str]:
    unknown = [a for a in args if a != "--all"]
    if unknown:
        raise AishError(f"sent takes --all or --json (got '{' '.join(unknown)}')",
                        hint="usage: aish sent [--all] [--json]")
    assert ctx.session is not None  # its row needs it
    last = receipt.last(ctx.session)
    if ctx.json:
        return [json.dumps(receipt.to_json(last), ensure_ascii=False)]
    return receipt.lines(last, full="--all" in args)
