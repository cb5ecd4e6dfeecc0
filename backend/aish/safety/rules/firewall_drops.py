"""Effect: the way in dropped, in each firewall's own words, where ``lockout`` reads only some of them.

The same rule (drop or refuse incoming traffic with no source, port or interface narrower than ssh's) is
spelled many ways: an nft rule on a chain named ``INPUT`` in capitals; ufw's ``deny``/``reject`` with no
port (``ufw insert 1 deny from any to any``, ``ufw deny in on eth0``); firewalld's direct rules
(``firewall-cmd --direct --add-rule ipv4 filter INPUT 0 -j DROP``) and its offline tool; ipfw's ``deny``
from any to this machine; IPFilter fed ``block in all``; csf or apf told to deny every address; and the
rule that let ssh in deleted (``iptables -D INPUT … --dport 22 -j ACCEPT``).  Blocking one address, one
port that is not ssh or outgoing traffic stays quiet.

For any program (``refused_by_any``): a ban on every address (``cscli decisions add --range 0.0.0.0/0``,
``fail2ban-client set sshd banip 0.0.0.0/0``, ``pfctl -t bruteforce -T add 0.0.0.0/0``, ``ipset add blacklist
0.0.0.0/1``: a ban, deny or block word beside a range that holds every address or half of them); an OpenFlow
rule matching everything whose action is drop (``ovs-ofctl add-flow br-ex 'priority=65535,actions=drop'``,
``dpctl add-flow``); a routing policy rule with no selector that throws every packet away (``ip rule add pref 0
blackhole``).  Lifting a ban, one address, a rule narrowed to a port, a protocol or outgoing traffic, and a flow
or rule narrowed by a match stay quiet (iptables and nft lines are read by their own rules).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.rules.fed import fed_text
from aish.safety.rules.lockout import _drops_the_way_in
from aish.safety.lazy_regex import lazy

_SSH_PORT = lazy(r"(^|[,:\s{])(22|ssh|openssh|3389|5985|5986)($|[,:\s}/])", re.IGNORECASE)
_EVERY = frozenset({"any", "0.0.0.0/0", "::/0", "0/0", "all"})


def _nft(c: Ctx) -> Optional[tuple]:
    joined = " ".join(c.texts)
    m = re.search(r"\b(add|insert)\s+rule\s+(\w+\s+)?\S+\s+(input|prerouting)\b(.*)$", joined, re.IGNORECASE)
    if m is None or not re.search(r"\b(drop|reject)\s*$", m.group(4)):
        return None
    rest = m.group(4)
    if re.search(r"\b(saddr|iif(name)?|ct\s+state\s+invalid|icmp|udp)\b", rest) or \
            re.search(r"\bdport\b", rest) and not _SSH_PORT.search(rest.split("dport", 1)[1]):
        return None
    return HIGH, f"drops incoming traffic, ssh included: remote access stops ({c.text})"


def _ufw(c: Ctx) -> Optional[tuple]:
    texts = [t.lower() for t in c.texts]
    verb = next((k for k, t in enumerate(texts) if t in ("deny", "reject")), None)
    if verb is None or "default" in texts[:verb] or texts[verb + 1:verb + 2] == ["out"] or "delete" in texts[:verb]:
        return None  # (`ufw delete deny 22`: the rule that refused them goes)
    rest, source, ports, k = texts[verb + 1:], "any", [], 0
    while k < len(rest):
        t = rest[k]
        if t in ("on", "proto", "to", "comment", "app") and k + 1 < len(rest):
            if t == "app":
                ports.append(rest[k + 1])
            k += 2
            continue
        if t == "from" and k + 1 < len(rest):
            source = rest[k + 1]
            k += 2
            continue
        if t == "port" and k + 1 < len(rest):
            ports.append(rest[k + 1])
            k += 2
            continue
        if t not in ("in", "log", "log-all"):
            ports.append(t)  # `ufw deny 80/tcp`, `ufw deny http`: a port or service of its own
        k += 1
    if source not in _EVERY or ports and not any(_SSH_PORT.search(p) for p in ports):
        return None
    return HIGH, f"ufw refuses every incoming connection, ssh included: remote access stops ({c.text})"


def _removed_ssh(c: Ctx) -> Optional[tuple]:
    """``firewall-offline-cmd --remove-service=ssh``: the way in taken out of the permanent configuration."""
    if re.search(r"--remove-(service|port)[= ](ssh|22)\b", " ".join(c.texts)):
        return HIGH, f"removes ssh from the firewall: at its next start remote access stops ({c.text})"
    return None


def _direct(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if "--direct" not in texts or not any(t in ("--add-rule", "--insert-rule") for t in texts):
        return None
    joined = " ".join(texts)
    chain = re.search(r"--(add|insert)-rule\s+\S+\s+\S+\s+(\S+)\s+\d+\s+(.*)$", joined)
    if chain and _drops_the_way_in(f"-A {chain.group(2).upper()} {chain.group(3)}"):
        return HIGH, f"firewalld drops incoming traffic, ssh included: remote access stops ({c.text})"
    return None


def _ipfw(c: Ctx) -> Optional[tuple]:
    joined = " ".join(c.texts).lower()
    m = re.search(r"\badd\s+(\d+\s+)?(deny|reject|unreach\s+\S+|reset)\s+(ip|all|tcp)\s+from\s+any\s+to\s+"
                  r"(any|me|me6)(\s+(\S+))?(\s+in)?(\s|$)", joined)
    if m and (not m.group(6) or _SSH_PORT.search(m.group(6)) or m.group(6) in ("in", "via", "recv")):
        return HIGH, f"ipfw drops incoming traffic, ssh included: remote access stops ({c.text})"
    return None


def _ipf(c: Ctx) -> Optional[tuple]:
    if "-" not in c.texts and "/dev/stdin" not in c.texts:
        return None
    rules = fed_text(c).replace("\\n", "\n")
    if re.search(r"^\s*block\b(\s+(in|quick|log|return-rst))*\s+all\s*$", rules, re.MULTILINE) and \
            not re.search(r"^\s*pass\b", rules, re.MULTILINE):
        return HIGH, f"IPFilter loads rules that block every incoming packet, ssh included ({c.text})"
    return None


def _deny_all(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    if any(t in ("-d", "--deny", "-td", "--tempdeny") for t in texts) and any(t in _EVERY for t in texts):
        return HIGH, f"{c.prog} denies every address: remote access stops ({c.text})"
    return None


def _ssh_allow_deleted(c: Ctx) -> Optional[tuple]:
    joined = " ".join(c.texts)
    if re.search(r"(^|\s)(-D|--delete)\s+INPUT\b", joined) and re.search(r"(-j|--jump)\s+ACCEPT\b", joined) and \
            re.search(r"--dports?\s+\S*\b(22|ssh)\b", joined):
        return MEDIUM, f"deletes the rule that lets ssh in: behind a drop policy, remote access stops ({c.text})"
    return None


RULES: dict = {"nft": [_nft], "ufw": [_ufw], "firewall-cmd": [_direct], "firewall-offline-cmd": [_direct, _removed_ssh],
               "ipfw": [_ipfw], "ipf": [_ipf], "csf": [_deny_all], "apf": [_deny_all],
               "iptables": [_ssh_allow_deleted], "ip6tables": [_ssh_allow_deleted],
               "iptables-nft": [_ssh_allow_deleted], "iptables-legacy": [_ssh_allow_deleted]}


_WHOLE = frozenset({"0.0.0.0/0", "::/0", "0/0", "0.0.0.0/1", "128.0.0.0/1", "::/1"})
_BANS = lazy(r"ban|deny|block|black|drop|reject|decision|brute|abuse|jail|quarantine")
_LIFTS = lazy(r"\b(unban\w*|del|delete|remove|rm|allow\w*|accept|permit|white\w*|unblock)\b|--del|-D\b")
_NARROWED = lazy(r"port|proto|tcp|udp|icmp|--rules|(^|\s)-p(\s|$)|egress|outbound|output")
_OWN_RULES = ("iptables", "ip6tables", "nft", "ebtables", "arptables")
_FLOW_EDITS = frozenset({"add-flow", "add-flows", "mod-flows", "add_flow"})
_FLOW_QUIET_KEYS = frozenset({"priority", "table", "cookie", "idle_timeout", "hard_timeout", "importance"})
_ROUTE_DROPS = frozenset({"blackhole", "prohibit", "unreachable"})
_RULE_SELECTORS = frozenset({"from", "to", "iif", "oif", "fwmark", "dport", "sport", "ipproto", "uidrange",
                             "tos", "dsfield", "l3mdev", "not", "lookup", "table", "iifname", "oifname"})


@triggered_by(("/0", "/1", "drop", "blackhole", "prohibit", "unreachable"), otherwise=False)
def may_refuse(c: Ctx) -> bool:
    """Cheap: a whole range, a flow edit's drop, or a policy rule that drops."""
    text = c.lowered
    return "/0" in text or "/1" in text or "drop" in text or "blackhole" in text or "prohibit" in text or \
        "unreachable" in text


