"""With ``AISH_TEST_TRIGGERS_CHECKED=1`` (set by ``test_triggers.py``'s slow case), every safety test
asks every rule that declared trigger words even where its words are absent, and fails if one
answered there: its declaration misses a form of its own table.

A case that asks for ``monkeypatch`` may change what the judge reads (a rule, a variable, a clock):
it judges afresh, and keeps nothing (``kept.py``).

That is a pair of hooks, and the triggers' fixture exists only in the run that sets the variable: an
autouse fixture costs pytest ~50 us a case, and two of them on every one of ~1,100 safety cases were
~0.1 s of a unit run's CPU."""
from __future__ import annotations

import os

import pytest

from aish.safety.rules import triggers
from tests.safety import kept

if os.environ.get("AISH_TEST_TRIGGERS_CHECKED"):
    @pytest.fixture(autouse=True)
    def _triggers_checked():
        with triggers.checked() as missed:
            yield
        missed = [(rule, line) for rule, line in missed if rule.startswith("aish.")]  # not the tests' own
        assert not missed, "rules answered where their trigger words were absent (declare them): " + \
            "; ".join(f"{rule} on {line!r}" for rule, line in missed[:20])


def pytest_runtest_setup(item):
    """Before the case's fixtures are made (a conftest's hook runs before pytest's own)."""
    kept.paused = "monkeypatch" in item.fixturenames


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    """After the case's fixtures are gone (its monkeypatch undone)."""
    kept.paused = False
