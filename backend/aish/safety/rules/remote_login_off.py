"""Effect: the remote login service switched off by an appliance's or a board's own configuration tool.

``systemctl disable ssh`` and ``sysrc sshd_enable=NO`` have rules; appliances and boards switch ssh off through
their own tools, each in its own words: ``raspi-config nonint do_ssh 1`` (its non-interactive mode takes 1 for
off), OpenWrt's ``uci set dropbear.@dropbear[0].enable=0``, ESXi's ``vim-cmd hostsvc/disable_ssh``, TrueNAS'
``midclt call ssh.update '{"enable": false}'``, menu tools told ``ssh off`` or ``SSH disable``.  On a machine
reached over ssh the next connection fails.  Switching it on and ssh the client stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_CLIENTS = frozenset({"ssh", "scp", "sftp", "mosh", "autossh", "sshpass", "ssh-copy-id", "ssh-keygen", "ssh-add",
                      "ssh-agent", "ssh-keyscan", "rsync", "git", "sshfs"})
_SERVICE = r"(ssh|sshd|openssh|dropbear|remote_?login)"
_FUSED = lazy(rf"(^|[/._-])(disable|stop|off)[_-]?{_SERVICE}\b|\b{_SERVICE}[_-]?(disable|off)\b", re.IGNORECASE)
_KEYED = lazy(rf"{_SERVICE}\S*?[\"']?(enabled?|enable_?\w*|start|active|service)[\"']?\s*[=:]\s*[\"']?"
              r"(0|false|no|off|disabled?)\b", re.IGNORECASE)
_OFF_WORDS = frozenset({"off", "disable", "disabled", "stop", "no", "false"})
_SERVICE_WORD = lazy(rf"^(\S*=)?{_SERVICE}([.:]\w+)?$", re.IGNORECASE)
_ENABLE_OFF = lazy(r"[\"']?enabled?[\"']?\s*[=:]\s*[\"']?(0|false|no|off)\b", re.IGNORECASE)


@triggered_by(("ssh", "dropbear", "remotelogin"), otherwise=False)
def may_switch_off(c: Ctx) -> bool:
    """Cheap: the service's name on a line whose program is not an ssh client."""
    return ("ssh" in c.lowered or "dropbear" in c.lowered or "remotelogin" in c.lowered) and \
        c.prog.lower() not in _CLIENTS


def rule_remote_login_off(c: Ctx) -> Optional[tuple]:
    texts = [t.lower() for t in c.texts]
    said = ""
    for k, t in enumerate(texts):
        if t == "do_ssh" and k + 1 < len(texts) and texts[k + 1] == "1":  # raspi-config: 1 is off
            said = "do_ssh 1"
        elif _FUSED.search(t) or _KEYED.search(t):
            said = c.texts[k]
        elif _SERVICE_WORD.match(t) and k + 1 < len(texts) and (texts[k + 1] in _OFF_WORDS or
                                                                 _ENABLE_OFF.search(texts[k + 1])):
            said = f"{c.texts[k]} {c.texts[k + 1]}"
        if said:
            return MEDIUM, f"{c.prog} switches the remote login service off ({said}): ssh connections stop ({c.text})"
    return None
