"""Effect: a cmdlet no rule names that pauses what serves others, or stops it on several machines at once.

PowerShell's verbs say what a cmdlet of any module does to its noun: ``Suspend-<Noun>`` pauses it where it
runs (``Suspend-ClusterResource``, ``Suspend-VM``, ``Suspend-MailboxDatabaseCopy``, ``Suspend-Queue``); ``Stop-`` or
``Suspend-`` given several machines or instances (``Stop-DbaService -ComputerName sql01,sql02``) stops the
service on each of them; a ``Stop-`` of a cmdlet no rule names whose noun is something that serves others (a
site, web app, app pool, cluster, container group, instance, gateway: ``Stop-WebSite``, ``Stop-WebAppPool``,
``Stop-AzWebApp``, ``Stop-AzAksCluster``, ``Stop-AzContainerGroup``) stops it for everyone it serves.  The shell's
own jobs, print jobs, one named machine's stop (judged elsewhere), and
``Resume-``/``Start-`` stay quiet, and so does ``Suspend-ClusterNode`` (its roles move to the other nodes).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import LazyRegex
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

_SUSPEND = LazyRegex(r"^suspend-(cluster\w*|vm\w*|mailbox\w*|queue|\w*replication\w*|\w*service\w*|\w*server\w*|"
                     r"\w*node\w*|\w*database\w*|\w*instance\w*|\w*sync\w*|\w*pool\w*|\w*site\w*|\w*host\w*)$")
# Nouns that serve others, read at the noun's end (`AzWebApp`, `WebAppPool`, `AzAksCluster`); services and
# processes have rules of their own, traces and sessions are the caller's.
_SERVED = LazyRegex(r"^stop-\w*(site|webapp|apppool|pool|cluster|containergroup|instance|gateway|farm|server|"
                    r"functionapp|springcloud|cache|firewall|vmss|scaleset|database)$")
_STOPS = LazyRegex(r"^(stop|suspend)-\w+$")
_MACHINES = frozenset({"-computername", "-sqlinstance", "-server", "-cn", "-vmname", "-name", "-nodename",
                       "-instance", "-clustername"})


@triggered_by(("suspe", "stop-"), otherwise=False)
def may_suspend(c: Ctx) -> bool:
    """Cheap: a Stop- or Suspend- cmdlet's name (its first letters)."""
    return c.prog[:5].lower() in ("suspe", "stop-")


def rule_suspended(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower()
    if _SUSPEND.match(name) and name != "suspend-clusternode":  # a node paused or drained: its roles move on
        return MEDIUM, f"{c.prog} pauses what it names: what it serves stops until it is resumed ({c.text})"
    if not _STOPS.match(name):
        return None
    if _SERVED.match(name) and "-whatif" not in c.lowered:
        return MEDIUM, f"{c.prog} stops what it names for everyone it serves ({c.text})"
    texts = c.texts
    for k, t in enumerate(texts[:-1]):
        if t.lower() in _MACHINES and "," in texts[k + 1].strip(",") and not texts[k + 1].startswith("-"):
            return MEDIUM, f"{c.prog} on {texts[k + 1]}: it stops on every one of them ({c.text})"
    return None
