"""Effect: a network server told to give whoever connects a shell in place of its login, for any server.

A telnet or remote-login daemon runs a login program for each connection; given a shell in its place (``telnetd -l
/bin/sh``, ``toybox telnetd -p 2323 -l /bin/ash``, ``inetutils-telnetd -E /bin/bash``, ``zorkd --port 4444 --exec
/bin/sh``), nobody is asked for a password: whoever reaches the port runs commands here.  The server is known by
its name (a daemon's trailing ``d``, or telnet, server, serve, listen in it; busybox and toybox applets by their
first word), the shell by its path or name given as the login, exec or shell option's value.

Quiet: the login program itself (``-l /bin/login``), a handler script (``--exec ./handler.sh``), help.  High."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, Ctx
from aish.safety.rules.triggers import triggered_by

_SHELL = re.compile(r"^(/usr)?(/local)?(/s?bin/)?(ba|da|z|k|mk|a|c|tc|fi)?sh$|^(/usr)?(/s?bin/)?(busybox\s+)?(sh|ash)$")
_LOGIN_OPTIONS = frozenset({"-l", "--login", "-L", "--login-program", "--login-prog", "-E", "--exec", "--shell",
                            "-s", "--program", "--cmd", "--command"})
_SERVER_NAME = re.compile(r"[a-z]d$|telnet|server|serve|listen|svd|rlogin|rsh", re.IGNORECASE)
_APPLETS = frozenset({"busybox", "toybox"})
_NOT_SERVERS = frozenset({"sudo", "su", "env", "nohup", "bash", "sh", "zsh", "find", "sed", "chsh", "usermod",
                          "useradd", "passwd", "ssh", "screen", "tmux", "script", "kubectl", "docker", "podman",
                          "watch", "xargs", "timeout", "strace", "ltrace", "gdb", "valgrind", "chroot", "nsenter",
                          "unshare", "setsid"})


@triggered_by(("sh",))
def rule_shell_login(c: Ctx) -> Optional[tuple]:
    """``telnetd -l /bin/sh -p 23``, ``toybox telnetd -l /bin/ash``, ``zorkd --port 4444 --exec /bin/sh``."""
    texts = c.texts
    name = c.prog.lower().rsplit("/", 1)[-1]
    if name in _APPLETS and texts:
        name, texts = texts[0].lower(), texts[1:]
    if name in _NOT_SERVERS or not _SERVER_NAME.search(name) or "--help" in texts or "-h" in texts:
        return None
    for k, t in enumerate(texts[:-1]):
        key, eq, value = t.partition("=")
        if key in _LOGIN_OPTIONS:
            shell = value if eq else texts[k + 1]
            if _SHELL.match(shell):
                return HIGH, f"{c.prog} gives whoever connects the shell {shell} with no login: anyone who " \
                    f"reaches it runs commands here ({c.text})"
    last = texts[-1] if texts else ""
    key, eq, value = last.partition("=")
    if eq and key in _LOGIN_OPTIONS and _SHELL.match(value):
        return HIGH, f"{c.prog} gives whoever connects the shell {value} with no login ({c.text})"
    return None
