"""The judge's verdicts kept for the rest of a test process: ``assess`` here is the judge's, judged once
per exact input.  The helpers the tables and corpora are checked with (``test_long_tail``'s ``reaches``
and ``stays_quiet``, ``forms``' ``flagged`` and ``corpus_floor``, the corpus cases) judge through it.

Why: one xdist worker judges the same line in several cases (a fresh round's line in a class table, a
training set's line in its floor and its class's table, everyday lines in several corpora): in one
process, 1.5 of the 14.5 s the safety tests spent judging went to lines judged before.

Sound because the verdict is a function of what is in the key, nothing else:
- the command, the cwd, and the variables the judge reads (``aish.app.verdicts.ENV_READ``: the daemon
  keeps its verdicts on the same key, and ``tests/app/test_verdicts.py`` fails a rule that reads
  anything else: another variable, a file, a clock, a process);
- the rules' gating (``triggers.every_rule_runs()``, ``triggers.checked()``).  Under ``checked()`` the
  rules that answered where their words were absent are kept with the verdict and listed again in the
  current ``checked()`` each time it is served; a line judged there with none is also kept as the
  index's verdict (``test_triggers.py`` holds that the two readings agree).
A judgement that took a second (the judge's CPU-time budget could have cut it short) is not kept, and a
case that patches anything (it asks for ``monkeypatch``: tests/safety/conftest.py) judges afresh.
``tests/safety/test_kept.py`` compares kept verdicts with fresh ones."""
from __future__ import annotations

import os
import time
from typing import Optional

from aish.app.verdicts import ENV_READ
from aish.safety import assess as judge
from aish.safety.rules import triggers

# the judge stops at one second of CPU (assess._TIME_BUDGET) and only once a second of wall time passed
_MAY_BE_CUT = judge._TIME_BUDGET

# the variables' names as the environment's own bytes dict keys them: reading that dict is ~0.5 us a
# key, against ~3 us through ``os.environ`` (which encodes each name and decodes each value)
_ENV_KEYS = tuple(os.fsencode(name) for name in ENV_READ)

_kept: dict = {}
paused = False  # a case that patches: judged afresh, nothing kept (conftest.py)


def assess(command: str, cwd: str = "") -> Optional[judge.Verdict]:
    """``aish.safety.assess.assess(command, cwd)``, judged once per key in this process."""
    if paused:
        return judge.assess(command, cwd)
    listing = triggers._missed  # the list the current ``checked()`` fills, or None
    environ = getattr(os.environ, "_data", None)  # what os.environ reads and writes (POSIX)
    values = map(environ.get, _ENV_KEYS) if environ is not None else map(os.environ.get, ENV_READ)
    key = (command, cwd, *values, triggers._everything, listing is not None)
    found = _kept.get(key)
    if found is not None:
        verdict, missed = found
        if listing is not None:
            listing.extend(missed)
        return verdict
    started = time.perf_counter()
    if listing is None:
        verdict, missed = judge.assess(command, cwd), ()
    else:
        with triggers.checked() as this_line:
            verdict = judge.assess(command, cwd)
        missed = tuple(this_line)
        listing.extend(missed)
    if time.perf_counter() - started < _MAY_BE_CUT:
        _kept[key] = (verdict, missed)
        if listing is not None and not missed and not triggers._everything:
            _kept.setdefault(key[:-1] + (False,), (verdict, ()))  # what the index gives (test_triggers.py)
    return verdict


def forget() -> None:
    """Drop every kept verdict."""
    _kept.clear()
