"""Effect: changes permissions or ownership broadly (``chmod``/``chown``/``chgrp``/``setfacl``).

One file's mode is routine; recursive changes, system paths and home are not:
``chmod -R 777 /`` breaks the system, ``chown -R`` on home can lock a user out
of ssh (sshd refuses keys in a directory others can write)."""
from __future__ import annotations

import os
import re
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, describe, parse_opts, target, worst
from aish.safety.rules.secret_perms import tightens
from aish.safety.lazy_regex import lazy

_WORLD_WRITABLE = lazy(r"0?[0-7]?[0-7][0-7][2367]|a\+[rwx]*w[rwx]*|[ugoa]*o[ugoa]*[+=][rwxXst]*w[rwxXst]*|"
                       r"\+w|[ugoa]*=rwx")
_ROOT_OWNED = lazy(r"^(root|0)([:.](root|0|wheel|shadow|admin)?)?$")  # the owner /etc's files have
_REMOVES_ACCESS = lazy(r"0?0+|[ugoa]*[-=]([rwxXst]*[rx][rwxXst]*)?|0?[0-7]00|000")


def rule_perms(c: Ctx) -> Optional[tuple]:
    valued = frozenset({"-m", "-M", "-x", "-X"} if c.prog == "setfacl" else {"--reference", "--from"})
    flags, values, pos = parse_opts(c.args, valued)
    rec = bool(flags & {"R", "--recursive"}) or (c.prog == "setfacl" and "R" in flags)
    if c.prog == "chmod" and c.args and re.fullmatch(r"-[rwxXst]+", c.args[0].text) and not rec:
        pos = [c.args[0]] + pos  # chmod -x file: a mode, not options
    if c.prog == "setfacl":
        mode = values.get("-m") or values.get("-x") or ("-b" if "b" in flags else "")
        targets = pos
    elif "--reference" in flags:
        mode, targets = "like " + values.get("--reference", "?"), pos
    else:
        mode, targets = (pos[0].text if pos else ""), pos[1:]
    best = _setuid(c, mode, targets)
    for w in targets:
        t = target(w)
        k = t.kind
        if c.prog in ("chown", "chgrp") and _owner_keeps_access(mode, w.text):
            continue  # `chown -R bob:bob /home/bob`: giving a home back to its owner
        if c.prog == "chown" and not rec and _ROOT_OWNED.match(mode) and t.path.startswith("/etc/") and \
                not (w.glob or "*" in t.path):
            continue  # `chown root:root /etc/sudoers`: one configuration file given back the owner it has to have
        if c.prog == "chmod" and not rec and (tightens(mode, w.text) or benchmark_mode(mode, w.text)):
            continue  # `chmod 600 /etc/ssh/ssh_host_ed25519_key`: keeping a secret to its owner
        if k == "userhome" and rec and (c.prog != "chmod" or _WORLD_WRITABLE.fullmatch(mode)
                                        or _REMOVES_ACCESS.fullmatch(mode)):
            best = worst(best, (MEDIUM, f"{c.prog} -R {mode} on {describe(t)}: its owner can lose access "
                                        f"({c.text})"))
            continue
        if k == "system" and not rec and not (w.glob or "*" in t.path) and not (
                c.prog == "chmod" and (_WORLD_WRITABLE.fullmatch(mode) or _REMOVES_ACCESS.fullmatch(mode))):
            continue  # one configuration file's mode or owner: routine
        if k in ("root", "system-top", "device") or (k == "home" and rec) or (k == "critical") or \
                (k == "dot-critical" and (rec or _WORLD_WRITABLE.fullmatch(mode) or mode.startswith("0"))) or \
                (k == "system" and rec):
            level = HIGH if rec or k in ("root", "critical", "device", "system-top") else MEDIUM
            if k == "system-top" and not rec and not (w.glob or "*" in t.path):
                level = MEDIUM
            if k == "dot-critical" and not rec and re.search(r"[2367]$|w", mode):
                level = HIGH  # sshd refuses keys others can write: locked out
            best = worst(best, (level, f"{c.prog}{' -R' if rec else ''} {mode} on {describe(t)} breaks the "
                                       f"system or your account ({c.text})"))
        elif k == "system" and (w.glob or "*" in t.path):
            best = worst(best, (HIGH, f"{c.prog} {mode} on every file in {t.shown} ({c.text})"))
        elif k in ("home", "system", "var") or (k == "all" and rec):
            best = worst(best, (MEDIUM, f"{c.prog}{' -R' if rec else ''} {mode} on {describe(t)} ({c.text})"))
        elif c.prog == "chmod" and _WORLD_WRITABLE.fullmatch(mode) and (rec or t.path.startswith("/") and k != "temp"):
            what = f"everything under {t.shown}" if rec else t.shown  # one file or socket: only itself
            best = worst(best, (MEDIUM, f"makes {what} writable by every user ({c.text})"))
        elif rec and c.prog == "chmod" and _REMOVES_ACCESS.fullmatch(mode) and k not in ("output", "temp"):
            best = worst(best, (LOW, f"removes access to everything under {t.shown} ({c.text})"))
    return best


_SHELLS_AND_INTERPRETERS = lazy(r"^(ba|z|da|k|mk|c|tc|fi|a)?sh$|^(python[\d.]*|perl|ruby|node|php|lua|"
                                r"env|find|vim?|nano|less|more|awk|gawk|tar|cp|nmap|busybox|bash)$")
