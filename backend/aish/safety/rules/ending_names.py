"""Effect: a program named for the end it brings (``wayland-logout``, ``sway-poweroff``, ``rpi-shutdown``), run.

Desktops, appliances and distributions ship small programs whose whole job is in their name's last word: the
session ends (``-logout``, ``-logoff``) or the machine goes down (``-poweroff``, ``-shutdown``, ``-reboot``,
``-halt``).  Run bare or with options only, that is what happens, for any such program no rule names.  A
name that asks or checks (``needs-reboot``, ``check-reboot``), a boot loader's choice of the next entry
(``grub-reboot ENTRY``) and any program given an operand (it acts on something else) stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx

_ENDS = {"logout": "the desktop session ends, and every program in it", "logoff": "the session ends",
         "poweroff": "the machine powers off", "shutdown": "the machine shuts down", "reboot": "the machine reboots",
         "halt": "the machine halts"}
_ASKS = frozenset({"check", "needs", "need", "is", "show", "test", "status", "notify", "schedule", "cancel", "grub",
                   "ask", "dialog", "required", "pending", "if", "safe", "helper", "info"})
_PARTS = re.compile(r"[-_.]")


def may_end(c: Ctx) -> bool:
    """Cheap: the program's name ends in one of the end words."""
    return c.prog.lower().removesuffix(".exe").endswith(tuple(_ENDS)) and ("-" in c.prog or "_" in c.prog)


def rule_named_end(c: Ctx) -> Optional[tuple]:
    parts = _PARTS.split(c.prog.lower().removesuffix(".exe"))
    if len(parts) < 2 or parts[-1] not in _ENDS or set(parts) & _ASKS:
        return None
    if any(not t.startswith("-") for t in c.texts) or set(c.texts) & {"--help", "-h", "--version", "-V"}:
        return None
    return MEDIUM, f"{c.prog}: {_ENDS[parts[-1]]} ({c.text})"
