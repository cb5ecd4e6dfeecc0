"""Effect: the way in closed by a packet filter or policy tool no rule names: ssh's (or RDP's, WinRM's) policy
switched off or denied, a deny rule aimed at its port, every filter rule removed.

``lockout`` and ``firewall_drops`` read the firewalls they name.  Appliance, Alpine, AIX and BSD filter tools
say the same in their own verbs and letters:

- a policy or service for remote login disabled, denied or closed (``awall disable adp-ssh``, ``fwctl deny
  ssh``, ``portctl close 22``): the next connection is refused;
- a rule whose action is deny, drop, reject or block (``-a D``, ``--action drop``, ``action=reject``) aimed at
  ssh's port (``genfilt … -a D … -P 22``, ``-O eq -P 22``, ``--dport 22``, ``port=22``);
- every filter rule removed (``rmfilt -v 4 -n all``, ``delete-rules all``): what protected the machine is
  gone.

Opening ssh, listing rules and denying another port or one address stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_CLOSERS = frozenset({"disable", "deny", "block", "close", "reject", "drop", "remove", "delete", "del", "rm",
                      "--disable", "--deny", "--block", "--close", "-disable", "-deny"})
_REMOTE_PARTS = frozenset({"ssh", "sshd", "openssh", "rdp", "winrm", "22", "3389", "5985", "5986"})
_DENY_ACTIONS = frozenset({"d", "deny", "drop", "reject", "block", "refuse"})
_ACTION_OPTIONS = frozenset({"-a", "--action", "-action", "-j", "--jump", "--target", "--policy", "-p"})
_PORT_OPTIONS = frozenset({"-p", "-P", "--dport", "--port", "-port", "--destination-port", "-dport", "--dst-port"})
_FILTER_TOOL = LazyRegex(r"filt|fw|firewall|rule|acl|pf|wall", re.IGNORECASE)
_REMOVES = LazyRegex(r"^(rm|del|delete|remove|flush|clear|purge)", re.IGNORECASE)
_WORDS = ("ssh", "rdp", "winrm", "22", "3389", "598", "all")


@triggered_by(_WORDS, otherwise=False)
def may_close(c: Ctx) -> bool:
    """Cheap: the line names remote login (its service or port) or `all`."""
    line = c.prog.lower() + " " + c.lowered
    return len(c.texts) >= 2 and any(w in line for w in _WORDS)


def _remote(word: str) -> bool:
    return any(p in _REMOTE_PARTS for p in re.split(r"[-_:/.@]", word.lower()))


def rule_way_in_closed(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    verb = next((t for t in low if t in _CLOSERS), None)
    if verb:
        target = next((t for t in texts if not t.startswith("-") and t.lower() != verb and _remote(t)), None)
        if target:
            return MEDIUM, f"{c.prog} {verb} {target}: remote logins are refused from now on ({c.text})"
    action = next((low[k + 1] for k, t in enumerate(texts[:-1]) if t in _ACTION_OPTIONS and
                   low[k + 1] in _DENY_ACTIONS), None) or \
        next((t.split("=", 1)[1] for t in low if t.startswith("action=") and t.split("=", 1)[1] in _DENY_ACTIONS),
             None)
    if action:
        port = next((texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _PORT_OPTIONS and _remote(texts[k + 1])),
                    None) or next((t for t in low if t.startswith("port=") and _remote(t[5:])), None)
        if port:
            action = "deny" if action == "d" else action
            return MEDIUM, f"{c.prog} adds a {action} rule for port {port}: remote logins are refused ({c.text})"
    if _FILTER_TOOL.search(c.prog) and (_REMOVES.match(c.prog.lower()) or set(low[:2]) & {"flush", "delete",
                                                                                            "remove", "clear"}):
        if "all" in low or "*" in texts:
            return MEDIUM, f"{c.prog} removes every filter rule: what protected the machine is gone ({c.text})"
    return None
