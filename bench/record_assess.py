"""A pytest plugin that records every (command, cwd) the tests give the judge, for ``compare_verdicts.py``.

The tests' own inputs are the forms each rule was written for; a speed-up must leave their verdicts
as they were, the quiet ones included.  Loaded before the tests are collected, it wraps
``aish.safety.assess.assess`` (the tests import the name from there) and writes the pairs as JSON
when the run ends.

Run: PYTHONPATH=bench AISH_RECORD_ASSESS=/tmp/inputs.json python3 -m pytest -q -n0 -p record_assess tests/safety
"""
from __future__ import annotations

import json
import os

from aish.safety import assess as _module

_seen: list = []
_original = _module.assess


def _recording(command: str, cwd: str = ""):  # type: ignore[no-untyped-def]
    _seen.append((command, cwd))
    return _original(command, cwd)


_module.assess = _recording  # type: ignore[assignment]


def pytest_sessionfinish(session, exitstatus):  # type: ignore[no-untyped-def]
    path = os.environ.get("AISH_RECORD_ASSESS")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(_seen, out)
