"""With ``AISH_TEST_TRIGGERS_CHECKED=1`` (set by ``test_triggers.py``'s slow case), every safety test
asks every rule that declared trigger words even where its words are absent, and fails if one
answered there: its declaration misses a form of its own table.

A case that asks for ``monkeypatch`` may change what the judge reads (a rule, a variable, a clock):
it judges afresh, and keeps nothing (``kept.py``)."""
from __future__ import annotations

import os

import pytest

from aish.safety.rules import triggers
from tests.safety import kept


@pytest.fixture(autouse=True)
def _triggers_checked():
    if not os.environ.get("AISH_TEST_TRIGGERS_CHECKED"):
        yield
        return
    with triggers.checked() as missed:
        yield
    missed = [(rule, line) for rule, line in missed if rule.startswith("aish.")]  # not the tests' own
    assert not missed, "rules answered where their trigger words were absent (declare them): " + \
        "; ".join(f"{rule} on {line!r}" for rule, line in missed[:20])


@pytest.fixture(autouse=True)
def _kept_verdicts_unless_patched(request):
    if "monkeypatch" not in request.fixturenames:
        yield
        return
    kept.paused = True
    try:
        yield
    finally:
        kept.paused = False
