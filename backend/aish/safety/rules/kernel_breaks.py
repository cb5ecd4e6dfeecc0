"""Effect: a kernel setting that cuts the machine off or makes the running system fail, by any writer.

``baseline_values`` reads the settings that weaken a protection; these are the ones that break: IPv6
switched off (connections over it drop, a remote session with them), module loading disabled for good
(until the next boot nothing more can be loaded, a disk or network driver included), strict overcommit
(allocations past a fixed limit fail: programs die), a panic when memory runs out, process, thread and
file limits set below what a running system uses, and the program the kernel runs as root to load a
module replaced.  Read for ``sysctl -w KEY=VALUE`` (and ``sysctl KEY=VALUE``), a write to
``/proc/sys/…`` and a line in a sysctl configuration file (through ``system_files``).
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.lazy_regex import lazy


def _at_least(bad: Callable[[int], bool]) -> Callable[[str], bool]:
    return lambda v: v.lstrip("-").isdigit() and bad(int(v))


_MODPROBES = {"/sbin/modprobe", "/usr/sbin/modprobe", "/bin/modprobe", "/usr/bin/modprobe"}
# key pattern (dots) -> (is the value breaking, what it does)
_BREAKS: list = [
    (re.compile(r"^net\.ipv6\.conf\.[\w@.-]+\.disable_ipv6$"), lambda v: v == "1",
     "IPv6 switched off: connections over it drop"),
    (re.compile(r"^kernel\.modules_disabled$"), lambda v: v == "1",
     "no kernel module can be loaded until the next boot"),
    (re.compile(r"^vm\.overcommit_memory$"), lambda v: v == "2", "allocations past a fixed limit fail: programs die"),
    (re.compile(r"^vm\.overcommit_ratio$"), _at_least(lambda n: n < 20), "allocations past a small limit fail"),
    (re.compile(r"^vm\.panic_on_oom$"), lambda v: v in ("1", "2"), "the machine panics when memory runs out"),
    (re.compile(r"^kernel\.(pid_max|threads-max)$"), _at_least(lambda n: n < 4096),
     "new processes fail past a limit below what a system runs"),
    (re.compile(r"^fs\.(file-max|nr_open)$"), _at_least(lambda n: n < 8192), "opening files fails past a tiny limit"),
    (re.compile(r"^kernel\.modprobe$"), lambda v: v not in _MODPROBES and v.startswith("/"),
     "the kernel runs that program as root whenever it wants a module"),
    (re.compile(r"^net\.ipv4\.conf\.(all|default|[\w@.-]+)\.arp_ignore$"), lambda v: v == "8",
     "the interface answers no ARP request: the machine drops off the network"),
]


def breaking(key: str, value: str) -> Optional[str]:
    """What setting KEY (dots or slashes) to VALUE breaks, or None."""
    key = key.strip().strip("'\"").replace("/", ".").lower()
    value = value.strip().strip("'\"")
    value = value.split()[0] if value else ""
    for pattern, bad, what in _BREAKS:
        if pattern.match(key) and bad(value):
            return f"{key}={value}: {what}"
    return None


_LINE = lazy(r"^\s*-?\s*([a-z][\w.@/-]+)\s*=\s*(\S+)", re.MULTILINE)


class BreakingText:
    """A content pattern for a sysctl file (``KEY = VALUE`` lines) or a ``/proc/sys`` file (``PATH: VALUE``)."""

    @staticmethod
    def search(text: str) -> Optional[str]:
        return next((w for m in _LINE.finditer(text) if (w := breaking(m.group(1), m.group(2)))), None)


def proc_value(path: str, text: str) -> Optional[str]:
    """The value written into ``/proc/sys/KEY``, judged as its key."""
    if not path.startswith("/proc/sys/") or not text.strip():
        return None
    return breaking(path[len("/proc/sys/"):], text.strip().splitlines()[0])


def rule_sysctl_breaks(c: Ctx) -> Optional[tuple]:
    if {"-a", "--all", "-p", "--load", "--system"} & set(c.texts):
        return None
    for t in c.texts:
        key, eq, value = t.partition("=")
        found = breaking(key, value) if eq and not t.startswith("-") else None
        if found:
            return MEDIUM, f"{found} ({c.text})"
    return None


RULES: dict = {"sysctl": [rule_sysctl_breaks]}
