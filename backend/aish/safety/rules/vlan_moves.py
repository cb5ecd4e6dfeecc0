"""Effect: a live interface, port group or management controller moved to another VLAN, by any program's
words for the VLAN's id.

The VLAN an interface is tagged with decides which network it is on; set to another on the link the
machine is reached over, it drops off that network at once, and with it every session (a host's
``Set-NetAdapter -VlanID``, a driver's ``-RegistryKeyword VlanID``, NetworkManager's ``vlan.id``, a
hypervisor's port group ``--vlan-id`` or ``Set-VMNetworkAdapterVlan -VlanId``, a BMC's ``lan set 1 vlan
id``, ``iDRAC.NIC.VLanID``, Open vSwitch's ``set port … tag=``, OpenWrt's ``vlan_id``).  What these share
is a setter (``Set-``, ``set``, ``modify``) and a key whose name is the VLAN's id, given a number.

A VLAN interface created (``ip link add … type vlan id 100``, ``nmcli connection add type vlan``) and the
id read (``Get-``, ``get``, ``show``, ``print``, ``list``) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_SETTERS = frozenset({"set", "modify", "mod", "m", "change", "update", "--set", "-set", "config", "configure"})
_NOT_SETTING = frozenset({"add", "create", "new", "show", "get", "list", "print", "ls", "-f", "--fields", "del",
                          "delete", "remove", "help", "--help", "-h"})
_NUMBER = lazy(r"^\d{1,4}$")


@triggered_by("vlan", "tag=", otherwise=False)
def may_move_vlan(c: Ctx) -> bool:
    line = c.prog.lower() + " " + c.lowered
    return "vlan" in line or "tag=" in line


def _flat(word: str) -> str:
    return re.sub(r"[-_.:]", "", word.lower())


def rule_vlan_moved(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if prog.startswith(("get-", "new-", "add-", "remove-", "test-")):
        return None
    tokens = [p for t in c.texts[:40] for p in re.split(r"\s*=\s*|\s+", t.strip("'\"")) if p]
    lowered = [t.lower() for t in tokens]
    if set(lowered) & _NOT_SETTING or not (prog.startswith("set-") or set(lowered) & _SETTERS or
                                           any(t.startswith("--set") for t in lowered)):
        return None
    for k, t in enumerate(lowered):
        key = _flat(t)
        vlan_key = key.endswith("vlanid") or key.endswith("vlan") and lowered[k + 1:k + 2] == ["id"] or \
            t == "tag" and "port" in lowered
        if not vlan_key:
            continue
        value = next((v for v in tokens[k + 1:k + 4] if _NUMBER.match(v)), None)
        if value is not None:
            return MEDIUM, f"{c.prog} moves the interface to VLAN {value}: the machine (or its controller) drops " \
                f"off the network it is reached over ({c.text})"
    return None
