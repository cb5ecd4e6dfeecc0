"""Effect: a guest, a container, a phone or a remote box rebooted by the program that manages it.

``virsh reboot web01``, ``qm reboot 104``, ``adb reboot``, ``talosctl reboot -n 10.0.0.2``, ``ubus call system
reboot``, ``xe vm-reboot vm=web1``, ``salt-cloud -a reboot web1``: what runs there stops, and comes back (if it
does) without its state.  The verb is a word of its own among the first positional words (or the last part of
a fused first verb, or the value of an action option), whatever the program.  A reboot into a boot mode to
flash the device (``adb reboot bootloader``, ``fastboot reboot recovery``) is a developer's step and stays
quiet, as do a program named for the reboot (judged by its own rules), readers and text (``last reboot``,
``grep reboot log``, ``git commit -m reboot``), a reboot word after a listing or install verb, and package tools.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.verbs import PACKAGE_TOOLS

_ACTION_OPTIONS = frozenset({"-a", "--action", "--act"})
_READS = frozenset({"list", "ls", "show", "status", "info", "get", "describe", "history", "log", "logs", "search",
                    "install", "add", "help", "man", "which", "schedule", "cancel", "check", "needs", "last"})
_PARTS = re.compile(r"[-_.:]")
# A reboot into a boot mode to flash the device (`adb reboot bootloader`): a developer's step, the flash judged.
_MODES = frozenset({"bootloader", "recovery", "fastboot", "sideload", "edl", "download", "dfu", "sideload-auto-reboot"})


def may_reboot(c: Ctx) -> bool:
    """Cheap: the arguments say reboot and the program is not named for it."""
    return "reboot" in c.lowered and "reboot" not in c.prog.lower()


def rule_guest_reboot(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    if prog in READ_ONLY or prog in PACKAGE_TOOLS:
        return None
    from aish.safety.rules.carried_commands import TEXT_ARGUMENTS
    if prog in TEXT_ARGUMENTS:
        return None
    texts = c.texts
    seen = 0
    for i, t in enumerate(texts):
        low = t.lower()
        before = texts[i - 1].lower() if i else ""
        if low == "reboot" and before in _ACTION_OPTIONS:
            return _verdict(c)
        if t.startswith("-") or before.startswith("-") and not _takes_no_value(before):
            continue
        seen += 1
        if seen > 3 or low in _READS:
            return None
        if low == "reboot" and i + 1 < len(texts) and texts[i + 1].lower() in _MODES:
            return None
        if low == "reboot" or seen == 1 and "/" not in low and _PARTS.split(low)[-1] == "reboot" and \
                len(_PARTS.split(low)) > 1:
            return _verdict(c)
    return None


def _takes_no_value(option: str) -> bool:
    """``-6``, ``--force``: a flag, so the word after it is a positional word, not its value."""
    return option in ("-4", "-6", "-f", "--force", "-y", "--yes", "-q", "--quiet", "-v", "--verbose", "--hard")


def _verdict(c: Ctx) -> tuple:
    return MEDIUM, f"{c.prog} reboots the machine, guest or device it manages: what runs there stops ({c.text})"
