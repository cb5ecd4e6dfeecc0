"""The packages a system cannot run without, removed by a package manager no rule names.

``lockout.rule_packages`` knows apt, dnf, pacman and their kin by name; the same removal comes from AUR helpers
(``pikaur -Rdd --noconfirm glibc``, ``trizen -R systemd``), small distributions' managers (``kiss r musl``,
``prt-get remove glibc``, ``pisi remove sudo``, ``equo remove``), ``nala``, ``tdnf``, ``pkgin`` and image-based
systems (``rpm-ostree override remove sudo``).  Read for any program no rule names: a remove verb (or pacman's
``-R`` letters, ``--remove``, ``-e``) followed by a package the machine boots, logs in or runs programs with: the C
library and the dynamic loader, the kernel, the init system, the shell, sudo, ssh's server, PAM, coreutils.  Such a
removal is high with or without dependency checks (``-Rdd``, ``--nodeps``); other packages stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, Ctx

_ESSENTIAL = re.compile(r"(?:glibc|libc6?|libc-bin|musl|ld-linux[\w.-]*|ld\.so|linux-image[\w.-]*|linux|linux-lts|"
                        r"linux-zen|linux-hardened|kernel|kernel-core|systemd|systemd-sysv|openrc|runit|sysvinit|"
                        r"s6|init|bash|dash|busybox|coreutils|sudo|doas|openssh-server|openssh|pam|libpam[\w.-]*|"
                        r"util-linux|base-files|filesystem|shadow|login)(?:[:@=][\w.-]+)?")
_REMOVE_VERBS = frozenset({"r", "rm", "remove", "del", "delete", "uninstall", "erase", "purge", "un",
                           "bundle-remove", "unmerge"})
_REMOVE_OPTIONS = re.compile(r"-R[a-zA-Z]*|--remove|--uninstall|--erase|--unmerge")


def may_remove(c: Ctx) -> bool:
    """Cheap: a remove verb or letter among the first words (set lookups), then an essential package's name."""
    texts = c.texts[:16]
    if not any(t in _REMOVE_VERBS or t[:2] == "-R" or t[:4] in ("--re", "--un", "--er") for t in texts):
        return False
    return any(_ESSENTIAL.fullmatch(t.rsplit("/", 1)[-1]) for t in texts)


def rule_core_package_removed(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    operands = [t for t in texts if not t.startswith("-")]
    verb_at = next((k for k, t in enumerate(operands[:3]) if t.lower() in _REMOVE_VERBS), None)
    if verb_at is not None:
        pkgs = operands[verb_at + 1:]
    elif any(_REMOVE_OPTIONS.fullmatch(t) for t in texts):
        pkgs = operands
    else:
        return None
    core = [p for p in pkgs if _ESSENTIAL.fullmatch(p.rsplit("/", 1)[-1])]
    if not core:
        return None
    unchecked = any(t in ("--nodeps", "--force-depends", "-dd") or re.fullmatch(r"-R[a-zA-Z]*d[a-zA-Z]*d[a-zA-Z]*", t)
                    for t in texts)
    return HIGH, f"{c.prog} removes {', '.join(core[:3])}, which the system boots, logs in or runs programs with" \
        f"{' (dependency checks off)' if unchecked else ''} ({c.text})"
