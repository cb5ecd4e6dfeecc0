"""Effect: a program named for the end it brings (``wayland-logout``, ``sway-poweroff``, ``rpi-shutdown``), run.

Desktops, appliances and distributions ship small programs whose whole job is in their name's last word (after a
separator or fused to a vendor's prefix: ``synoshutdown -s``, ``synopoweroff``): the
session ends (``-logout``, ``-logoff``) or the machine goes down (``-poweroff``, ``-shutdown``, ``-reboot``,
``-halt``).  Run bare or with options only, that is what happens, for any such program no rule names.  A
name that asks or checks (``needs-reboot``, ``check-reboot``), a boot loader's choice of the next entry
(``grub-reboot ENTRY``) and any program given an operand (it acts on something else) stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_ENDS = {"logout": "the desktop session ends, and every program in it", "logoff": "the session ends",
         "poweroff": "the machine powers off", "shutdown": "the machine shuts down", "reboot": "the machine reboots",
         "halt": "the machine halts"}
_ASKS = frozenset({"check", "needs", "need", "is", "show", "test", "status", "notify", "schedule", "cancel", "grub",
                   "ask", "dialog", "required", "pending", "if", "safe", "helper", "info"})
_PARTS = lazy(r"[-_.]")


@triggered_by(tuple(_ENDS), otherwise=False)
def may_end(c: Ctx) -> bool:
    """Cheap: the program's name ends in one of the end words."""
    name = c.prog.lower().removesuffix(".exe")
    return name.endswith(tuple(_ENDS)) and ("-" in name or "_" in name or _fused(name) is not None)


def _fused(name: str) -> Optional[list]:
    """``synoshutdown``, ``synopoweroff``: a vendor's prefix fused to the end word (``needsreboot`` asks)."""
    end = next((e for e in _ENDS if name.endswith(e)), None)
    prefix = name[:-len(end)] if end else ""
    if end is None or not (3 <= len(prefix) <= 8 and prefix.isalpha()) or prefix in _ASKS or \
            any(prefix.startswith(a) for a in _ASKS if len(a) > 2):
        return None
    return [prefix, end]


def rule_named_end(c: Ctx) -> Optional[tuple]:
    parts = _PARTS.split(c.prog.lower().removesuffix(".exe"))
    if len(parts) < 2:
        parts = _fused(parts[0]) or parts
    if len(parts) < 2 or parts[-1] not in _ENDS or set(parts) & _ASKS:
        return None
    if any(not t.startswith("-") for t in c.texts) or set(c.texts) & {"--help", "-h", "--version", "-V"}:
        return None
    return MEDIUM, f"{c.prog}: {_ENDS[parts[-1]]} ({c.text})"
