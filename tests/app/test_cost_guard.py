"""The cost guard (app/cost_guard.py through model_call.Caller): a call that would cross a cap
is refused before any byte leaves, with one line naming the cap, the spending and the raise."""
from __future__ import annotations

import pytest

from aish.app import cost_guard
from aish.app.model_call import Caller
from aish.cost.ledger import Ledger
from aish.errors import CostCapReached
from aish.llm.events import Usage
from aish.llm.limits import PAID_ANSWER_CAP, Limits
from aish.llm.plan import Plan
from aish.llm.servers import ServerInfo
from tests.app.test_ask import Script, make, text
from tests.doubles import CharTokens, RecordingReply

PRICED = {"models": {"fast": {"endpoint": "http://127.0.0.1:9", "model": "small"},
                     "cloud": {"endpoint": "https://cloud.example", "model": "c",
                               "price_in": 3.0, "price_out": 15.0}},
          "default_model": "cloud"}




def guarded(script, cost, memory_dir, info=None):
    raw = {**PRICED, "cost": cost}
    env, conv = make(script, raw)
    env.limits = Limits(CharTokens(), identify=lambda *a, **k: info or ServerInfo())
    env.ledger = Ledger(memory_dir / "ledger.sqlite3")
    return env, conv


QUESTION = [{"role": "user", "content": "x" * 4000}]  # ~1,000 tokens: $0.003 in, $0.06 for a full answer


def test_a_call_that_would_cross_the_conversation_cap_is_refused_before_anything_is_sent(memory_dir):
    script = Script(text("answer", Usage(1000, 50, cost=0.05)), text("never"))
    env, conv = guarded(script, {"cap_at_dollars": 0.10}, memory_dir)
    caller = Caller(env, conv)
    caller.call(QUESTION, category="main", reply=RecordingReply())
    with pytest.raises(CostCapReached) as caught:
        caller.call(QUESTION, category="main", reply=RecordingReply())
    assert len(script.seen) == 1  # the second call never left
    line = str(caught.value)
    assert line.startswith("cost: cloud: this call (~$0.0") and "past cap_at_dollars = $0.1000" in line
    assert "(spent so far: $0.0500)" in line and "'? :cost raise'" in line and "[cost]" in line
    assert caught.value.kind == "cost"


def test_the_bound_is_the_answer_cap_sent_with_the_call(memory_dir):
    script = Script(text("answer"))
    env, conv = guarded(script, {"cap_at_dollars": 1.0}, memory_dir)
    sent = []
    real = script.stream
    env.stream = lambda model, messages, **kw: sent.append(kw.get("max_tokens")) or real(model, messages, **kw)
    Caller(env, conv).call(QUESTION, category="main", reply=RecordingReply())
    assert sent == [PAID_ANSWER_CAP]  # a paid model under a cap always gets a cap


def test_the_daily_cap_counts_every_conversation_and_a_raise_lifts_it(memory_dir):
    script = Script(text("answer"), text("after the raise"))
    env, conv = guarded(script, {"cap_daily_dollars": 0.08}, memory_dir)
    env.ledger.record(conv="another-shell", model="cloud", category="main",
                      usage=Usage(1000, 100, cost=0.07), local=False)
    with pytest.raises(CostCapReached) as caught:
        Caller(env, conv).call(QUESTION, category="main", reply=RecordingReply())
    assert "today's spending" in str(caught.value) and "cap_daily_dollars = $0.0800" in str(caught.value)
    env.ledger.add_raise(0.10)
    assert Caller(env, conv).call(QUESTION, category="main", reply=RecordingReply()).text == "answer"


def test_a_free_local_call_never_crosses_a_cap(memory_dir):
    script = Script(text("local answer"))
    env, conv = guarded(script, {"cap_at_dollars": 0.0}, memory_dir)
    response = Caller(env, conv).call(QUESTION, category="main", model=env.config.models["fast"],
                                      reply=RecordingReply())
    assert response.text == "local answer"


def test_prices_come_from_the_config_the_listing_or_the_reported_history(memory_dir):
    env, _ = guarded(Script(), {"cap_at_dollars": 1.0}, memory_dir)
    plan = Plan(prompt_tokens=1000, window=None, answer_tokens=100)
    assert cost_guard.price(env, env.config.models["cloud"], plan) == pytest.approx((3000 + 1500) / 1e6)
    unpriced = env.config.models["cloud"].__class__(name="other", endpoint="https://x.example", model="o")
    assert cost_guard.price(env, unpriced, plan) is None  # nothing tells: unknown
    env.ledger.record(conv="c", model="other", category="main", usage=Usage(900, 100, cost=0.01), local=False)
    assert cost_guard.price(env, unpriced, plan) == pytest.approx(1100 * 0.01 / 1000)
    env.limits = Limits(CharTokens(), identify=lambda *a, **k: ServerInfo(price_in=0.15, price_out=0.6))
    assert cost_guard.price(env, unpriced, plan) == pytest.approx((150 + 60) / 1e6)


def test_an_unknown_price_is_refused_only_once_the_cap_is_reached(memory_dir):
    script = Script(text("a", Usage(10, 10, cost=0.2)), text("never"))
    raw = {"models": {"fast": {"endpoint": "https://x.example", "model": "o"}}, "cost": {"cap_at_dollars": 0.2}}
    env, conv = make(script, raw)
    env.limits = Limits(CharTokens(), identify=lambda *a, **k: ServerInfo())
    caller = Caller(env, conv)
    caller.call(QUESTION, category="main", reply=RecordingReply())
    with pytest.raises(CostCapReached) as caught:
        caller.call(QUESTION, category="main", reply=RecordingReply())
    assert "price unknown" in str(caught.value)


def test_a_callers_own_allowance_uses_the_same_estimate(memory_dir):
    script = Script(text("step"))
    env, conv = guarded(script, {}, memory_dir)
    allowance = cost_guard.Allowance(key="norris.max_dollars", limit=0.01, spent=0.0)
    with pytest.raises(CostCapReached) as caught:
        Caller(env, conv).call(QUESTION, category="norris", reply=RecordingReply(), allowance=allowance)
    assert "past norris.max_dollars = $0.0100" in str(caught.value) and script.seen == []
