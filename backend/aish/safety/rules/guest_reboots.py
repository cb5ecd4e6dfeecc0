"""Effect: a guest, a container, a phone or a remote box rebooted by the program that manages it.

``virsh reboot web01``, ``qm reboot 104``, ``adb reboot``, ``talosctl reboot -n 10.0.0.2``, ``ubus call system
reboot``, ``xe vm-reboot vm=web1``, ``salt-cloud -a reboot web1``: what runs there stops, and comes back (if it
does) without its state.  The verb is a word of its own among the first positional words (or the last part of
a fused first verb, a verb fused with a machine noun as in ``instance-reboot`` or ``RebootInstances``, or the
value of an action option), whatever the program; a ``restart`` said of a machine (``az vm restart``,
``vultr-cli instance restart``) is one too, while a service's or a container's restart (``docker restart``,
``kubectl rollout restart``) is everyday.  A reboot into a boot mode to flash the device (``adb reboot
bootloader``, ``fastboot reboot recovery``) is a developer's step and stays quiet, as do a program named for
the reboot (judged by its own rules), readers and text (``last reboot``, ``grep reboot log``, ``git commit -m
reboot``), a reboot word after a listing or install verb, and package tools.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.programs import READ_ONLY
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.verbs import PACKAGE_TOOLS
from aish.safety.lazy_regex import lazy

_ACTION_OPTIONS = frozenset({"-a", "--action", "--act"})
_READS = frozenset({"list", "ls", "show", "status", "info", "get", "describe", "history", "log", "logs", "search",
                    "install", "add", "help", "man", "which", "schedule", "cancel", "check", "needs", "last"})
_PARTS = lazy(r"[-_.:]")
_CAMEL = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")  # `RebootInstances`, `vm-reboot`: a fused verb's parts
# What a restart restarts when it is a machine (a service's or a container's restart is everyday).
_MACHINES = frozenset({"vm", "vms", "instance", "instances", "server", "servers", "machine", "machines", "node",
                       "nodes", "droplet", "droplets", "guest", "guests", "domain", "host", "hosts", "vps", "box"})
# A reboot into a boot mode to flash the device (`adb reboot bootloader`): a developer's step, the flash judged.
_MODES = frozenset({"bootloader", "recovery", "fastboot", "sideload", "edl", "download", "dfu", "sideload-auto-reboot"})


@triggered_by(("reboot", "restart"), otherwise=False)
def may_reboot(c: Ctx) -> bool:
    """Cheap: the arguments say reboot (or restart) and the program is not named for it."""
    low = c.lowered
    return ("reboot" in low or "restart" in low and c.prog.lower() not in ("systemctl", "docker", "podman")) and \
        "reboot" not in c.prog.lower()


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
        parts = [p.lower() for p in _CAMEL.findall(t)] if "/" not in t else []
        if low == "reboot" or seen == 1 and len(parts) > 1 and parts[-1] == "reboot" or \
                "reboot" in parts and len(parts) > 1 and set(parts) - {"reboot"} <= _MACHINES:
            return _verdict(c)  # `xe vm-reboot`, `ibmcloud is instance-reboot`, `aliyun ecs RebootInstance`
        if (low == "restart" or "restart" in parts and set(parts) - {"restart"} <= _MACHINES) and \
                (len(parts) > 1 or _MACHINES.intersection(w.lower() for w in texts[:i] if not w.startswith("-"))):
            return _verdict(c)  # `az vm restart`, `vultr-cli instance restart`: a machine's restart is a reboot
    return None


def _takes_no_value(option: str) -> bool:
    """``-6``, ``--force``: a flag, so the word after it is a positional word, not its value."""
    return option in ("-4", "-6", "-f", "--force", "-y", "--yes", "-q", "--quiet", "-v", "--verbose", "--hard")


def _verdict(c: Ctx) -> tuple:
    return MEDIUM, f"{c.prog} reboots the machine, guest or device it manages: what runs there stops ({c.text})"
