"""Effect: a firmware (BIOS/UEFI) setting changed, by any vendor's tool for them.

A firmware setting decides how the machine boots and what it offers: virtualisation, secure boot, logical
cores, the boot order, the TPM.  Changed on a running server it takes effect at the next boot, where the
hypervisor no longer starts, the disk's encryption no longer unlocks or the system no longer boots.  Each
vendor's tool says it its own way (``racadm set BIOS.…``, ``ilorest set … --selector=Bios.``, HP's
``Set-HPBIOSSettingValue`` and ``BiosConfigUtility /set:``, Lenovo's ``SetBiosSetting``, Supermicro's ``sum -c
ChangeBiosCfg``, Redfish's ``setBios``); what they share is a setter and the word BIOS in the program's
name, its subcommand or the setting's key.

Reading the settings (``get``, ``GetCurrentBiosCfg``, ``getBios``, ``Get-…``, ``dmidecode -t bios``) stays
quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.lazy_regex import lazy

_SETTER = lazy(r"^/?-{0,2}(set|change|update|write|apply|load|restore)(bios\w*|$|[:=].*)", re.IGNORECASE)
_READ = lazy(r"^/?-{0,2}(get|show|list|print|read|dump|export|query|diff)", re.IGNORECASE)


@triggered_by("bios", otherwise=False)
def may_set_bios(c: Ctx) -> bool:
    return "bios" in c.prog.lower() or "bios" in c.lowered


def _flat(word: str) -> str:
    return re.sub(r"[-_.]", "", word.strip("'\""))


def rule_bios_setting(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower().rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    texts = c.texts[:32]
    flat = [_flat(t) for t in texts]
    if name.startswith(("get-", "test-")) or any(_READ.match(t) for t in flat):
        return None
    setter = "set" if name.startswith("set-") and "bios" in name else \
        next((t for t in texts if _SETTER.match(_flat(t))), None)
    if setter is None:
        return None
    if "bios" not in name and not any("bios" in t.lower() for t in flat):
        return None
    return MEDIUM, f"{c.prog} {setter} changes a firmware setting: the machine boots differently next time " \
        f"(virtualisation, secure boot, cores, boot order) ({c.text})"
