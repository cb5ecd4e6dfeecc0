"""Effect: a whole server, or every resource it runs, stopped, spelled where ``daemons`` does not look.

``daemons`` reads a control program's stop word as its first operand.  Control programs also take it behind
the options that pick the instance (``opmnctl -p 6701 stopall``, ``brokerctl -n node@mq02 stop_app``,
``dbcluster --host db1 shutdown``): nothing named after the stop word, the whole server or node stops, for every
client.  And a stop or ``offline`` given every resource (``+``, ``all``, ``'*'``) takes them all down
(``rgctl offline +``).  Stopping one named resource stays quiet (the decision the everyday floors hold:
``virsh shutdown web01``, ``qryctl --host h stop web``), as do the players', timers' and development tools' stops
(``daemons``' everyday lists), a stop word given as an option's value (``--on-error stop``), listings, status and
help.  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.daemons import _EVERYDAY, _ON_DEMAND
from aish.safety.rules.triggers import triggered_by

# A stop word, alone or fused with the whole it stops (`stop_app`, `stop-node`, `stopall`, `force-stop`).
_STOP = re.compile(r"^(force-?)?(stop|shutdown|halt|offline)([-_]?(all|app|node|server|broker|instance|"
                   r"cluster|daemon|proc|domain|service|now))?$")
_ALL = frozenset({"+", "all", "--all", "-all", "*"})
_LOOKS = frozenset({"status", "--status", "-status", "help", "--help", "-h", "-help", "list", "ls", "show", "info",
                    "--dry-run", "--version", "-state", "state", "describe", "get", "-display", "-list"})
_HARMLESS_NAMES = frozenset({"shutdown", "halt", "poweroff", "reboot", "kill", "killall", "pkill", "stop",
                             "timer", "stopwatch", "start-stop-daemon", "make", "gmake", "just", "task", "rake",
                             "invoke", "ninja", "mage", "earthly"})


@triggered_by(("stop", "shutdown", "halt", "offline"))
def rule_stop_spelled(c: Ctx) -> Optional[tuple]:
    """``brokerctl -n node@mq02 stop_app``, ``dbcluster --host db1 shutdown``, ``rgctl offline +``."""
    name = re.sub(r"\.(sh|bat|cmd|exe|py|ksh)$", "", c.prog.lower().rsplit("/", 1)[-1])
    if c.prog.lower() in _EVERYDAY or name in _EVERYDAY or name in _ON_DEMAND or name in _HARMLESS_NAMES:
        return None
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if set(lowered) & _LOOKS:
        return None
    for k, t in enumerate(lowered[:8]):
        if t.startswith("-") or not _STOP.match(t):
            continue
        if k and lowered[k - 1].startswith("--") and "=" not in lowered[k - 1]:
            return None  # `--on-error stop`: an option's value
        after = [w for w in lowered[k + 1:] if not w.startswith("-") or w in _ALL]
        if set(after) & _ALL:
            return _stopped(c, texts[k], "every one it runs")
        before = lowered[:k]
        options_only = before and before[0].startswith("-") and all(
            w.startswith("-") or before[j - 1].startswith("-") and not before[j - 1].startswith("--") or
            before[j - 1].startswith("--") and "=" not in before[j - 1] for j, w in enumerate(before) if j)
        if options_only and not after:
            return _stopped(c, texts[k], "the whole server or node the options pick")
        return None
    return None


def _stopped(c: Ctx, word: str, what: str) -> tuple:
    return MEDIUM, f"{c.prog} {word} stops {what}: every client loses it until it is started again ({c.text})"
