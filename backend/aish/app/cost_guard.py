"""The cost guard: a call that would take spending past a cap is refused before any byte
leaves, with one line naming the cap, what was spent and how to raise it.

The caps: ``[cost] cap_at_dollars`` (this conversation, from its meter; ``aish cost raise``
adds to it), ``cap_daily_dollars`` (every conversation since local midnight, from the ledger;
raises are kept there too, so every shell and daemon sees them), and a caller's own
(``norris.max_dollars`` for a task).

The price of a call is known before it is made: the prompt as the server will count it
(``llm.limits``), the answer cap sent with it (with a cap set, a paid model always gets one,
so the estimate bounds the bill), and the model's prices: ``price_in``/``price_out`` in the
config, else the server's own listing (OpenRouter, LiteLLM), else what the model was reported
to cost per token so far (the ledger).  A local model with none of those is free, and a free
call never crosses a cap.  A paid model whose price nothing tells is refused only once the
cap is already reached.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from aish.config.schema import CostConfig, ModelConfig
from aish.cost.usage import money
from aish.errors import CostCapReached
from aish.llm.limits import PAID_ANSWER_CAP
from aish.llm.plan import Plan

if TYPE_CHECKING:
    from aish.app.env import AskEnv

RAISE_HINT = "raise it: '? :cost raise' or 'aish cost raise [DOLLARS]', or {key} in [cost] of the config"


@dataclass
class Allowance:
    """A caller's own cap (a norris task's ``max_dollars``)."""

    key: str  # the setting, as the user writes it: "norris.max_dollars"
    limit: float
    spent: float
    scope: str = "this task"
    hint: str = "set a higher norris.max_dollars in the config, then '? :norris resume'"


def bounded(cfg: CostConfig, extra: Optional[Allowance] = None) -> bool:
    """Is any cap in force (a paid model's answer then gets a cap, so its price has a bound)?"""
    return cfg.cap_at_dollars is not None or cfg.cap_daily_dollars is not None or extra is not None


def price(env: AskEnv, model: ModelConfig, plan: Plan) -> Optional[float]:
    """The dollars this call may cost at most; None when nothing tells the model's price."""
    answer = plan.answer_tokens if plan.answer_tokens is not None else PAID_ANSWER_CAP
    prices = _prices(env, model)
    if prices is not None:
        return (plan.prompt_tokens * prices[0] + answer * prices[1]) / 1_000_000
    rate = env.ledger.rate(model.name) if env.ledger is not None else None
    if rate:
        return (plan.prompt_tokens + answer) * rate
    return 0.0 if model.is_local else None


def _prices(env: AskEnv, model: ModelConfig) -> Optional[tuple[float, float]]:
    if model.price_in is not None or model.price_out is not None:
        return model.price_in or 0.0, model.price_out or 0.0
    info = env.limits.of(model).info if env.limits is not None else None
    if info is not None and (info.price_in is not None or info.price_out is not None):
        return info.price_in or 0.0, info.price_out or 0.0
    return None


def check(env: AskEnv, meter: Any, model: ModelConfig, plan: Plan,
          extra: Optional[Allowance] = None) -> Optional[float]:
    """Raise ``CostCapReached`` when the call would cross a cap; its estimated price otherwise
    (None when no cap is set or the price is unknown)."""
    cfg = env.config.cost
    if not bounded(cfg, extra):
        return None
    cost = price(env, model, plan)
    for key, cap, spent, scope, hint in _caps(env, meter, cfg, extra):
        over = spent + cost > cap if cost else (cost is None and spent >= cap)
        if over:
            shown = f"~{money(cost)}" if cost is not None else "price unknown"
            total = f" to {money(spent + cost)}" if cost is not None else ""
            raise CostCapReached(f"{model.name}: this call ({shown}) would take {scope}{total}, past "
                                 f"{key} = {money(cap)} (spent so far: {money(spent)}); not sent",
                                 hint=hint)
    return cost


def _caps(env: AskEnv, meter: Any, cfg: CostConfig, extra: Optional[Allowance]) -> list[tuple]:
    """(setting, cap, spent, what it covers, how to raise it) for every cap in force."""
    caps = []
    usage = getattr(meter, "usage", None)
    if cfg.cap_at_dollars is not None and usage is not None:
        caps.append(("cap_at_dollars", cfg.cap_at_dollars + usage.cap_extra, usage.total_cost(),
                     "this conversation", RAISE_HINT.format(key="cap_at_dollars")))
    if cfg.cap_daily_dollars is not None and env.ledger is not None:
        from aish.cost.ledger import period_start

        today = period_start("today")
        caps.append(("cap_daily_dollars", cfg.cap_daily_dollars + env.ledger.raised(today),
                     env.ledger.spent(today), "today's spending", RAISE_HINT.format(key="cap_daily_dollars")))
    if extra is not None:
        caps.append((extra.key, extra.limit, extra.spent, extra.scope, extra.hint))
    return caps
