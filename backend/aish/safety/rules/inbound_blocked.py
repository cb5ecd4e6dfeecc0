"""Effect: every incoming connection refused, by a firewall switch or default that covers all of them, any program.

``firewall_drops`` and ``lockout`` read rules that drop the way in, in each firewall's own words;
``way_in_closed`` a rule that names ssh's service or port.  A firewall can also be told to refuse everything
at once, by a switch or a default whose name says so, whatever the program:

- a block-everything switch turned on (``socketfilterfw --setblockall on``, ``--block-all=true``,
  ``-BlockAll 1``, ``denyall on``, ``--lockdown on``): the allowed services, ssh among them, are refused too;
- the firewall told to ignore its allow rules (``Set-NetFirewallProfile -AllowInboundRules False``,
  ``--allow-inbound-rules=no``): only the default, which is to block, remains;
- a filtering tool whose default policy is set to deny, drop, block or reject (``xdp-filter load eth0
  --policy deny``, ``somefw --default-policy drop``, ``--input-policy=reject``) with nothing allowed on the line;
- a filtering tool told to deny, block or drop ``all`` or ``--all`` with nothing narrower (a port, an
  address, an application).

Turning those switches off, reading them, outgoing defaults and ordinary allow rules stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_BLOCK_ALL = LazyRegex(r"^[-/]{0,2}(set[-_]?)?(block[-_]?all|deny[-_]?all|drop[-_]?all|reject[-_]?all|"
                       r"block[-_]?(all[-_]?)?(inbound|incoming)|lockdown|panic)$", re.IGNORECASE)
_ALLOW_RULES = LazyRegex(r"^[-/]{0,2}allow[-_]?(inbound|incoming|local[-_]?firewall)[-_]?rules$", re.IGNORECASE)
_POLICY = LazyRegex(r"^[-/]{0,2}((default|input|inbound|incoming|ingress)[-_]?)?(policy|action)$|"
                    r"^[-/]{0,2}default[-_]?(inbound|incoming|input|ingress)?[-_]?policy$", re.IGNORECASE)
_FILTER_TOOL = LazyRegex(r"filt|fw|firewall|wall|pf|xdp|guard|shield|block", re.IGNORECASE)
_ON = frozenset({"on", "true", "$true", "1", "yes", "enable", "enabled"})
_OFF = frozenset({"off", "false", "$false", "0", "no", "disable", "disabled"})
_DENY = frozenset({"deny", "drop", "block", "reject", "refuse"})
_EVERY = frozenset({"all", "--all", "-all", "everything", "*"})
_NARROWER = LazyRegex(r"^(-{1,2}(port|dport|sport|src|source|from|ip|addr|app|service|program|proto)\w*|"
                      r"\d{1,3}(\.\d{1,3}){3}(/\d+)?|\d+(/(tcp|udp))?|tcp|udp|icmp|allow|accept|out|outbound|outgoing|egress)$",
                      re.IGNORECASE)
_WORDS = ("block", "deny", "drop", "reject", "lockdown", "panic", "allow", "policy", "action")


@triggered_by(_WORDS, otherwise=False)
def may_refuse(c: Ctx) -> bool:
    """Cheap: a word after the program and a block, deny, policy or allow word in the line."""
    if not c.texts:
        return False
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _WORDS)


def _value(texts: list, k: int) -> str:
    name, eq, value = texts[k].partition("=")
    if not eq:
        name, colon, value = texts[k].partition(":")  # `/setblockall:on`
        if not colon:
            value = texts[k + 1] if k + 1 < len(texts) else ""
    return value.strip("'\"").lower()


def _name(word: str) -> str:
    return re.split(r"[=:]", word, maxsplit=1)[0]


def rule_inbound_blocked(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    if not _FILTER_TOOL.search(c.prog) and not any(t[:1] in "-/" and ("block" in t or "deny" in t or "drop" in t or
                                                                   "lockdown" in t or "panic" in t or "allow" in t)
                                                   for t in low):
        return None  # neither a filtering tool nor a switch that could refuse everything: most lines leave here
    for k, t in enumerate(texts):
        name = _name(t)
        if _BLOCK_ALL.match(name) and name.startswith(("-", "/")) and _value(texts, k) in _ON:
            return MEDIUM, f"{c.prog} {t} refuses every incoming connection, remote logins too ({c.text})"
        if _ALLOW_RULES.match(name) and _value(texts, k) in _OFF:
            return MEDIUM, f"{c.prog} {t}: the allow rules are ignored, remote logins are refused ({c.text})"
    if not _FILTER_TOOL.search(c.prog) or any(_NARROWER.match(t) for t in low):
        return None
    for k, t in enumerate(texts):
        if _POLICY.match(_name(t)) and _value(texts, k) in _DENY and not \
                any(w in low[k + 1:k + 3] for w in ("out", "outbound", "outgoing", "egress", "output", "forward")):
            return MEDIUM, f"{c.prog} {t} {_value(texts, k)}: every incoming packet is refused, remote logins " \
                           f"too ({c.text})"
    at = next((k for k, t in enumerate(low) if t in _DENY and not (k and low[k - 1].startswith("-"))), None)
    if at is not None and any(t in _EVERY for t in low[at + 1:]):  # a verb, not an option's value
        verb = low[at]
        return MEDIUM, f"{c.prog} {verb} all: every incoming connection is refused, remote logins too ({c.text})"
    return None
