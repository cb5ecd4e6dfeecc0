"""Effect: a remote-control server or agent on this machine given a fixed password on the command line.

Remote desktop and support agents let whoever holds their unattended-access password control the desktop from
anywhere; setting one from a command line (``x11vnc -passwd hunter2 -forever``, ``remote-support --password 4242``,
``echo Welcome1 | deskagent --set-password``, ``rdpserverctl password Secret1``) opens the machine to that word,
often a guessable one, and leaves it in the shell's history and the process list.  The program is known by its
name (remote, desk, vnc, rdp, screenconnect, splashtop, assist, a mesh or remote agent), the password by a
``passwd``/``password``/``set-password`` subcommand or option, given a value or fed on standard input.

Quiet: a client logging in to another host (a host named: ``xfreerdp /v:host /p:x``, ``rdesktop -p x host``,
``vncviewer … host:1``), a password file (``-passwd ~/.vnc/passwd``), status, version, help.  Medium."""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_REMOTE = re.compile(r"remote|desk(?!top)|vnc|rdp|screen-?connect|splashtop|assist|meshagent|dwagent|nxserver",
                     re.IGNORECASE)
_CLIENT = re.compile(r"viewer|client|free|rdesktop|remmina|^vncconnect|^krdc|^xtightvnc", re.IGNORECASE)
_SETS = frozenset({"passwd", "password", "set-password", "setpassword", "--set-password", "--password", "-password",
                   "-passwd", "--passwd", "--unattended-password", "--pin", "-pin", "--set-pin", "--access-password"})
_HOST = re.compile(r"^/v:|^[\w-]+(\.[\w-]+)+(:\d+)?$|^[\w.-]+:\d+$|@")
_LOOKS = frozenset({"--status", "status", "--version", "-v", "--help", "-h", "help", "info", "--info"})


@triggered_by(("pass", "pin"))
def rule_remote_password(c: Ctx) -> Optional[tuple]:
    """``x11vnc -passwd hunter2 -forever``, ``echo Welcome1 | deskagent --set-password``."""
    name = c.prog.lower().rsplit("/", 1)[-1]
    if not _REMOTE.search(name) or _CLIENT.search(name):
        return None
    texts = c.texts
    lowered = [t.lower() for t in texts]
    if set(lowered) & _LOOKS or any(_HOST.search(t) for t in texts if not t.startswith("-")):
        return None
    for k, t in enumerate(lowered):
        key, eq, value = t.partition("=")
        if key not in _SETS:
            continue
        value = value if eq else (texts[k + 1] if k + 1 < len(texts) and not texts[k + 1].startswith("-") else "")
        if "/" in value or value.endswith((".pw", ".txt", ".pass", "passwd")):
            return None  # a password file
        if value or c.chain and key.startswith("--"):  # `echo X | deskagent --set-password`: fed on stdin
            return MEDIUM, f"{c.prog} {texts[k]} gives remote control of this machine to whoever holds that " \
                f"password ({c.text})"
    return None