_SETUID = lazy(r"^(0?[4-7][0-7]{3}|[ugoa]*\+[rwx]*s[rwxst]*|\+s)$")


def _setuid(c: Ctx, mode: str, targets: list) -> Optional[tuple]:
    """``chmod u+s /bin/bash``: anyone who runs it gets a root shell."""
    if c.prog != "chmod" or not _SETUID.match(mode) or mode.startswith(("g+", "o+")):
        return None
    best = None
    for w in targets:
        name = w.text.rstrip("/").rsplit("/", 1)[-1]
        if _SHELLS_AND_INTERPRETERS.match(name):
            best = worst(best, (HIGH, f"setuid on {w.text}: anyone who runs it becomes its owner, root ({c.text})"))
        elif w.text.startswith(("/tmp/", "/var/tmp/", "/dev/shm/", "/run/shm/")):  # a root shell left to come back by
            best = worst(best, (HIGH, f"setuid on {w.text}, in a temporary place: whoever runs it becomes its "
                                      f"owner, a way back in left behind ({c.text})"))
        elif w.text.startswith(("/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/")):
            best = worst(best, (MEDIUM, f"setuid on {w.text}: it runs as its owner for anyone ({c.text})"))
    return best


# Files the benchmarks keep from others (CIS: shadow, sudoers, grub.cfg, crontab and cron's directories, sshd's
# configuration and host keys), and the two every user must still read (passwd, group).
_KEPT_FROM_OTHERS = lazy(r"^/etc/(g?shadow-?|sudoers|sudoers\.d/[^/*?]+|crontab|cron\.(d|daily|hourly|weekly|"
                         r"monthly)(/[^/*?]+)?|cron\.allow|at\.allow|ssh/sshd_config(\.d/[^/*?]+)?|"
                         r"ssh/ssh_host_\w+_key|security/opasswd)/?$|^/boot/grub2?/(grub|user)\.cfg$")
_READ_BY_ALL = lazy(r"^/etc/(passwd|group)-?$")
# Programs that only work setuid: without the bit nobody gets root, changes a password or mounts.
_NEEDS_SETUID = lazy(r"^(sudo|su|doas|pkexec|passwd|chsh|chfn|gpasswd|newgrp|mount|umount|fusermount3?|ping6?|"
                     r"unix_chkpwd|crontab|at|ssh-keysign|Xorg\.wrap|polkit-agent-helper-1|"
                     r"dbus-daemon-launch-helper|newuidmap|newgidmap|expiry|chage)$")


def benchmark_mode(mode: str, path: str) -> bool:
    """``chmod og-rwx /boot/grub/grub.cfg``, ``chmod 0440 /etc/sudoers.d/x``, ``chmod 644 /etc/passwd``,
    ``chmod u-s /usr/bin/find``: a hardening guide's own remediation, which takes access away from others
    (or a setuid bit away) and leaves the owner what it needs."""
    if re.fullmatch(r"([ugoa]*-s,?)+", mode):
        return not _NEEDS_SETUID.match(path.rstrip("/").rsplit("/", 1)[-1])  # setuid/setgid removed
    kept = _KEPT_FROM_OTHERS.match(path)
    read_by_all = _READ_BY_ALL.match(path)
    if not (kept or read_by_all):
        return False
    numeric = re.fullmatch(r"0?([0-7])([0-7])([0-7])", mode)
    if numeric:
        owner, group, other = (int(d) for d in numeric.groups())
        if not owner & 4 or group & 2 or other & 2:
            return False
        return bool(kept) or bool(group & 4 and other & 4)  # passwd and group stay readable by everyone
    clauses = mode.split(",")
    removes = all(re.fullmatch(r"[go]+-[rwx]+", k) for k in clauses)
    return removes and (bool(kept) or all("r" not in k.split("-")[1] for k in clauses))


def _owner_keeps_access(spec: str, path: str) -> bool:
    """Does ``chown SPEC PATH`` give a home back to the user it belongs to?"""
    owner = spec.split(":", 1)[0].split(".", 1)[0]
    home = re.match(r"^/(?:home|Users)/([^/]+)", path)
    return home is not None and owner == home.group(1) and owner != os.environ.get("USER")


_POWERFUL_CAPS = lazy(r"cap_(setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|sys_module|"
                      r"fowner|chown|sys_rawio)", re.IGNORECASE)


def rule_capabilities(c: Ctx) -> Optional[tuple]:
    """``setcap cap_setuid+ep /usr/bin/python3``: anyone who runs it can become root, like setuid."""
    texts = [t for t in c.texts if not t.startswith("-")]
    if len(texts) < 2 or not _POWERFUL_CAPS.search(texts[0]) or not re.search(r"[+=]\w*[ep]", texts[0]):
        return None
    name = texts[1].rstrip("/").rsplit("/", 1)[-1]
    level = HIGH if _SHELLS_AND_INTERPRETERS.match(re.sub(r"[\d.]+$", "", name)) or \
        _SHELLS_AND_INTERPRETERS.match(name) else MEDIUM
    return level, f"gives {texts[1]} the power to act as root ({texts[0]}): anyone who runs it can ({c.text})"


RULES = {"setcap": [rule_capabilities], "chmod": [rule_perms], "chown": [rule_perms], "chgrp": [rule_perms],
         "setfacl": [rule_perms]}
