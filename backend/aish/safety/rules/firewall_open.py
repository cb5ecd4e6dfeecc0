"""Effect: a firewall opened wide by a rule, not switched off.

``lockout`` judges rules that drop the way in and the firewall flushed or disabled; this judges
the opposite mistake, in each firewall's own words: a default policy set to accept, or an accept
rule on the way in that matches everything (no source, no port or every port, no interface, no
connection state): ``iptables -I INPUT -j ACCEPT``, ``iptables -A INPUT -p tcp --dport 1:65535 -j
ACCEPT``, ``nft add rule inet filter input accept``, ``ufw allow from any``, ``firewall-cmd
--add-port=0-65535/tcp``.  Rules narrowed by a port, a source, the loopback interface or
established connections stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_IPTABLES = {"iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft"}
# A port range that covers (nearly) every port: 1:65535, 0-65535, 1024:65535 is not every port.
_EVERY_PORT = lazy(r"^[01][:-]6553[45](/(tcp|udp))?$")
_ANYWHERE = {"0.0.0.0/0", "::/0", "0/0", "any"}
_NARROWING = lazy(r"(^|\s)(-i|--in-interface|--sport|--source-port|--ctstate|--state|--src-range|--mac-source|"
                  r"--uid-owner|--set|--rcheck|--limit)\b")


def _iptables_opens(texts: list) -> bool:
    joined = " ".join(texts)
    if re.search(r"(^|\s)(-P|--policy)\s+(INPUT|FORWARD)\s+ACCEPT\b", joined):
        return True
    if not re.search(r"(^|\s)(-A|--append|-I|--insert)\s+INPUT\b", joined) or \
            not re.search(r"(^|\s)(-j|--jump)\s+ACCEPT\b", joined):
        return False
    ports = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("--dport", "--destination-port", "--dports")]
    if ports and not all(_EVERY_PORT.match(p) for p in ports):
        return False
    sources = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("-s", "--source")]
    if sources and not all(s in _ANYWHERE for s in sources):
        return False
    return not _NARROWING.search(joined)


def rule_firewall_opened(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog, c.texts
    joined = " ".join(texts)
    opened = False
    if p in _IPTABLES:
        opened = _iptables_opens(texts)
    elif p == "nft":
        # a new chain's `policy accept` is nft's default, not an opening
        opened = bool(re.search(r"\b(add|insert)\s+rule\s+\S+\s+\S+\s+input\s+(counter\s+)?accept\s*$", joined)) or \
            bool(re.search(r"^(chain|modify\s+chain)\s+\S+\s+\S+\s+(input|forward)\b.*\bpolicy\s+accept\b", joined))
        # an existing chain's policy changed (`nft chain inet filter input '{ policy accept; }'`)
    elif p == "ufw":
        words = [t.lower() for t in texts]
        if "allow" in words[:3]:
            rest = words[words.index("allow") + 1:]
            sources = [rest[k + 1] for k, t in enumerate(rest[:-1]) if t == "from"]
            opened = any(_EVERY_PORT.match(t) for t in rest) or \
                bool(sources) and all(s in _ANYWHERE for s in sources) and not {"port", "app", "proto"} & set(rest)
    elif p == "firewall-cmd":
        rich = [t.split("=", 1)[1] for t in texts if t.startswith("--add-rich-rule=")]
        rich += [texts[k + 1] for k, t in enumerate(texts[:-1]) if t == "--add-rich-rule"]
        opened = any(re.search(r"source\s+address=[\"']?(0\.0\.0\.0/0|::/0)[\"']?", r) and re.search(r"\baccept\b", r)
                     and not re.search(r"\b(port|service|forward-port|protocol)\b", r) for r in rich) or \
            any(re.match(r"--add-port=[01]-6553[45]/", t) for t in texts) or \
            any(t.startswith("--add-source=") and t.split("=", 1)[1] in _ANYWHERE for t in texts) and \
            any(t in ("--zone=trusted",) for t in texts)
    if opened:
        return MEDIUM, f"opens the firewall to every incoming connection ({c.text})"
    return None


RULES: dict = {p: [rule_firewall_opened] for p in _IPTABLES | {"nft", "ufw", "firewall-cmd"}}
