"""Usage totals, pricing, estimates and the seed phase 7 / 8 line formats."""
from __future__ import annotations

import json
import threading

from aish.config.schema import CostConfig, ModelConfig
from aish.llm.events import Usage
from aish.llm.tokens import TokenCounter
from aish.cost.usage import Bucket, UsageTotals, estimate_usage, money, price_usage

LOCAL = ModelConfig(name="fast", endpoint="http://127.0.0.1:8080", model="qwen")
CLOUD = ModelConfig(name="cloud", endpoint="https://cloud.example/api", model="c",
                    price_in=3.0, price_out=15.0)


def seed_session() -> UsageTotals:
    """The seed §1 example: 14 local main calls, 10 cloud calls in three categories."""
    t = UsageTotals()
    for _ in range(14):
        t.add("fast", "main", Usage(586, 150), local=True)
    for _ in range(8):
        t.add("cloud", "main", Usage(481, 122, cost=0.00225), local=False)
    t.add("cloud", "delegate", Usage(250, 80, cost=0.0012), local=False)
    t.add("cloud", "probe", Usage(150, 30, cost=0.0042), local=False)
    return t


def test_summary_line_is_the_seed_format_worded_from_the_data():
    t = seed_session()
    assert t.summary_line() == ("[aish] session usage: 24 calls, prompt=12,452 / completion=3,186 "
                                "tokens cost=$0.0234 (cloud $0.0234; local 14 calls, free)")


def test_detail_groups_models_most_expensive_first_with_local_marked():
    lines = seed_session().detail_lines()
    assert lines[0] == "[aish] session usage detail:"
    rows = [line.split() for line in lines[1:]]
    assert [(r[0], r[1]) for r in rows] == [("cloud", "main"), ("cloud", "probe"),
                                            ("cloud", "delegate"), ("fast", "main")]
    assert lines[1].endswith("8 calls, 3,848 / 976 tokens, $0.0180")
    assert lines[3].endswith("1 call, 250 / 80 tokens, $0.0012")  # singular, as in the seed
    assert lines[4].endswith("14 calls, 8,204 / 2,100 tokens, $0 (local)")


def test_empty_totals_say_so():
    t = UsageTotals()
    assert t.summary_line().startswith("[aish] session usage: 0 calls, prompt=0 / completion=0")
    assert t.detail_lines() == ["[aish] session usage detail: no calls yet"]


def test_a_cost_a_local_endpoint_reports_is_counted():
    """A gateway on localhost (LiteLLM, an OpenRouter proxy) reports real money."""
    t = UsageTotals()
    t.add("fast", "main", Usage(10, 5, cost=1.5), local=True)
    t.add("fast", "main", Usage(10, 5), local=True)  # no cost reported, no price: free
    assert t.total_cost() == 1.5 and t.total_tokens() == (20, 10)
    assert "$1.5000 (local)" in t.detail_lines()[1]


def test_estimated_calls_are_marked():
    t = UsageTotals()
    t.add("fast", "main", Usage(100, 20, estimated=True), local=True)
    t.add("fast", "main", Usage(100, 20), local=True)
    assert "(local; 1 estimated)" in t.detail_lines()[1]
    assert t.summary_line().endswith("(local 2 calls, free; estimated: 1 call)")
    assert t.to_json()["estimated_calls"] == 1


def test_est_annotation_only_beyond_ten_percent():
    t = UsageTotals()
    t.add("fast", "main", Usage(179, 8), local=True, est_prompt=164)  # 8.4 % off: silent
    assert "~est" not in t.detail_lines()[1]
    t.add("cloud", "main", Usage(558, 80, cost=0.001), local=False, est_prompt=508)  # 9 %: silent
    t.add("cloud", "main", Usage(442, 20, cost=0.001), local=False, est_prompt=300)
    line = [line for line in t.detail_lines() if "cloud" in line][0]
    assert "1,000 ~est=808 / 100 tokens" in line


def test_est_ignores_calls_that_were_estimated_themselves():
    t = UsageTotals()
    t.add("fast", "main", Usage(400, 10, estimated=True), local=True, est_prompt=400)
    t.add("fast", "main", Usage(200, 10), local=True, est_prompt=100)
    b = Bucket(**{k: v for k, v in t.rows()[0].items() if k not in ("model", "category")})
    assert (b.est_prompt, b.est_actual) == (100, 200)
    assert b.est_shown() == 500  # the 400 estimated + the 100 estimate for the reported 200


def test_warnings_fire_once_on_the_crossing_call_and_rearm_on_reset():
    cfg = CostConfig(warn_at_dollars=0.5, warn_at_tokens=1000)
    t = UsageTotals()
    t.add("cloud", "main", Usage(400, 100, cost=0.3), local=False)
    assert t.check_warnings(cfg) == []
    t.add("cloud", "main", Usage(400, 200, cost=0.25), local=False)
    assert t.check_warnings(cfg) == [
        "session cost $0.5500 has crossed warn_at_dollars=$0.5000",
        "session tokens 1,100 have crossed warn_at_tokens=1,000",
    ]
    t.add("cloud", "main", Usage(1, 1, cost=1.0), local=False)
    assert t.check_warnings(cfg) == []
    t.reset()
    assert t.total_cost() == 0 and t.check_warnings(cfg) == []
    t.add("cloud", "main", Usage(10, 10, cost=0.6), local=False)
    assert t.check_warnings(cfg) == ["session cost $0.6000 has crossed warn_at_dollars=$0.5000"]