def _flow_drops_all(spec: str) -> bool:
    fields, _, actions = spec.lower().partition("actions=")
    if actions.strip(" ,'\"") not in ("drop", ""):
        return False
    keys = [f.split("=", 1)[0].strip() for f in fields.split(",") if f.strip()]
    return all(k in _FLOW_QUIET_KEYS for k in keys)


def refused_by_any(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    lowered = [t.lower() for t in texts]
    joined = " ".join(lowered)
    if any(t in _WHOLE for t in lowered) and not _LIFTS.search(joined) and not _NARROWED.search(joined) and \
            not c.prog.lower().startswith(_OWN_RULES) and _BANS.search(c.prog.lower() + " " + joined):
        return HIGH, f"{c.prog} bans every address: connections to this machine stop ({c.text})"
    for k, t in enumerate(lowered[:-1]):
        if t in _FLOW_EDITS and any("actions=" in s and _flow_drops_all(s) for s in lowered[k + 1:]):
            return HIGH, f"{c.prog} adds a flow that drops every packet on the switch ({c.text})"
    if c.prog == "ip" and lowered[:2] in (["rule", "add"], ["ru", "add"], ["rule", "a"]) and \
            set(lowered) & _ROUTE_DROPS and not set(lowered) & _RULE_SELECTORS:
        return HIGH, f"ip rule throws every packet away before routing: connections stop ({c.text})"
    return None
