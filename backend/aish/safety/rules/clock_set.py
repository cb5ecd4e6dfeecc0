"""Effect: the machine's clock set to an implausible year, by any program's own words for setting it.

A clock set years back or ahead breaks everything that trusts time: every TLS certificate is not yet
valid or expired, Kerberos tickets are refused, backups and logs are pruned or kept by the wrong age,
scheduled jobs fire at once.  Programs say it their own way (``date -s``, ``hwclock --set --date``,
``timedatectl set-time``, ``chronyc settime``, ``Set-Date -Date``, a BMC's ``sel time set``,
``esxcli system time set -y``); what they share is a setting word (``set``, ``-s``, ``--set``,
``settime``, ``set-time``, ``-setdate``, PowerShell's ``Set-Date``), a clock word (date, time, clock, rtc)
in the program's name or its words, and a year given outside the plausible ones (before 2020 or after
2037; fixed, so a kept verdict stays true).  POSIX ``date`` sets it by its operand alone
(``date MMDDhhmmCCYY``, ``date 010100001971``: files written then get forged times).

A clock also goes wrong when it is stepped from an address nobody runs for time (a step option,
``-b``/``-s``/``-S``, and a public address given to a program with a clock or ``ntp`` in its name:
``ntpdate -b IP``, ``rdate -s IP``, ``sntp -S IP``, ``htpdate -s IP``; a pool's or a company's name stays
everyday), when a hardware clock is set to zero (``phc_ctl /dev/ptp0 set 0``) and when the kernel's tick is
changed from its 10000 (``adjtimex --tick 9000``: the clock runs fast or slow from then on).

Reading or printing a date (``date -d``), a date given to one file or commit (``touch -d``,
``git commit --date``), a process's fake clock (``faketime``), an adjustment (``Set-Date -Adjust``) and a
clock set to a plausible year stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.resolvers_outside import public_address
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_SETS = frozenset({"-s", "--set", "set", "settime", "set-time", "setdate", "-setdate", "-settime", "set-date",
                   "set-clock", "setclock"})
_CLOCK = lazy(r"date|time|clock|rtc", re.IGNORECASE)
_YEAR = lazy(r"(?<![\d.:])(1[89]\d\d|2\d\d\d)(?![\d])")
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


# `date MMDDhhmm[[CC]YY][.ss]`: POSIX date's operand sets the clock (GNU's order; the year last).
_DATE_OPERAND = lazy(r"^\d{8}(\d{4}|\d{2})?(?:\.\d\d)?$")
_DATE_NAMES = frozenset({"date", "gdate"})


@triggered_by("date", otherwise=False)
def may_set_by_operand(c: Ctx) -> bool:
    """Cheap: date itself (busybox's and GNU's under its g- name too)."""
    return _name(c.prog) in _DATE_NAMES


def rule_date_operand(c: Ctx) -> Optional[tuple]:
    """``date 010100001971`` (Atomic Red Team's clock set back to make a file's times lie), ``date -u 0101000070``."""
    texts = c.texts
    if len(texts) > 2 or any(t.startswith("-") and t not in ("-u", "--utc", "--universal") for t in texts):
        return None  # `date -d 20200101` reads a date; `date +%s` prints one
    found = _DATE_OPERAND.match(texts[-1]) if texts else None
    if found is None or found.group(1) is None:
        return None  # no year: this year's date
    yy = found.group(1)
    year = int(yy) if len(yy) == 4 else (1900 + int(yy) if int(yy) >= 69 else 2000 + int(yy))
    if _PLAUSIBLE[0] <= year <= _PLAUSIBLE[1]:
        return None
    return MEDIUM, f"{c.prog} {texts[-1]} sets the machine's clock to {year}: files written now get forged " \
        f"times, and certificates, tickets and schedules go wrong ({c.text})"


_STEPS = frozenset({"-b", "-s", "-S", "--step", "--set", "-B", "/s", "-step"})
_TIME_NAME = lazy(r"ntp|date|time|clock|phc|rtc", re.IGNORECASE)
_STEP_GATE = ("ntp", "date", "time", "clock", "phc", "rtc", "tick")


@triggered_by(*_STEP_GATE, otherwise=False)
def may_step_clock(c: Ctx) -> bool:
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _STEP_GATE)


def rule_clock_stepped(c: Ctx) -> Optional[tuple]:
    name = _name(c.prog)
    if not _TIME_NAME.search(name) or name in _NOT_THE_CLOCK:
        return None
    texts = c.texts[:24]
    lowered = [t.lower() for t in texts]
    if set(lowered) & {"--help", "get", "-q", "--query", "-p", "--print"}:
        return None
    step = next((t for t in texts if t in _STEPS), None)
    address = public_address(" ".join(texts)) if step else None
    if address:
        return MEDIUM, f"{c.prog} {step} steps the machine's clock to whatever {address} answers (an address " \
            f"outside the network, not a time service's name): certificates, tickets and schedules follow it ({c.text})"
    for i, t in enumerate(lowered[:-1]):
        if t == "set" and lowered[i + 1] in ("0", "0.0"):
            return MEDIUM, f"{c.prog} sets the clock to zero (1970): everything that trusts its time goes " \
                f"wrong ({c.text})"
        if t.lstrip("-") == "tick" and lowered[i + 1].isdigit() and lowered[i + 1] != "10000":
            return MEDIUM, f"{c.prog} changes the kernel's tick from 10000 to {lowered[i + 1]}: the clock runs fast " \
                f"or slow from now on ({c.text})"
    return None
