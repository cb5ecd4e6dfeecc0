"""Effect: what cmd's administration tools delete in their own grammar: ``netsh … delete …`` and ``net … /delete``.

netsh's contexts (``interface``, ``wlan``, ``http``, ``dhcp``, ``advfirewall``, ``ras``…) share one verb for
taking things away: ``netsh interface ipv4 delete address "Ethernet" 10.0.0.5`` (the machine drops off the
network: high, as ``ip addr del``), ``netsh wlan delete profile name=*`` (saved networks and their keys, as
``nmcli connection delete``), ``netsh http delete sslcert ipport=0.0.0.0:443`` (a site's certificate binding),
``netsh dhcp server delete scope 10.0.0.0``: medium.  Caches it rebuilds (``delete arpcache``,
``destinationcache``, ``neighbors``) stay quiet.

``net share NAME /delete``, ``net group NAME /delete``, ``net computer \\\\NAME /del``: a share every client
used, a domain group, a machine's account; ``net use Z: /delete`` only disconnects this session's drive.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx

_CACHES = frozenset({"arpcache", "destinationcache", "neighbors", "neighbor", "cache"})
_NET_DELETES = frozenset({"share", "group", "computer", "localgroup", "user", "accounts"})


def rule_admin_delete(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower().removesuffix(".exe")
    lowered = [t.lower() for t in c.texts]
    if prog == "netsh" and "delete" in lowered:
        k = lowered.index("delete")
        what = lowered[k + 1] if k + 1 < len(lowered) else ""
        if what in _CACHES or lowered[:2] == ["advfirewall", "firewall"]:
            return None  # rebuilt on its own; firewall rules are judged by the firewall's rules
        if what in ("address", "route") and ("interface" in lowered[:k] or "int" in lowered[:k]):
            return HIGH, f"removes the interface's {what}: the machine may drop off the network ({c.text})"
        return MEDIUM, f"netsh deletes the {what or 'entry'} it names ({c.text})"
    if prog == "net" and lowered[:1] and lowered[0] in _NET_DELETES and \
            any(t in ("/delete", "/del", "/d") for t in lowered[1:]):
        return MEDIUM, f"net {lowered[0]} deletes what it names ({c.text})"
    return None


RULES: dict = {p: [rule_admin_delete] for p in ("netsh", "netsh.exe", "net", "net.exe")}
