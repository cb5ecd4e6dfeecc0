"""Effect: a whole scheduling table removed by its own tool, for the crontab-likes no rule names.

``crontab -r`` has a rule; fcron's ``fcrontab``, incron's ``incrontab``, Slurm's ``scrontab``, and every
tool named for a cron table take ``-r`` (or ``--remove``) the same way: every job of that user (of root, with
``-u root`` or the user as operand) is deleted at once, with no copy kept.  Listing (``-l``), editing
(``-e``) and installing a table from a file stay quiet.

Fed on a pipe, a heredoc or a here-string (``echo '@ 5 /sbin/poweroff' | fcrontab -u root -``), any such tool
installs the lines it is given: each line's command (after five time fields, or an ``@`` form with its
interval: fcron's ``@ 5``, ``@reboot``) is judged as what the scheduler will run, as ``crontab -`` is.
A quiet job stays quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import LazyRegex
import re

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.fed import fed_text
from aish.safety.rules.triggers import triggered_by

_TABLE_TOOL = LazyRegex(r"^[\w.-]*crontab(\.exe)?$|^[\w.-]*crontab[-_]\w+$|^\w+tab$")
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


def _job(line: str) -> str:
    """The command of a fed table line: after five time fields, or after an @ form and fcron's interval."""
    line = line.strip()
    if not line or line.startswith("#") or re.match(r"^\w+=", line):
        return ""
    if line.startswith("@"):
        m = re.match(r"^@\S*\s+(?:\d+[smhdw]?\s+)?(.+)$", line)
        return m.group(1) if m else ""
    parts = line.split(None, 5)
    return parts[-1] if len(parts) > 5 else ""


def _fed(c: Ctx) -> str:
    """What reaches the tool's standard input: a here-string, a heredoc, echo/printf before it, or cat's heredoc."""
    text = fed_text(c)
    feeder = c.chain[-1] if c.chain else None
    if feeder is not None and feeder.argv[:1] == ["cat"]:
        text += "\n" + "\n".join(r.body for r in feeder.redirects if r.body)
    return text


def rule_cron_table_fed(c: Ctx) -> Optional[tuple]:
    """Lines fed into a crontab-like tool's ``-``: judged as what its scheduler will run."""
    if "-" not in c.texts or not (_TABLE_TOOL.match(c.prog.lower()) and _CRON.search(c.prog.lower())):
        return None
    best: Optional[tuple] = None
    for line in re.split(r"\\n|\n", _fed(c))[:24]:
        command = _job(line)
        found = c.recurse(command) if command else None
        if found is not None and found[0] >= MEDIUM and (best is None or found[0] > best[0]):
            best = found[0], f"{found[1]}, each time the scheduler runs it ({c.prog} -)"
    return best
