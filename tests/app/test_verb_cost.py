"""``aish cost`` argument handling and output, session and ledger, text and JSON."""
from __future__ import annotations

import json

import pytest

from aish.app.verbs.context import VerbContext
from aish.app.verbs import cost
from aish.config.load import from_dict
from aish.errors import AishError
from aish.llm.events import Usage
from aish.cost.ledger import Ledger
from aish.cost.usage import UsageTotals


@pytest.fixture
def ctx(memory_dir):
    usage = UsageTotals()
    usage.add("cloud", "main", Usage(3850, 980, cost=0.018), local=False, est_prompt=3000)
    usage.add("fast", "main", Usage(8200, 2100), local=True)
    ledger = Ledger(memory_dir / "l.db")
    ledger.record(conv="x", model="cloud", category="main", usage=Usage(10, 5, cost=0.5), local=False)
    return VerbContext(config=from_dict({}), overrides={}, usage=usage, ledger=ledger)


def test_plain_cost_is_one_summary_line(ctx):
    assert cost.run([], ctx) == ["[aish] session usage: 2 calls, prompt=12,050 / completion=3,080 tokens "
                                 "cost=$0.0180 (cloud $0.0180; local 1 call, free)"]


def test_detail_shows_rows_and_the_estimate_disagreement(ctx):
    lines = cost.run(["detail"], ctx)
    assert lines[0] == "[aish] session usage detail:"
    assert "3,850 ~est=3,000 / 980 tokens, $0.0180" in lines[1]
    assert lines[2].endswith("$0 (local)")


def test_reset_clears_the_session_but_not_the_ledger(ctx):
    assert cost.run(["reset"], ctx)[0].startswith("[aish] session usage reset")
    assert ctx.usage.total_tokens() == (0, 0)
    assert cost.run(["--all"], ctx)[0].startswith("[aish] usage, all time: 1 call,")


def test_ledger_periods(ctx):
    assert cost.run(["--today"], ctx)[0].startswith("[aish] usage today: 1 call, prompt=10 / completion=5")
    lines = cost.run(["detail", "--week"], ctx)
    assert len(lines) == 2 and lines[1].split()[:2] == ["cloud", "main"]


def test_json_variants_are_one_parsable_line(ctx):
    ctx.json = True  # the dispatcher sets it when --json was given, wherever it stood
    session = json.loads(*cost.run([], ctx))
    assert session["calls"] == 2 and session["rows"][0]["model"] == "cloud"
    assert session["rows"][0]["est_shown"] == 3000
    detail = json.loads(*cost.run(["detail"], ctx))
    assert detail == session
    week = json.loads(*cost.run(["--week"], ctx))
    assert week["period"] == "week" and week["calls"] == 1 and week["cost"] == 0.5
    assert json.loads(*cost.run(["reset"], ctx)) == {"reset": True}


@pytest.mark.parametrize("args, fragment", [
    (["bogus"], "unexpected argument 'bogus'"),
    (["detail", "reset"], "unexpected argument 'reset'"),
    (["--today", "--week"], "choose one of"),
    (["reset", "--all"], "is not reset"),
])
def test_bad_arguments_name_the_usage(ctx, args, fragment):
    with pytest.raises(AishError) as info:
        cost.run(args, ctx)
    assert fragment in str(info.value) and ("aish cost" in str(info.value))


def test_without_a_ledger_or_totals_it_still_answers():
    ctx = VerbContext(config=from_dict({}), overrides={})
    assert cost.run([], ctx)[0].startswith("[aish] session usage: 0 calls")
    assert "cost ledger unavailable" in cost.run(["--today"], ctx)[0]
    ctx.json = True
    assert json.loads(*cost.run(["--today"], ctx)) == {"period": "today", "available": False}