def test_raising_a_threshold_rearms_it_and_no_config_means_no_warning():
    t = UsageTotals()
    t.add("cloud", "main", Usage(10, 10, cost=0.6), local=False)
    assert t.check_warnings(CostConfig()) == []
    assert len(t.check_warnings(CostConfig(warn_at_dollars=0.5))) == 1
    t.add("cloud", "main", Usage(10, 10, cost=0.6), local=False)
    assert len(t.check_warnings(CostConfig(warn_at_dollars=1.0))) == 1
    assert t.check_warnings(CostConfig(warn_at_dollars=0.5)) == []


def test_round_trip_through_a_json_log_keeps_totals_and_fired_flags():
    t = seed_session()
    t.add("fast", "main", Usage(100, 1), local=True, est_prompt=50)
    t.check_warnings(CostConfig(warn_at_dollars=0.01))
    back = UsageTotals.from_dict(json.loads(json.dumps(t.to_dict())))
    assert back.summary_line() == t.summary_line() and back.detail_lines() == t.detail_lines()
    assert back.check_warnings(CostConfig(warn_at_dollars=0.01)) == []


def test_from_dict_drops_garbage_instead_of_raising():
    back = UsageTotals.from_dict({"buckets": [None, {"model": "m", "calls": "x", "cost": "nan"},
                                              {"model": "n", "calls": 2, "prompt": 5}], "fired": 3})
    assert back.total_tokens() == (5, 0)
    assert UsageTotals.from_dict("nonsense").summary_line().startswith("[aish] session usage: 0 calls")


def test_to_json_is_serializable_and_consistent():
    data = seed_session().to_json()
    json.dumps(data)
    assert data["calls"] == 24 and data["prompt"] == 12452 and round(data["cost"], 4) == 0.0234
    assert [r["model"] for r in data["rows"]][-1] == "fast"


def test_concurrent_adds_are_not_lost():
    t = UsageTotals()

    def work():
        for _ in range(500):
            t.add("m", "main", Usage(1, 1, cost=0.001), local=False)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert t.total_tokens() == (2000, 2000)


def test_price_usage_uses_config_prices_only_when_the_provider_sent_none():
    priced = price_usage(CLOUD, Usage(1_000_000, 100_000))
    assert priced.cost == 3.0 + 1.5 and priced.total_tokens == 1_100_000
    assert price_usage(CLOUD, Usage(10, 10, cost=0.01)).cost == 0.01
    unpriced = ModelConfig(name="x", endpoint="https://cloud.example", model="x")
    assert price_usage(unpriced, Usage(10, 10)).cost is None
    assert price_usage(LOCAL, Usage(10, 10, cost=2.0)).cost == 2.0  # reported: always kept
    assert not price_usage(LOCAL, Usage(10, 10)).cost  # neither reported nor priced: free


def test_estimate_usage_counts_with_the_counter_and_marks_estimated():
    counter = TokenCounter(None)
    messages = [{"role": "system", "content": "x" * 40}, {"role": "user", "content": "y" * 8}]
    u = estimate_usage(LOCAL, messages, "z" * 21, counter)
    assert (u.prompt_tokens, u.completion_tokens, u.total_tokens) == (12, 5, 17)
    assert u.estimated is True and u.cost is None and u.model == "qwen"
    assert price_usage(CLOUD, estimate_usage(CLOUD, messages, "", counter)).cost == 12 * 3.0 / 1e6


def test_money_format():
    assert (money(0), money(0.0234), money(0.000219), money(12.5)) == ("$0", "$0.0234", "$0.000219",
                                                                       "$12.5000")


def test_summary_words_where_the_money_went_from_the_data():
    """Not a fixed "(cloud only; local: 0)": all-local, gateway and mixed sessions read differently."""
    local = UsageTotals()
    local.add("fast", "main", Usage(100, 20), local=True)
    local.add("fast", "summarize", Usage(50, 10), local=True)
    assert local.summary_line().endswith("cost=$0 (local 2 calls, free)")
    gateway = UsageTotals()  # a LiteLLM proxy on localhost that reports what the cloud charged
    gateway.add("proxy", "main", Usage(100, 20, cost=0.25), local=True)
    assert gateway.summary_line().endswith("cost=$0.2500 (local $0.2500)")
    assert "cloud" not in local.summary_line() + gateway.summary_line()
    cloud = UsageTotals()
    cloud.add("cloud", "main", Usage(100, 20, cost=0.01), local=False)
    assert cloud.summary_line().endswith("cost=$0.0100 (cloud $0.0100)")
    assert UsageTotals().summary_line().endswith("cost=$0")
