"""Effect: the records a reader shows erased by the reader's own clearing option.

``lastlog --clear --user root`` (who logged in, and when), ``faillog --reset`` (the failed logins that show
an attack): these programs only read, except for one option that empties what they read, and what is gone
is what an investigation needs.  The program is a known reader (``programs.READ_ONLY``) or a log reader by
its name (``*log``), the option a clearing word of its own (``--clear``, ``--reset``, ``--purge``,
``--erase``, ``--wipe``, ``--read-clear``; ``-C`` where the name says log).  Reading and help stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.carried_commands import TEXT_ARGUMENTS
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_CLEARING = frozenset({"--clear", "--reset", "--purge", "--erase", "--wipe", "--read-clear", "--clear-all"})


def _clearing(c: Ctx) -> Optional[str]:
    for t in c.texts:
        if t.split("=", 1)[0] in _CLEARING or t == "-C" and "log" in c.prog.lower():
            return t
    return None


@triggered_by(_CLEARING, ("-c",), otherwise=False)
def may_clear(c: Ctx) -> bool:
    """Cheap: a known reader with a clearing option."""
    prog = c.prog.lower()
    return (prog in READ_ONLY or prog.endswith("log") and prog not in TEXT_ARGUMENTS) and "-" in c.lowered and \
        _clearing(c) is not None


def rule_records_cleared(c: Ctx) -> Optional[tuple]:
    said = _clearing(c)
    if said is None or "--help" in c.texts:
        return None
    return MEDIUM, f"{c.prog} {said} erases the records it shows: who logged in, what happened ({c.text})"
