"""Effect: a program the system needs to log in or run anything replaced by nothing, by the tools that redirect it.

``cp /bin/false /usr/bin/sudo`` and ``mv /usr/bin/sudo …`` are judged as writes onto a critical file; the same
loss comes from the tools that swap a program's name for another without writing it themselves:

- the alternatives system (``update-alternatives``, Red Hat's ``alternatives``, any ``*alternatives`` tool):
  ``--install /bin/sh sh /bin/false 1000`` or ``--set sudo /bin/true`` points the shell, sudo, login or sshd at
  a program that does nothing (false, true, nologin, /dev/null) or one taken from a scratch or home folder
  (``--install /usr/bin/sudo sudo /tmp/fake 100``: whoever wrote it there runs as root next);
- diversions (``dpkg-divert --rename --add /usr/bin/sudo``, any ``*divert`` tool): ``--rename`` moves the real
  program aside, so the name runs nothing;
- a bind mount of such a program over one (``mount --bind /bin/false /usr/bin/sudo``).

Every login, sudo and script that needs them then fails, and undoing it may need a rescue boot.  Pointing an
editor or python at another real program (``--set editor /usr/bin/vim.basic``), listing and querying stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_ESSENTIAL = frozenset({"sh", "bash", "dash", "sudo", "su", "doas", "login", "sshd", "passwd", "init", "systemd",
                        "systemctl", "agetty", "getty", "pkexec", "ssh", "mount", "pam_unix.so"})
_NOTHING = lazy(r"(^|/)(false|true|nologin|null)$|^(/tmp|/var/tmp|/dev/shm|~|\$HOME|/home/[^/]+|/Users/[^/]+)/")


def _base(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1].lower()


@triggered_by(("alternatives", "divert", "bind"), otherwise=False)
def may_replace(c: Ctx) -> bool:
    """Cheap: an alternatives or diversion tool, or a bind mount."""
    prog = c.prog.lower()
    return "alternatives" in prog or "divert" in prog or (prog == "mount" and "bind" in c.lowered)


def _alternatives(c: Ctx, texts: list) -> Optional[tuple]:
    for k, t in enumerate(texts):
        if t == "--install" and k + 3 < len(texts):
            link, name, path = texts[k + 1:k + 4]
            if (_base(link) in _ESSENTIAL or name.lower() in _ESSENTIAL) and _NOTHING.search(path):
                return HIGH, f"{c.prog} points {link} at {path}, not the real program ({c.text})"
        if t == "--set" and k + 2 < len(texts):
            name, path = texts[k + 1:k + 3]
            if name.lower() in _ESSENTIAL and _NOTHING.search(path):
                return HIGH, f"{c.prog} points {name} at {path}, not the real program ({c.text})"
    return None


def _diversion(c: Ctx, texts: list) -> Optional[tuple]:
    if "--rename" not in texts or "--remove" in texts:
        return None
    divert_value = {texts[k + 1] for k, t in enumerate(texts[:-1]) if t in ("--divert", "--package", "--admindir")}
    for t in texts:
        if t.startswith("/") and t not in divert_value and _base(t) in _ESSENTIAL:
            return HIGH, f"{c.prog} moves {t} aside, so its name runs nothing ({c.text})"
    return None


def _bind(c: Ctx, texts: list) -> Optional[tuple]:
    paths = [t for t in texts if t.startswith("/")]
    if len(paths) >= 2 and _NOTHING.search(paths[-2]) and _base(paths[-1]) in _ESSENTIAL:
        return HIGH, f"{c.prog} mounts {paths[-2]} over {paths[-1]}, which then runs nothing ({c.text})"
    return None


def rule_binary_replaced(c: Ctx) -> Optional[tuple]:
    prog = c.prog.lower()
    texts = list(c.texts)
    if "alternatives" in prog:
        return _alternatives(c, texts)
    if "divert" in prog:
        return _diversion(c, texts)
    return _bind(c, texts)
