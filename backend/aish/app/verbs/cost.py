"""``aish cost`` / ``? :cost``: tokens and money, for this conversation or across sessions.

    aish cost                    one line: this conversation's totals
    aish cost detail             per model and category, most expensive first
    aish cost reset              zero this conversation's totals and re-arm the warnings
    aish cost raise [DOLLARS]    let the cost caps allow DOLLARS more (default: each cap's own size)
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
    if args and args[0] == "raise":
        return _raise(args[1:], ctx)
    action, period, as_json = _parse(args, ctx)
    if period is not None:
        return _ledger(action, period, as_json, ctx)
    totals = ctx.usage
    if totals is None:
        from aish.cost.usage import UsageTotals

        totals = UsageTotals()
    if action == "reset":
        totals.reset()
        if ctx.session is not None and ctx.session.log:  # a restart replays it
            ctx.session.log.append({"type": "cost_reset"})
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


def _raise(args: list[str], ctx: VerbContext) -> list[str]:
    """The caps a refused call named allow ``DOLLARS`` more: this conversation's (kept in its
    log) and today's (kept in the ledger, for every shell); without an amount, each its own size."""
    from aish.cost.usage import money

    words = list(args)  # (--json is taken off by dispatch.parse)
    try:
        dollars = float(words[0].lstrip("$")) if words else None
    except ValueError:
        dollars = None
    if len(words) > 1 or (words and (dollars is None or not dollars > 0)):
        raise AishError(f"cost: 'raise' takes an amount in dollars, got '{' '.join(words)}'",
                        hint="e.g. 'aish cost raise 0.50' (without one: each cap's own size)")
    cfg = ctx.config.cost if ctx.config is not None else None
    per_conv = cfg.cap_at_dollars if cfg is not None else None
    daily = cfg.cap_daily_dollars if cfg is not None else None
    if per_conv is None and daily is None:
        raise AishError("cost: no cost cap is set, nothing to raise",
                        hint="set cap_at_dollars or cap_daily_dollars in [cost] of the config")
    raised: dict = {}
    lines = []
    if per_conv is not None and ctx.usage is not None:
        amount = dollars if dollars is not None else per_conv
        ctx.usage.raise_cap(amount)
        if ctx.session is not None and ctx.session.log:  # a restart replays it
            ctx.session.log.append({"type": "cost_raise", "dollars": amount})
        raised["conversation"] = amount
        lines.append(f"this conversation may spend {money(amount)} more "
                     f"(cap {money(per_conv + ctx.usage.cap_extra)})")
    if daily is not None and ctx.ledger is not None:
        from aish.cost.ledger import period_start

        amount = dollars if dollars is not None else daily
        ctx.ledger.add_raise(amount)
        raised["today"] = amount
        lines.append(f"today {money(amount)} more (cap {money(daily + ctx.ledger.raised(period_start('today')))})")
    if ctx.json:
        return [json.dumps({"raised": raised})]
    return ["[aish] cost caps raised: " + "; ".join(lines)]
