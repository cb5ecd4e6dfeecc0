"""Effect: a WMI or CIM class that mirrors a cmdlet or ``reg``, called instead of it: judged as the command it mirrors.

Windows keeps a WMI class behind several tools, and any WMI client reaches it without the tool: Defender's
preferences (``MSFT_MpPreference``, what ``Set-MpPreference``/``Add-MpPreference`` call), the firewall's profiles
(``MSFT_NetFirewallProfile``, behind ``Set-NetFirewallProfile``) and the registry itself (``StdRegProv``, what
remote ``reg add`` uses).  A call through ``wmic … call Add ExclusionPath=…``, ``Invoke-CimMethod -ClassName
MSFT_MpPreference -MethodName Add -Arguments @{ExclusionPath=…}``, ``Invoke-WmiMethod``, ``Set-CimInstance
-Property @{Enabled=0}`` or ``StdRegProv``'s ``SetDWORDValue``/``SetStringValue``/``DeleteValue``/``DeleteKey``
is rewritten as the cmdlet or the ``reg`` command it stands for, and that is judged by the rules that know it
(Defender switched off, a Run key pointing at a dropped program, a policy value).  Reads (``Get*Value``,
``Get-CimInstance``) and settings the mirrored command leaves quiet stay quiet.  Read on the whole line (the
arguments sit in PowerShell's ``@{…}``, which a POSIX reading splits); only lines naming one of the classes.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.lazy_regex import lazy

_CLASSES = ("msft_mppreference", "stdregprov", "msft_netfirewallprofile")
_PAIR = lazy(r"\b([A-Za-z]\w*)\s*=\s*(?:@\(\s*)?(?:\[\w+\])?(\"[^\"]*\"|'[^']*'|[^\s;})\"',]+)")
_MP_METHOD = lazy(r"(?:\bcall\s+|-methodname\s+|-name\s+|\.)(add|set|remove)\b", re.IGNORECASE)
_REG_METHOD = lazy(r"\b(set(?:dword|qword|string|expandedstring|multistring)value|deletevalue|deletekey)\b",
                   re.IGNORECASE)
_HIVES = {"2147483650": "HKLM", "2147483649": "HKCU", "2147483651": "HKU", "2147483648": "HKCR",
          "0x80000002": "HKLM", "0x80000001": "HKCU"}
_TYPES = {"setdwordvalue": "REG_DWORD", "setqwordvalue": "REG_QWORD", "setstringvalue": "REG_SZ",
          "setexpandedstringvalue": "REG_EXPAND_SZ", "setmultistringvalue": "REG_MULTI_SZ"}


def _pairs(text: str) -> dict:
    """``Name=Value`` pairs of the call (wmic's arguments, a hashtable's entries), names lowered."""
    return {m.group(1).lower(): (m.group(1), m.group(2).strip("'\"")) for m in _PAIR.finditer(text)}


def _mirrored(text: str, lowered: str) -> list:
    """The commands the line's WMI calls stand for."""
    commands = []
    if "msft_mppreference" in lowered:
        method = _MP_METHOD.search(text[lowered.index("msft_mppreference"):])
        if method:
            verb = method.group(1).capitalize()
            for low, (name, value) in _pairs(text[lowered.index("msft_mppreference") + method.end():]).items():
                if low.startswith(("exclusion", "disable", "enable", "mapsreporting", "submitsamplesconsent",
                                   "puaprotection", "attacksurface")):
                    commands.append(f"{verb}-MpPreference -{name} {value}")
    if "msft_netfirewallprofile" in lowered:
        enabled = _pairs(text).get("enabled")
        if enabled and enabled[1].lower().lstrip("$") in ("0", "false"):
            commands.append("Set-NetFirewallProfile -All -Enabled False")
    if "stdregprov" in lowered:
        method = _REG_METHOD.search(text)
        pairs = _pairs(text)
        hive = _HIVES.get((pairs.get("hdefkey") or ("", ""))[1].lower(), "")
        key = (pairs.get("ssubkeyname") or ("", ""))[1]
        if method and hive and key:
            where = f'"{hive}\\{key}"'
            name = (pairs.get("svaluename") or ("", ""))[1]
            value = (pairs.get("uvalue") or pairs.get("svalue") or ("", ""))[1]
            m = method.group(1).lower()
            if m == "deletekey":
                commands.append(f"reg delete {where} /f")
            elif m == "deletevalue":
                commands.append(f'reg delete {where} /v "{name}" /f')
            else:
                commands.append(f'reg add {where} /v "{name}" /t {_TYPES[m]} /d "{value}" /f')
    return commands


def line_wmi_mirror(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """A mirroring WMI class called: the worst verdict of the commands it stands for."""
    if "_" not in text and "rov" not in text and "ROV" not in text:
        return None  # every class named holds one of these: most lines are not lowered at all
    lowered = text.lower()
    if not any(name in lowered for name in _CLASSES):
        return None
    best: Optional[tuple] = None
    for command in _mirrored(text, lowered)[:8]:
        found = recurse(command)
        if found is not None and (best is None or found[0] > best[0]):
            best = found[0], f"{found[1]}, called through WMI instead"
    return best
