"""Effect: the machine's clock set to an implausible year, by any program's own words for setting it.

A clock set years back or ahead breaks everything that trusts time: every TLS certificate is not yet
valid or expired, Kerberos tickets are refused, backups and logs are pruned or kept by the wrong age,
scheduled jobs fire at once.  Programs say it their own way (``date -s``, ``hwclock --set --date``,
``timedatectl set-time``, ``chronyc settime``, ``Set-Date -Date``, a BMC's ``sel time set``,
``esxcli system time set -y``); what they share is a setting word (``set``, ``-s``, ``--set``,
``settime``, ``set-time``, ``-setdate``, PowerShell's ``Set-Date``), a clock word (date, time, clock, rtc)
in the program's name or its words, and a year given outside the plausible ones (before 2020 or after
2037; fixed, so a kept verdict stays true).

Reading or printing a date (``date -d``), a date given to one file or commit (``touch -d``,
``git commit --date``), a process's fake clock (``faketime``), an adjustment (``Set-Date -Adjust``) and a
clock set to a plausible year stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_SETS = frozenset({"-s", "--set", "set", "settime", "set-time", "setdate", "-setdate", "-settime", "set-date",
                   "set-clock", "setclock"})
_CLOCK = re.compile(r"date|time|clock|rtc", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d.:])(1[89]\d\d|2\d\d\d)(?![\d])")
# The years a clock may plausibly be set to.  Fixed, not read from the clock: a verdict is kept by its command
# (verdicts' key), and a rule that reads the clock would make a kept one stale.
_PLAUSIBLE = (2020, 2037)
# A fake clock for one process, a file's or a commit's date: not the machine's.
_NOT_THE_CLOCK = frozenset({"faketime", "libfaketime", "touch", "git", "datefudge", "get-date"})


@triggered_by("set", "-s", otherwise=False)
def may_set_clock(c: Ctx) -> bool:
    """A setting word on the line: most commands leave here."""
    return "set" in c.prog.lower() or "set" in c.lowered or "-s" in c.lowered


def _name(prog: str) -> str:
    return prog.lower().rsplit("/", 1)[-1].rsplit("\\", 1)[-1].removesuffix(".exe")


def rule_clock_set(c: Ctx) -> Optional[tuple]:
    if not _YEAR.search(c.lowered):
        return None
    name = _name(c.prog)
    if name in _NOT_THE_CLOCK:
        return None
    tokens = [p for t in c.texts[:24] for p in t.lower().replace("=", " ").split()]
    said = next((t for t in tokens if t in _SETS), None)
    if said is None and name in _SETS:
        said = name  # `Set-Date -Date "01/01/2000"`
    if said is None or not (_CLOCK.search(name) or any(_CLOCK.search(t) for t in tokens)):
        return None
    for t in c.texts[:24]:
        for m in _YEAR.finditer(t):
            year = int(m.group(1))
            if not _PLAUSIBLE[0] <= year <= _PLAUSIBLE[1]:
                return MEDIUM, f"{c.prog} {said} sets the machine's clock to {year}: certificates, Kerberos " \
                    f"tickets, retention and schedules all go wrong ({c.text})"
    return None
