"""Second opinions: which commands get one, cached per command text, bounded by a timeout
(their path through an ask: tests/app/test_ask_safety.py)."""
from __future__ import annotations

import threading

from aish.safety.assess import Verdict
from aish.safety.opinions import unknown_writer
from aish.safety.opinions import Opinions

LOCAL = Verdict("medium", "git reset --hard discards uncommitted changes (git reset --hard)")


def test_unknown_program_with_write_looking_words_is_sent_for_an_opinion():
    assert unknown_writer("acme-cli cluster destroy --force")
    assert unknown_writer("sudo frobctl --purge data")
    assert not unknown_writer("acme-cli cluster list")
    assert not unknown_writer("tail -f app.log")
    assert not unknown_writer("rm -rf /")  # known: the local rules speak


class Counting:
    def __init__(self, answer="LEVEL: high - wipes the cluster", gate=None):
        self.answer, self.gate, self.calls = answer, gate, 0

    def __call__(self, model_cfg, messages, **kw):
        self.calls += 1
        if self.gate is not None:
            self.gate.wait(10)
        return self.answer, None


def test_opinions_are_cached_per_command_text():
    opinions, complete = Opinions(), Counting()
    first = opinions.gather([(0, "acme destroy --force", None)], "m", complete, timeout=10)
    again = opinions.gather([(7, "acme destroy --force", None)], "m", complete, timeout=10)
    assert first[0].level == "high" and again[7] == first[0] and complete.calls == 1
    assert "unknown to the local rules" in first[0].reason


def test_a_slow_opinion_never_holds_the_answer_past_its_timeout_and_lands_in_the_cache_later():
    gate = threading.Event()
    opinions, complete = Opinions(), Counting(gate=gate)
    result = opinions.gather([(0, "git reset --hard", LOCAL)], "m", complete, timeout=0.05)
    assert result == {0: None}  # the local verdict stands
    gate.set()
    opinions._pool.shutdown(wait=True)
    assert opinions.cached("m", "git reset --hard").level == "high"


def test_failures_are_not_cached():
    opinions = Opinions()
    assert opinions.gather([(0, "x --force", None)], "m", Counting(answer="no idea"), timeout=10) == {0: None}
    assert opinions.cached("m", "x --force") is None


def test_llm_timeout_out_of_range_is_one_clear_config_error():
    import pytest

    from aish.config.load import from_dict
    from aish.errors import ConfigError

    base = {"models": {"m": {"endpoint": "http://127.0.0.1:9", "model": "x"}}, "default_model": "m"}
    assert from_dict({**base, "safety": {"llm_timeout": 2.5}}).safety.llm_timeout == 2.5
    for bad in (0, 500):
        with pytest.raises(ConfigError, match="safety.llm_timeout .* between 0 and 120 seconds"):
            from_dict({**base, "safety": {"llm_timeout": bad}})
