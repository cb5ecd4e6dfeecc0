"""Effect: many units stopped through one name: a slice, a target that stands for the machine's state,
the service manager itself, or the kernel's control files that stop or suspend whole groups of processes.

A unit can stand for many others.  Stopping, killing or freezing a slice stops every process in it
(``systemctl stop user.slice`` ends every login session, ssh ones included; ``system.slice`` every
service; ``machine.slice`` every VM and container).  Starting a target can be the machine's own stop
(``systemctl start poweroff.target``, ``reboot.target``, ``suspend.target``, ``rescue.target``:
the same as ``systemctl poweroff``), and ``systemctl exit`` ends the manager with all it runs.  The
kernel has the same in files: ``1`` written to a cgroup's ``cgroup.kill`` kills every process in it,
``cgroup.freeze`` stops them all, and ``/sys/power/state`` suspends the machine.  One named service
stays with ``service_units``; starting a target that is not a state of the machine stays quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.lazy_regex import lazy

# Targets (and the services behind them) whose start ends or suspends the machine's run.
_MACHINE_STATES = lazy(r"^(systemd-)?(poweroff|reboot|halt|kexec|soft-reboot|suspend|hibernate|hybrid-sleep|"
                       r"suspend-then-hibernate|sleep|shutdown|rescue|emergency|exit|ctrl-alt-del|"
                       r"runlevel[016])\.(target|service)$")
_SINGLE_USER = lazy(r"^(systemd-)?(rescue|emergency|runlevel1)\.")
_STARTS = frozenset({"start", "restart", "isolate", "try-restart", "reload-or-restart", "try-reload-or-restart",
                     "enqueue"})
_STOPS = frozenset({"stop", "kill", "freeze", "disable", "mask"})
# Slices whose every process is a login, a service or a guest: their loss cuts access.
_ACCESS_SLICES = lazy(r"^(-|user|system|init)\.slice$")
# Kernel control files: what a write into them stops.
KERNEL_STOPS = lazy(r"^/sys/fs/cgroup/(?:.+/)?cgroup\.(kill|freeze)$|^/sys/power/state$")


def group_verdict(c: Ctx, verb: str, units: list) -> Optional[tuple]:
    """A slice stopped, a machine state started, the manager told to exit."""
    if verb == "exit":
        where = "your user manager" if "--user" in c.texts else "the service manager"
        return MEDIUM, f"systemctl exit ends {where} and every service it runs ({c.text})"
    if verb in _STARTS:
        state = next((u for u in units if _MACHINE_STATES.match(u)), None)
        if state is not None:
            level = HIGH if _SINGLE_USER.match(state) else MEDIUM
            return level, f"{verb} {state}: the machine shuts down, restarts, sleeps or drops to single-user " \
                f"({c.text})"
    if verb in _STOPS:
        whole = next((u for u in units if u.endswith(".slice") and "@" not in u), None)
        if whole is not None:
            level = HIGH if _ACCESS_SLICES.match(whole) and "--user" not in c.texts else MEDIUM
            return level, f"{verb} {whole}: every process in the slice stops, sessions or services included " \
                f"({c.text})"
    return None


def kernel_stop(path: str) -> Optional[tuple]:
    """(level, what) for a write into a kernel control file that stops processes or the machine."""
    m = KERNEL_STOPS.match(path)
    if m is None:
        return None
    if m.group(1) is None:
        return MEDIUM, "suspends or hibernates the machine"
    level = HIGH if re.match(r"^/sys/fs/cgroup/((user|system|init)\.slice/)?cgroup\.", path) else MEDIUM
    return level, ("kills" if m.group(1) == "kill" else "freezes") + " every process in the cgroup"
