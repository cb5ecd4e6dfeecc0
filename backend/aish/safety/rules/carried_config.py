"""Effect: a router's or switch's configuration session handed to any program as one string, read line by line.

Login wrappers and automation tools take a whole session as an option or an argument (``jlogin -c "configure;
delete interfaces ge-0/0/1; commit" mx1``, ``fleetcli -c "config; no vlan 20; write memory" sw-7``): the string
starts a configuration mode (``conf t``, ``configure terminal``, ``configure``, ``config``) and the statements after
it are the device's own language.  ``netdevices`` judges those statements for the network OS shells and ``ssh``;
here any program carrying such a session is read the same way, and two statements that open the device are added:
its passwords removed (``no password all``, ``no enable secret``, ``no username admin``, ``no aaa new-model``) and
an SNMP community granted write access (``snmp-server community public RW``: whoever knows the word reconfigures
the device).

A session that only shows, or sets ordinary values (``conf t; interface Gi0/1; description uplink; end``), stays
quiet.  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.netdevices import NOS_CLIS, judge_line
from aish.safety.rules.triggers import triggered_by

_SESSION_START = re.compile(r"^(conf(ig(ure)?)?(\s+(t|term|terminal|private|exclusive))?|edit|cfg)$", re.IGNORECASE)
_OPENS = re.compile(r"^no\s+(password\b|enable\s+(secret|password)\b|username\s+\S|aaa\s+(new-model|authentication)\b|"
                    r"service\s+password-encryption\b|ip\s+ssh\b|login\b)|"
                    r"^snmp-server\s+community\s+\S+(\s+view\s+\S+)?\s+rw\b", re.IGNORECASE)
_SEPARATORS = re.compile(r"[;\n]|\\n")


@triggered_by(("conf", "cfg", "edit"))
def rule_carried_config(c: Ctx) -> Optional[tuple]:
    """``jlogin -c "configure; delete interfaces ge-0/0/1; commit" mx1``."""
    if c.prog in NOS_CLIS or c.prog == "ssh":
        return None  # read by netdevices' own rules
    for text in c.texts:
        if ";" not in text and "\n" not in text and "\\n" not in text:
            continue
        statements = [" ".join(s.split()) for s in _SEPARATORS.split(text)]
        statements = [s for s in statements if s]
        if not statements or not _SESSION_START.match(statements[0]):
            continue
        for statement in statements[1:16]:
            if _OPENS.match(statement):
                return MEDIUM, f"{c.prog}: '{statement[:40]}' opens the device: its passwords or a write " \
                    f"community are given away ({c.text})"
            what = judge_line(statement)
            if what:
                return MEDIUM, f"{c.prog}: '{statement[:40]}' {what} ({c.text})"
    return None
