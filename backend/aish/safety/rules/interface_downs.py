"""Effect: the network interface a remote user stands on taken down, deconfigured or left without its
address, by a program no rule names.

``lockout`` reads ``ip``, ``ifconfig``, ``ifdown``, ``dhclient -r`` and ``nmcli``; Solaris' ``ipadm``,
AIX's ``chdev``, HP-UX's ``nwmgr``, macOS' ``ipconfig set IF NONE``, old DHCP clients (``pump -r``) and
appliance shells say the same of an interface they name by its kernel name (``eth0``, ``en0``, ``net0``,
``lan0``, ``em0``, ``enp3s0``):

- a verb or option that takes it down (``down``, ``disable``, ``disable-if``, ``delete-if``, ``unplumb``,
  ``detach``, ``--disable``, ``offline``, an address method of ``NONE``);
- a state given as a setting (``state=detach``, ``state=down``, ``-a state=down``);
- the lease given back (``-r``/``--release`` of a DHCP client, by its name: ``pump``, ``dhcp-client``).

Bringing an interface up, showing it, or asking for a lease stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_INTERFACE = LazyRegex(r"^(eth|en|net|lan|em|igb|ix|ixl|bge|re|vtnet|wlan|wlp\w*|enp\w*|ens|eno|bond|br|team|"
                       r"aggr|ib|ce|e1000g|ixgbe|bnx|vmx|hme|nxge|ent|et)\d+(/v[46]|\.\d+)?$", re.IGNORECASE)
_DOWN = frozenset({"down", "disable", "disable-if", "delete-if", "unplumb", "detach", "--disable", "-disable",
                   "offline", "--down", "deconfigure", "unconfigure", "none", "remove-if", "shutdown", "stop"})
_STATE = LazyRegex(r"^(state|admin[-_]?state|status|link)=(detach|down|disabled?|off|offline)$", re.IGNORECASE)
_RELEASE = frozenset({"-r", "--release", "-release", "/release", "release", "-k"})
_DHCP_CLIENT = LazyRegex(r"^(pump|dhcp[-_]?client|dhcpc|dhcp6c|dhcpd?-?cli|udhcp\w*|dhclient\w+|dhcp)$",
                         re.IGNORECASE)
# Removing verbs: an interface, a bond's or a bridge's member, a VLAN or an uplink taken out (`vconfig rem
# eth0.100`, `ifenslave -d bond0 eth0`, `esxcli … uplink remove -u vmnic0`), read on the interface named in
# the next two words (`-d` only before two: a group and its member; `ngrep -d eth0` is a device option); a
# removal of something on it (`tc qdisc del dev eth0`, `ip addr del IP dev eth0`) is not.
_REMOVE = frozenset({"rem", "remove", "del", "delete", "delif", "del-port", "-d", "--detach", "port-remove"})
_ON_IT = frozenset({"qdisc", "filter", "class", "route", "addr", "address", "neigh", "neighbor", "rule", "xfrm",
                    "vf", "mdb", "fdb", "-4", "-6", "tunnel", "maddr"})
_WORDS = ("down", "disable", "-if", "unplumb", "detach", "offline", "configure", "none", "state=", "status=",
          "link=", "-r", "release", "-k", "shutdown", "stop", "rem", "del", "-d")


@triggered_by(_WORDS, otherwise=False)
def may_cut(c: Ctx) -> bool:
    """Cheap: a stop, release or state word in the line (then an interface's name is looked for)."""
    line = c.prog.lower() + " " + c.lowered
    return len(c.texts) >= 2 and any(w in line for w in _WORDS)


def rule_interface_down(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:64]  # a setting, a target or a verb is among the first words: long lines are not read
    named = next((t for t in texts if _INTERFACE.match(t.strip("'\""))), None)
    if named is None:
        return None
    low = [t.lower() for t in texts]
    verb = next((t for t in low if t in _DOWN), None) or next((t for t in texts if _STATE.match(t)), None)
    if verb:
        return MEDIUM, f"{c.prog} {verb} {named}: the interface goes down, and a session over it with it ({c.text})"
    for i, t in enumerate(low):
        following = [bool(_INTERFACE.match(w.strip("'\""))) for w in texts[i + 1:i + 3]]
        named_after = following == [True, True] if t == "-d" else any(following)
        if t in _REMOVE and not set(low[:i]) & _ON_IT and named_after:
            return MEDIUM, f"{c.prog} {t} takes {named} out (an interface, a bond's or bridge's member, a VLAN or an " \
                f"uplink): the traffic over it stops ({c.text})"
    if _DHCP_CLIENT.match(c.prog) and set(low) & _RELEASE:
        return MEDIUM, f"{c.prog} gives {named}'s lease back: the interface is left without an address ({c.text})"
    return None
