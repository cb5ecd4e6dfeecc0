"""Effect: a firewall's default for incoming traffic set to let everything in, by a firewall program no rule names.

``firewall_open`` knows ufw's, iptables' and netsh's spellings.  Host and appliance firewalls say the same in their
own words: an incoming word (``incoming``, ``inbound``, ``ingress``, ``input``) with an allowing one (``allow``,
``accept``, ``permit``, ``pass``, ``open``), fused in one option (``--allowIncoming``, ``--allow-incoming``,
``allowinbound``) or as a setting and its value (``--default-inbound allow``, ``policy inbound allow-all``), or a
default policy given ``accept`` with no direction (``set default-policy accept``).  No rule is left between the
network and every listening service.  A bare ``--policy allow`` names no default (``xdp-filter load eth0 --policy
allow`` loads a filter that passes what its rules do not drop).

The program is known by its name (fw, firewall, wall, filter).  Quiet: a rule for one port, service or address
(``--allow-incoming --port 22``, ``allow in 22/tcp``), blocking defaults, status and help.  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_FIREWALL = re.compile(r"fw|firewall|wall|filter", re.IGNORECASE)
_IN = r"(incoming|inbound|ingress|input)"
_OK = r"(allow|accept|permit|pass|open)(-?all)?"
_FUSED = re.compile(rf"^{_OK}{_IN}$|^{_IN}{_OK}$|^default{_IN}?{_OK}$")
_SETTING = re.compile(rf"^(default)?{_IN}(policy|default)?$|^default(policy)?{_IN}?$|^policy{_IN}$")
_VALUE = re.compile(rf"^{_OK}$")
# One port, service or address named: a rule that lets that in, not a default.
_ONE = re.compile(r"^\d+(/\w+)?$|^--?(port|dport|service|source|src|from|proto|app)\b|^\d+\.\d+\.\d+\.\d+|/(tcp|udp)$",
                  re.IGNORECASE)
_LOOKS = frozenset({"status", "--status", "show", "list", "--list", "--help", "-h", "help", "get", "--dry-run"})


@triggered_by(("allow", "accept", "permit", "pass", "open"))
def rule_firewall_default(c: Ctx) -> Optional[tuple]:
    """``fwctl --allow-incoming --allow-outgoing``, ``firewall-tool --default-inbound allow``."""
    if not _FIREWALL.search(c.prog.rsplit("/", 1)[-1]):
        return None
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if set(lowered) & _LOOKS or any(_ONE.search(t) for t in lowered):
        return None
    if not any(re.search(_IN, t) for t in lowered) and any(re.search(r"outgoing|outbound|egress|output|routed", t)
                                                          for t in lowered):
        return None  # `default allow outgoing`: what leaves, not what comes in
    words = [re.sub(r"[-_:.]", "", t.split("=", 1)[0]) for t in lowered]
    values = [re.sub(r"[-_]", "", t.split("=", 1)[1]) if "=" in t else "" for t in lowered]
    for k, w in enumerate(words):
        if _FUSED.match(w):
            return _opened(c, texts[k])
        value = values[k] or (re.sub(r"[-_]", "", lowered[k + 1]) if k + 1 < len(lowered) else "")
        if _SETTING.match(w) and _VALUE.match(value):
            return _opened(c, f"{texts[k]} {value}" if not values[k] else texts[k])
        if w == "policy" and k + 2 < len(lowered) and re.match(_IN, words[k + 1]) and \
                _VALUE.match(re.sub(r"[-_]", "", lowered[k + 2])):
            return _opened(c, f"policy {texts[k + 1]} {texts[k + 2]}")
    return None


def _opened(c: Ctx, said: str) -> tuple:
    return MEDIUM, f"{c.prog} {said}: the firewall lets every incoming connection in, to every listening " \
        f"service ({c.text})"
