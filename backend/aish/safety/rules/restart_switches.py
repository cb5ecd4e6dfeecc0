"""Effect: a command told to restart the machine when it is done, by a switch of its own.

``Rename-Computer -NewName WS-NEW -Restart``, ``Add-Computer -DomainName corp.local -Restart``,
``Install-WindowsFeature Hyper-V -Restart``, ``Uninstall-WindowsFeature … -Restart``, ``Get-WindowsUpdate -Install
-AcceptAll -AutoReboot``, ``msiexec /i x.msi /qn /forcerestart``, ``wusa x.msu /quiet /forcerestart``, ``pnputil
/add-driver x.inf /install /reboot``: whatever else they do, every session on the machine ends, without
asking.  Medium, as ``Restart-Computer`` is.  ``-NoRestart``, ``/norestart``, ``/promptrestart``,
``-Restart:$false`` and ``Restart-*`` cmdlets' own names (judged by their rules) stay out.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_SWITCHES = frozenset({"-restart", "-autoreboot", "-forcereboot", "-reboot", "-restartifneeded", "/forcerestart",
                       "/reboot", "-forcerestart", "/forcereboot"})
_OFF = (":$false", ":false", ":0", "=disable", "=disabled", "=false", "=0", "=no", "=$false")


@triggered_by(("restart", "reboot"), otherwise=False)
def may_restart(c: Ctx) -> bool:
    """The cheap test: a word naming a restart or a reboot among the arguments."""
    return "restart" in c.lowered or "reboot" in c.lowered


def rule_restart_switch(c: Ctx) -> Optional[tuple]:
    if c.prog.lower().startswith(("restart-", "get-help", "help")):
        return None
    for t in c.texts:
        head = t.lower()
        if head.endswith(_OFF):
            continue
        if re.split(r"[:=]", head, maxsplit=1)[0] in _SWITCHES:  # `-reboot:$true`, `-reboot=enable`
            return MEDIUM, f"{c.prog} {t} restarts the machine when it is done: every session ends ({c.text})"
    return None
