"""Effect: every service a manager lists stopped or disabled, by xargs over the listing or a glob over the
supervision directory, for any service manager.

A stop of one named service is routine.  The same verb given every name a listing prints (``svcs -H -o fmri |
xargs svcadm disable``, ``rc-status --servicelist | xargs -n1 rc-service stop``, ``sv status /etc/service/* |
… | xargs sv down``) or every directory of the supervision tree (``runsvctrl x /etc/service/*``, ``s6-svc -d
/run/service/*``) stops every service of the machine, the remote login's with them.  A listing narrowed by a
pattern (``| grep nginx``) and reading verbs stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx

_STOPS = frozenset({"stop", "disable", "down", "kill", "halt", "mask", "-d", "-dx", "-k", "x", "d", "k", "t",
                    "exit", "remove", "delete", "-x", "force-stop", "--stop", "terminate"})
_LISTING = LazyRegex(r"(^|[-_/])(svcs|list|ls|status|servicelist|--servicelist|list-units|list-unit-files|"
                     r"--status-all|rc-status|service-list|sv)($|[-_])", re.IGNORECASE)
_SERVICE_GLOB = LazyRegex(r"^(/etc/service|/service|/run/service|/var/service|/etc/sv|/run/runit/service|"
                          r"/etc/s6/sv|/run/s6/services?|/etc/runit/runsvdir/\w+)/\*$")
_NARROWING = frozenset({"grep", "egrep", "rg", "head", "tail", "sed"})


def may_stop_listed(c: Ctx) -> bool:
    """Cheap: run by xargs over a pipe, or an operand ending in `/*`."""
    return (c.xargs and bool(c.chain)) or any(t.endswith("/*") for t in c.texts[:64])


def rule_listed_stop(c: Ctx) -> Optional[tuple]:
    low = [t.lower() for t in c.texts[:64]]
    verb = next((t for t in low if t in _STOPS), None)
    if verb is None:
        return None
    glob = next((t for t in c.texts[:64] if _SERVICE_GLOB.match(t)), None)
    if glob:
        return MEDIUM, f"{c.prog} {verb} {glob}: every supervised service stops, remote logins' with them ({c.text})"
    if not (c.xargs and c.chain):
        return None
    feeders = [seg.words[0].text for seg in c.chain if seg.words]
    if any(f in _NARROWING for f in feeders) or any(
            w.text.startswith("/") and w.text.endswith("/") for seg in c.chain for w in seg.words[1:]
            if seg.words[0].text in ("awk", "gawk")):
        return None  # `| grep nginx`, `awk '/web/…'`: a chosen few
    listed = any(_LISTING.search(seg.words[0].text) or any(_LISTING.search(w.text) for w in seg.words[1:4])
                 for seg in c.chain if seg.words)
    if listed:
        return MEDIUM, f"{c.prog} {verb} is given every service a listing prints: the machine's services stop " \
                       f"({c.text})"
    return None
