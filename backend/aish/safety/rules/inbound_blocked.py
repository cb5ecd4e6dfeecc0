"""Effect: every incoming connection refused, by a firewall switch, default or rule covering all of them, any program.

``firewall_drops`` and ``lockout`` read rules that drop the way in, in each firewall's own words;
``way_in_closed`` a rule that names ssh's service or port.  A firewall (a host's, a cloud's security group or
network ACL) can also be told to refuse everything at once, whatever the program:

- a block-everything switch turned on (``socketfilterfw --setblockall on``, ``--block-all=true``,
  ``-BlockAll 1``, ``--lockdown on``): the allowed services, ssh among them, are refused too;
- the firewall told to ignore its allow rules (``Set-NetFirewallProfile -AllowInboundRules False``), or its
  incoming rules replaced by none (``oci network security-list update --ingress-security-rules '[]'``);
- a firewall's incoming or default policy set to deny, drop, block or reject (``xdp-filter load eth0 --policy
  deny``, ``scw instance security-group update ID inbound-default-policy=drop``, ``linode-cli firewalls
  rules-update ID --inbound_policy DROP``) with nothing allowed on the line;
- a rule whose action or access is deny for every address or for remote logins (``aws ec2
  create-network-acl-entry --ingress … --cidr-block 0.0.0.0/0 --rule-action deny``, ``az network nsg rule
  update --name ssh --access Deny``), and the rule that lets ssh in disabled (``… firewall-rules update
  default-allow-ssh --disabled``);
- a firewall told to deny, block or drop ``all`` with nothing narrower (a port, an address, an application).

A firewall is known by the program's name or by its first words (``firewall``, ``security-group``, ``nsg``,
``acl``).  Turning the switches off, reading them, outgoing rules and ordinary allow rules stay quiet.
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
_INGRESS_RULES = LazyRegex(r"^[-/]{0,2}(ingress|inbound|incoming)[-_]?(security[-_]?)?rules?$", re.IGNORECASE)
# A policy, not a default action: Windows' `-DefaultInboundAction Block` is its default, the allow rules still apply.
_POLICY = LazyRegex(r"^[-/]{0,2}((default|input|inbound|incoming|ingress)[-_]?){0,2}policy$", re.IGNORECASE)
_ACTION = LazyRegex(r"^-{1,2}([\w-]*[-_])?(action|access)$", re.IGNORECASE)
_FILTER_TOOL = LazyRegex(r"filt|fw|firewall|wall|pf|xdp|guard|shield|block|security[-_]?(group|list)|nsg|acl",
                         re.IGNORECASE)
_ON = frozenset({"on", "true", "$true", "1", "yes", "enable", "enabled"})
_OFF = frozenset({"off", "false", "$false", "0", "no", "disable", "disabled"})
_EMPTY = frozenset({"[]", "{}", "", "none", "null"})
_DENY = frozenset({"deny", "drop", "block", "reject", "refuse"})
_EVERY = frozenset({"all", "--all", "-all", "everything", "*"})
_WHOLE_RANGE = frozenset({"0.0.0.0/0", "::/0", "0/0", "any", "*", "internet"})
_OUTGOING = frozenset({"out", "outbound", "outgoing", "egress", "output", "forward", "--egress", "--outbound"})
_DISABLERS = frozenset({"--disabled", "--disable", "disable", "--disabled=true", "--enabled=false", "--no-enabled"})
_REMOTE = LazyRegex(r"(^|[-_:/.@ ])(ssh|sshd|rdp|winrm|22|3389)($|[-_:/.@ ])", re.IGNORECASE)
_NARROWER = LazyRegex(r"^(-{1,2}(port|dport|sport|src|source|from|ip|addr|app|service|program|proto)\w*|"
                      r"\d{1,3}(\.\d{1,3}){3}(/\d+)?|\d+(/(tcp|udp))?|tcp|udp|icmp|allow|accept|out|outbound|outgoing|"
                      r"egress)$", re.IGNORECASE)
_POLICY_NARROWER = LazyRegex(r"^(-{1,2}(port|dport|destination-port|app|service)\w*|allow|accept|\d+/(tcp|udp))$",
                             re.IGNORECASE)
_WORDS = ("block", "deny", "drop", "reject", "lockdown", "panic", "allow", "policy", "action", "ingress", "inbound",
          "incoming", "disable")


@triggered_by(_WORDS, otherwise=False)
def may_refuse(c: Ctx) -> bool:
    """Cheap: a word after the program and a block, deny, policy, allow, incoming or disable word in the line."""
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


def _switches(c: Ctx, texts: list) -> Optional[tuple]:
    """A block-everything switch on, the allow rules ignored, the incoming rules replaced by none."""
    for k, t in enumerate(texts):
        name = _name(t)
        if _BLOCK_ALL.match(name) and name.startswith(("-", "/")) and _value(texts, k) in _ON:
            return MEDIUM, f"{c.prog} {t} refuses every incoming connection, remote logins too ({c.text})"
        if _ALLOW_RULES.match(name) and _value(texts, k) in _OFF:
            return MEDIUM, f"{c.prog} {t}: the allow rules are ignored, remote logins are refused ({c.text})"
        if _INGRESS_RULES.match(name) and name.startswith("-") and _value(texts, k) in _EMPTY:
            return MEDIUM, f"{c.prog} {name} emptied: no incoming connection is allowed, remote logins " \
                           f"neither ({c.text})"
    return None


def _firewall_rules(c: Ctx, texts: list, low: list) -> Optional[tuple]:
    """A firewall's policy, a deny action over every address or remote logins, an ssh allow rule disabled."""
    if any(t in _OUTGOING for t in low):
        return None
    for k, t in enumerate(texts):
        name = _name(t)
        if _POLICY.match(name) and _value(texts, k) in _DENY and not any(_POLICY_NARROWER.match(w) for w in low):
            return MEDIUM, f"{c.prog} {name} {_value(texts, k)}: every incoming packet is refused, remote logins " \
                           f"too ({c.text})"
        if _ACTION.match(name) and _value(texts, k) in _DENY and \
                (set(low) & _WHOLE_RANGE or any(_REMOTE.search(w) for w in low if not w.startswith("-"))):
            return MEDIUM, f"{c.prog} {name} {_value(texts, k)} for every address or remote logins: the way in " \
                           f"is refused ({c.text})"
    if set(low) & _DISABLERS and any("allow" in w and _REMOTE.search(w) for w in low):
        return MEDIUM, f"{c.prog} disables the rule that lets remote logins in ({c.text})"
    return None


def rule_inbound_blocked(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    low = [t.lower() for t in texts]
    found = _switches(c, texts)
    if found:
        return found
    heads = [t for t in low[:3] if not t.startswith("-")]
    if not _FILTER_TOOL.search(c.prog) and not any(_FILTER_TOOL.search(t) for t in heads):
        return None  # not a firewall: most lines leave here
    found = _firewall_rules(c, texts, low)
    if found or any(_NARROWER.match(t) for t in low):
        return found
    at = next((k for k, t in enumerate(low) if t in _DENY and not (k and low[k - 1].startswith("-"))), None)
    if at is not None and any(t in _EVERY for t in low[at + 1:]):  # a verb, not an option's value
        return MEDIUM, f"{c.prog} {low[at]} all: every incoming connection is refused, remote logins too ({c.text})"
    return None
