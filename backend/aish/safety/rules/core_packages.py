"""The packages a system cannot run without, removed by a package manager no rule names.

``lockout.rule_packages`` knows apt, dnf, pacman and their kin by name; the same removal comes from AUR helpers
(``pikaur -Rdd --noconfirm glibc``, ``trizen -R systemd``), small distributions' managers (``kiss r musl``,
``prt-get remove glibc``, ``pisi remove sudo``, ``equo remove``), ``nala``, ``tdnf``, ``pkgin`` and image-based
systems (``rpm-ostree override remove sudo``).  Read for any program no rule names: a remove verb (or pacman's
``-R`` letters, ``--remove``, ``-e``) followed by a package the machine boots, logs in or runs programs with: the C
library and the dynamic loader, the kernel, the init system, the shell, sudo, ssh's server, PAM, coreutils, AIX's
base runtime; other words for the removal (``dispel glibc``, ``pkgtool expunge coreutils``) and a removing letter
right before a library or init package (``installp -u bos.rte.libc``, ``rpm -e glibc``) count too, as do a
program named for the removal (``lrm glibc``, ``pkg_delete openssl``), ``-e``/``-d`` with the package last
(``portmaster -e openssl``, ``spkg -d glibc``), and a system binary's loader or libraries re-pointed in place
(``patchelf --set-interpreter X /usr/bin/sudo``; a binary of one's own build stays quiet).  Such a
removal is high with or without dependency checks (``-Rdd``, ``--nodeps``); other packages stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_ESSENTIAL = re.compile(r"(?:glibc|libc6?|libc-bin|musl|ld-linux[\w.-]*|ld\.so|linux-image[\w.-]*|linux|linux-lts|"
                        r"linux-zen|linux-hardened|kernel|kernel-core|systemd|systemd-sysv|openrc|runit|sysvinit|"
                        r"s6|init|bash|dash|busybox|coreutils|sudo|doas|openssh-server|openssh|pam|libpam[\w.-]*|"
                        r"util-linux|base-files|filesystem|shadow|login|bos\.rte(?:\.[\w.]+)?|kernel-(?:generic|huge)(?:-smp)?|"
                        r"openssl|libssl\d[\w.-]*|libcrypto[\w.-]*|aaa_base|aaa_glibc-solibs|glibc-solibs)(?:[:@=][\w.-]+)?")
# Other words for a removal (Source Mage's `dispel glibc`, `unmerge`, `expunge`): the verb as the program or its
# first word.  Letters that remove in some managers (`installp -u bos.rte`, `rpm -e glibc`) count only right
# before a library, kernel or init package: `xterm -e bash` and `sudo -u root sh` run a shell.
_OTHER_REMOVE_VERBS = frozenset({"dispel", "deinstall", "expunge", "banish", "evict", "zap", "nuke", "drop",
                                 "discard", "obliterate"})
_REMOVE_LETTERS = frozenset({"-u", "-e", "-d"})
# A program named for the removal (`pkg_delete`, `lrm`, `pkgrm`): every operand is removed.
_REMOVING_NAME = re.compile(r"(?:^|[-_])(?:rm|remove|delete|del|uninstall|deinstall)$|"
                            r"^[a-z0-9]{0,4}[b-df-hj-np-tv-z0-9]rm$")
_INSTALLER_NAME = lazy(r"pkg|pack|install|rpm|pm$")  # installp, pkgtool, rpm, opm: `top -u systemd` is a user
_NOT_FOR_LETTERS = frozenset({"bash", "dash", "busybox", "sudo", "doas", "login", "init", "shadow", "linux",
                              "kernel", "filesystem", "pam", "s6", "runit", "openssh"})
_REMOVE_VERBS = frozenset({"r", "rm", "remove", "del", "delete", "uninstall", "erase", "purge", "un",
                           "bundle-remove", "unmerge"})
_REMOVE_OPTIONS = lazy(r"-R[a-zA-Z]*|--remove|--uninstall|--erase|--unmerge")


# A binary's loader or libraries re-pointed (`patchelf --set-interpreter /lib64/ld-missing.so.2 /usr/bin/sudo`).
_REPOINTS = ("--set-interpreter", "--set-rpath", "--replace-needed", "--remove-needed", "--add-needed",
             "--add-rpath", "--remove-rpath", "--force-rpath")
_SYSTEM_BINARY = lazy(r"^/(?:usr/)?(?:s?bin|lib(?:64|exec)?)/[^/]+$")


@triggered_by(_REPOINTS, _ESSENTIAL, otherwise=False)
def may_remove(c: Ctx) -> bool:
    """Cheap: a remove verb or letter among the first words (set lookups), then an essential package's name."""
    texts = c.texts[:16]
    if any(t.startswith(_REPOINTS) for t in texts):
        return True
    if not any(t in _REMOVE_VERBS or t[:2] == "-R" or t[:4] in ("--re", "--un", "--er") or t in _OTHER_REMOVE_VERBS
               or t in _REMOVE_LETTERS for t in texts) and c.prog.lower() not in _OTHER_REMOVE_VERBS and \
            not _REMOVING_NAME.search(c.prog.lower()):
        return False
    return any(_ESSENTIAL.fullmatch(t.rsplit("/", 1)[-1]) for t in texts)


def _repointed(texts: list) -> Optional[str]:
    """A system binary's loader or libraries changed in place: every login or script that runs it breaks."""
    said = next((t for t in texts if t.startswith(_REPOINTS)), None)
    target = next((t for t in reversed(texts) if not t.startswith("-")), "")
    return f"{said.split('=')[0]} on {target}" if said and _SYSTEM_BINARY.match(target) else None


def rule_core_package_removed(c: Ctx) -> Optional[tuple]:
    texts = c.texts[:32]
    repointed = _repointed(texts)
    if repointed is not None:
        return HIGH, f"{c.prog} {repointed}: the system binary loads another loader or libraries and may no " \
            f"longer start ({c.text})"
    operands = [t for t in texts if not t.startswith("-")]
    verb_at = next((k for k, t in enumerate(operands[:3]) if t.lower() in _REMOVE_VERBS | _OTHER_REMOVE_VERBS), None)
    lettered = [texts[k + 1] for k, t in enumerate(texts[:-1]) if t in _REMOVE_LETTERS]
    last_lettered = len(texts) >= 2 and texts[-2] in ("-e", "-d")  # `portmaster -e openssl`, `spkg -d glibc`
    if c.prog.lower() in _OTHER_REMOVE_VERBS or _REMOVING_NAME.search(c.prog.lower()):  # `dispel glibc`, `lrm`
        pkgs = operands
    elif verb_at is not None:
        pkgs = operands[verb_at + 1:]
    elif (_INSTALLER_NAME.search(c.prog.lower()) or last_lettered) and \
            any(_ESSENTIAL.fullmatch(p) and p not in _NOT_FOR_LETTERS for p in lettered):  # `installp -u bos.rte.libc`
        pkgs = [p for p in lettered if p not in _NOT_FOR_LETTERS]
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
