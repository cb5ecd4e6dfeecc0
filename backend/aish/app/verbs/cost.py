"""``aish cost`` / ``? :cost``: tokens and money, for this conversation or across sessions.

    aish cost                    one line: this conversation's totals
    aish cost detail             per model and category, most expensive first
    aish cost reset              zero this conversation's totals and re-arm the warnings
    aish cost --today|--week|--all [detail]   the cross-session ledger
    ... --json                   one JSON object instead of text

Reading never calls a model.  ``reset`` leaves the ledger alone: it is
history, not a meter.
"""
from __future__ import annotations

import json
from typing import Optional

from aish.app.verbs.context import VerbContext
from aish.errors import AishError
from aish.ipc.verbs import BY_NAME

USAGE = BY_NAME["cost"].synopsis
_PERIODS = {"--today": "today", "--week": "week", "--all": "all"}


def run(args: list[str], ctx: VerbContext) -> list[str]:
    action, period, as_json = _parse(args, ctx)
    if period is not None:
        return _ledger(action, period, as_json, ctx)
    totals = ctx.usage
    if totals is None:
        from aish.cost.usage import UsageTotals

        totals = UsageTotals()
    if action == "reset":
        totals.reset()
        if ctx.conversation is not None and ctx.conversation.log:  # a restart replays it
            ctx.conversation.log.append({"type": "cost_reset"})
        if as_json:
            return [json.dumps({"reset": True})]
        return ["[aish] session usage reset (the --today/--week/--all ledger keeps its history)"]
    if as_json:
        return [json.dumps(totals.to_json())]
    if action == "detail":
        return totals.detail_lines()
    return [totals.summary_line()]


def _parse(args: list[str], ctx: VerbContext) -> tuple[str, Optional[str], bool]:
    action, period, as_json = "summary", None, bool(ctx.json)
    for arg in args:
        if arg in _PERIODS:
            if period is not None and _PERIODS[arg] != period:
                raise AishError(f"cost: choose one of --today, --week, --all (got {arg} too)",
                                hint=f"usage: {USAGE}")
            period = _PERIODS[arg]
        elif arg in ("detail", "reset") and action in ("summary", arg):
            action = arg
        else:
            raise AishError(f"cost: unexpected argument '{arg}'", hint=f"usage: {USAGE}")
    if action == "reset" and period is not None:
        raise AishError("cost: 'reset' clears this conversation's totals; the ledger is history "
                        "and is not reset", hint="run 'aish cost reset' without a period")
    return action, period, as_json


def _ledger(action: str, period: str, as_json: bool, ctx: VerbContext) -> list[str]:
    ledger = ctx.ledger
    if ledger is None:
        if as_json:
            return [json.dumps({"period": period, "available": False})]
        return ["[aish] cost ledger unavailable (see the daemon log); session totals: 'aish cost'"]
    if as_json:
        from aish.cost.ledger import period_start

        return [json.dumps({"period": period, **ledger.totals(period_start(period))})]
    return ledger.lines(period, detail=action == "detail")
