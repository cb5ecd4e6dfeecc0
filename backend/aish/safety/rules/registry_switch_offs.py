"""Effect: a Windows protection switched off by a registry value, whatever the value is called.

Windows keeps its protections' switches in the registry, and the value names say which way they go: a
``Disable…``/``No…`` value set to 1, an ``Enable…``/``…Enabled`` value or one named for the protection
(``RunAsPPL``) set to 0, a service's or an event-log session's
``Start`` set to "disabled" (4, or 0 under ``Autologger``).  Written with ``reg add`` or PowerShell's
``Set-ItemProperty``/``New-ItemProperty`` under a key or a value whose words name a protection (antivirus,
SmartScreen, the firewall, the event logs and audit, script logging, AMSI, code integrity and Device Guard, LSA
protection, System Restore and recovery, tamper protection, updates, BitLocker), the machine is left without it:
malware runs unseen, logs stop, restore points vanish.  Only the direction that switches the protection off is
flagged (``DisableAntiSpyware /d 0`` turns it back on), and only under a protection's words (a theme's or a
shell's settings stay quiet).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import MEDIUM, Ctx

# Words of a key or a value that name a protection (a key path's parts are joined by `\`, `/` or spaces).
_PROTECTION = lazy(r"defender|anti[-_ ]?(virus|spyware|malware)|realtime|behaviou?r[-_ ]?monitor|ioav|spynet|"
                   r"smartscreen|firewall|eventlog|winevt|autologger|\baudit|logging|transcription|scriptblock|"
                   r"cmdline|commandline|amsi|deviceguard|codeintegrity|hypervisorenforced|credentialguard|"
                   r"\\lsa\b|runasppl|systemrestore|restorepoint|\brecovery|\bvss\b|volsnap|\blua\b|enablelua|"
                   r"consentprompt|tamper|exploit[-_ ]?guard|exploitprotection|attacksurface|controlledfolder|"
                   r"networkprotection|windowsupdate|wuauserv|autoupdate|bitlocker|\\fve\b|secureboot|sysmon|"
                   r"securityhealth|wscsvc|mpssvc|windefend|wdboot|wdfilter|wdnis|\bsense\b|securitycenter",
                   re.IGNORECASE)
_DISABLE = lazy(r"^disable", re.IGNORECASE)
_ENABLE = lazy(r"^enable|enabled?$|_enabled?$", re.IGNORECASE)
_ENABLE_INSIDE = lazy(r"[a-z]Enable[A-Z]")  # `MpEnablePus`: the switch in the middle of a product's prefix
_NO = lazy(r"^No(?=[A-Z])")  # `NoAutoUpdate`: set, the feature is off
_WRITERS = frozenset({"reg", "reg.exe", "set-itemproperty", "new-itemproperty", "sp"})


def _valued(c: Ctx, names: tuple) -> Optional[str]:
    """The word after the first of ``names`` (any case), as typed, quotes dropped."""
    args = c.args
    for k, w in enumerate(args[:-1]):
        if w.text.lower() in names:
            return args[k + 1].raw.strip("'\"")
    return None


def _number(data: Optional[str]) -> Optional[int]:
    if data is None:
        return None
    data = data.strip().lower()
    try:
        return int(data, 16) if data.startswith("0x") else int(data)
    except ValueError:
        return None


def _off(name: str, data: int, line: str) -> bool:
    """The value ``name`` set to ``data`` switches its feature off."""
    if _DISABLE.search(name) or _NO.search(name):
        return data != 0
    if _ENABLE.search(name) or _ENABLE_INSIDE.search(name):
        return data == 0
    if name.lower() == "start":  # a service's start type, or an event-log session's switch
        return data == 4 or data == 0 and "autologger" in line
    return data == 0 and bool(_PROTECTION.search(name))  # `RunAsPPL`, `TamperProtection` set to 0


def rule_protection_switched_off(c: Ctx) -> Optional[tuple]:
    """``reg add "HKLM\\…\\SystemRestore" /v DisableSR /d 1 /f``,
    ``New-ItemProperty HKLM:\\…\\Autologger\\EventLog-System -Name Start -Value 0``,
    ``Set-ItemProperty … -Name EnableScriptBlockLogging -Value 0``."""
    prog = c.prog.lower()
    if prog in ("reg", "reg.exe"):
        if not c.texts or c.texts[0].lower() != "add":
            return None
        name, data = _valued(c, ("/v",)), _valued(c, ("/d",))
    else:
        name, data = _valued(c, ("-name", "-n")), _valued(c, ("-value", "-v"))
    number = _number(data)
    if not name or number is None:
        return None
    line = " ".join(w.raw for w in c.args).lower()
    if not _off(name, number, line) or not _PROTECTION.search(line):
        return None
    return MEDIUM, f"switches a Windows protection off in the registry ({name} = {data}) ({c.text})"


RULES: dict = {p: [rule_protection_switched_off] for p in _WRITERS}
