"""Effect: a ``Dismount-``/``Disconnect-`` cmdlet of any module that takes a shared store or link away from
everyone using it, not the caller's own connection.

PowerShell's verbs say what a cmdlet does whatever its module; what is detached is in the noun:
``Dismount-MailboxDatabase`` (every mailbox in it goes dark), ``Dismount-SPContentDatabase`` (every site in
it), ``Dismount-AppxVolume``, ``Disconnect-IscsiTarget`` and ``Disconnect-VirtualDisk`` (the volumes on them
vanish from the host), ``Disconnect-VMNetworkAdapter`` (the VM drops off the network), ``Disconnect-RDUser`` and
``Disconnect-NfsSession`` (someone else's session is cut).  The caller's own connections (``Disconnect-AzAccount``,
``Disconnect-MgGraph``, ``Disconnect-ExchangeOnline``, ``Disconnect-PSSession``, ``Disconnect-VIServer``), an
image the caller mounted (``Dismount-DiskImage``, ``Dismount-VHD``; ``Dismount-WindowsImage -Discard`` is read
elsewhere) and ``-WhatIf`` stay quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by

# What others use: stores, volumes, disks, targets, adapters, other users' sessions.
_SHARED = lazy(r"(database|store|volume|virtualdisk|target|lun|adapter|san|nfssession|rduser|user|share|"
               r"storagepool|content\w*)$")
_OWN = lazy(r"(account|graph|online|service|server|pssession|wsman|azuread|ippssession|teams|image|vhd|psdrive)$")


@triggered_by(("dismo", "disco"), otherwise=False)
def may_detach(c: Ctx) -> bool:
    """Cheap: the name starts with one of the two verbs."""
    return c.prog[:5].lower() in ("dismo", "disco") and "-" in c.prog


def rule_detached(c: Ctx) -> Optional[tuple]:
    verb, _, noun = c.prog.lower().partition("-")
    if verb not in ("dismount", "disconnect") or not noun or _OWN.search(noun) or not _SHARED.search(noun):
        return None
    if "-whatif" in c.lowered:
        return None
    return MEDIUM, f"{c.prog}: the {noun} is taken away from everyone using it ({c.text})"
