"""Effect: the machine's network connection dropped by the tools that hold it, beyond ``lockout``'s link
down and ``meaning``'s lease released.

An interface's address taken away (``ifconfig eth0 0.0.0.0``, ``ifconfig en0 delete``), the interface moved
into another network namespace (``ip link set eth0 netns x``: it leaves the system's view), its MTU set
below what IP needs (``mtu 68``), or NetworkManager told to let go of it (``nmcli device set eth0 managed
no``).  A remote session over the link ends with it.  Reading the links, connecting, loopback and leaving a
wireless network (``iw dev wlan0 disconnect``: one reconnects, as everyday sets have it) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

_LOOPBACK = lazy(r"^(lo\d*|lo0)$")
_PHYSICAL = lazy(r"^(eth|en[ospxc]|em|wl|wlan|bond|ib|p\d+p)\w*$")


def rule_link_dropped(c: Ctx) -> Optional[tuple]:
    p, texts = c.prog.lower(), c.texts
    lowered = [t.lower() for t in texts]
    if p == "ifconfig" and len(texts) >= 2 and not _LOOPBACK.match(texts[0]) and \
            (texts[1] in ("0.0.0.0", "0", "delete", "-alias") or texts[1:3] == ["inet", "0.0.0.0"]):
        return HIGH, f"takes the interface's address away: connections over it drop ({c.text})"
    if p == "ip" and lowered[:1] in (["link"], ["l"]) and "set" in lowered:
        dev = next((texts[k + 1] for k, t in enumerate(lowered[:-1]) if t == "dev"), "") or \
            next((texts[k + 1] for k, t in enumerate(lowered[:-1]) if t == "set"), "")
        if _LOOPBACK.match(dev):
            return None
        if "netns" in lowered and _PHYSICAL.match(dev):  # a veth or tap moved into a container is how they work
            return MEDIUM, f"moves {dev} into another namespace: it leaves the system's network ({c.text})"
        mtu = next((texts[k + 1] for k, t in enumerate(lowered[:-1]) if t == "mtu"), "")
        if mtu.isdigit() and int(mtu) < 576:
            return MEDIUM, f"sets an MTU below what IP needs: connections over {dev} stall ({c.text})"
    if p == "nmcli" and lowered[:2] in (["device", "set"], ["dev", "set"], ["d", "set"]) and \
            re.search(r"\bmanaged\s+(no|false|off)\b", " ".join(lowered)):
        return MEDIUM, f"NetworkManager lets go of the interface: its connection goes down ({c.text})"
    return None


RULES: dict = {name: [rule_link_dropped] for name in ("ifconfig", "ip", "nmcli")}
