"""Effect: a whole scheduling table removed by its own tool, for the crontab-likes no rule names.

``crontab -r`` has a rule; fcron's ``fcrontab``, incron's ``incrontab``, Slurm's ``scrontab``, and every
tool named for a cron table take ``-r`` (or ``--remove``) the same way: every job of that user (of root, with
``-u root`` or the user as operand) is deleted at once, with no copy kept.  Listing (``-l``), editing
(``-e``) and installing a table from a file stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_TABLE_TOOL = LazyRegex(r"^\w*crontab(\.exe)?$|^\w*crontab[-_]\w+$|^\w+tab$")
_CRON = LazyRegex(r"cron")
_REMOVE = frozenset({"-r", "--remove", "-d", "--delete", "-ri", "-ir"})


@triggered_by(("crontab",), otherwise=False)
def may_remove(c: Ctx) -> bool:
    """Cheap: a program named for a cron table."""
    return "crontab" in c.prog.lower()


def rule_cron_table_removed(c: Ctx) -> Optional[tuple]:
    if not (_TABLE_TOOL.match(c.prog.lower()) and _CRON.search(c.prog.lower())):
        return None
    removing = next((t for t in c.texts if t in _REMOVE), None)
    if removing is None:
        return None
    who = next((c.texts[k + 1] for k, t in enumerate(c.texts[:-1]) if t == "-u"), "") or \
        next((t for t in c.texts if not t.startswith("-")), "")
    whose = f"{who}'s" if who else "the user's"
    return MEDIUM, f"{c.prog} {removing} deletes every job in {whose} table at once ({c.text})"
