"""Effect: what a WMI or CIM method does to the object a query found, for any class.

WMI classes carry their destructive acts as methods, called in four spellings that all name the method:
``(Get-WmiObject Win32_Product -Filter "Name='X'").Uninstall()``, ``gwmi Win32_ShadowCopy | % { $_.Delete() }``,
``Get-CimInstance Win32_Volume | Invoke-CimMethod -MethodName Format``, ``Invoke-WmiMethod -Path
"Win32_Service.Name='WinDefend'" -Name StopService`` and wmic's ``… call uninstall``.  The method says what
happens: ``Delete`` (a shadow copy, a user profile, a share: gone), ``Format`` and ``Dismount`` of a volume,
``Uninstall`` of a product, ``Terminate`` of a process, ``StopService``, ``ChangeStartMode``
to disabled.  ``Win32_Process``' ``Create("…")`` runs the command it is given, judged as that command.

Read on the whole line, as a POSIX shell splits PowerShell's parentheses apart; only lines that name WMI or
CIM are read.  Methods that read (``GetOwner``, ``GetSecurityDescriptor``) and ``Create`` of a quiet command
stay quiet.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from aish.safety.rules.common import HIGH, MEDIUM
from aish.safety.lazy_regex import lazy

_VERBS = ("delete", "format", "dismount", "uninstall", "terminate", "stopservice", "changestartmode", "setpowerstate",
          "reset", ".create(")
# The method named: `.Method(`, `-MethodName Method`, `-Name Method` (Invoke-WmiMethod), wmic's `call method`.
_METHOD = lazy(r"(?:\.|-methodname\s+|\binvoke-wmimethod\b[^|;]*?-name\s+|\biwmi\b[^|;]*?-name\s+|\bcall\s+)"
               r"['\"]?(delete|format|dismount|uninstall|terminate|stopservice|changestartmode|"
               r"setpowerstate|reset)\b(\s*\(\s*['\"]?(\w*))?", re.IGNORECASE)
_LOSES_DATA = lazy(r"win32_(shadowcopy|userprofile|volume|logicaldisk|share|directory|datafile|"
                   r"useraccount|group)|msft_(disk|partition|volume)", re.IGNORECASE)
_CREATE = lazy(r"win32_process\b.*?\.create\(\s*(['\"])(.+?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_WHAT = {"delete": "deletes", "format": "formats", "dismount": "dismounts", "uninstall": "uninstalls",
         "terminate": "ends", "stopservice": "stops", "changestartmode": "disables", "setpowerstate": "powers off",
         "reset": "resets"}


def line_wmi_method(text: str, recurse: Callable[[str], Optional[tuple]]) -> Optional[tuple]:
    """A WMI or CIM method that deletes, formats, uninstalls, ends or stops what the query found."""
    lowered = text.lower()
    if "wmi" not in lowered and "cim" not in lowered and "win32_" not in lowered or \
            not any(v in lowered for v in _VERBS):
        return None
    shown = " ".join(text.split()[:8])
    best: Optional[tuple] = None
    created = _CREATE.search(text)
    if created:
        found = recurse(created.group(2))
        if found is not None and found[0] >= MEDIUM:
            best = found[0], f"{found[1]}, started through WMI's Win32_Process.Create"
    for m in _METHOD.finditer(text):
        method = m.group(1).lower()
        if method == "changestartmode" and (m.group(3) or "").lower() != "disabled" and \
                (m.group(3) or "disabled" not in lowered):
            continue  # `.ChangeStartMode("Automatic")`: nothing switched off
        level = HIGH if method in ("format",) or method == "delete" and _LOSES_DATA.search(text) else MEDIUM
        if best is None or level > best[0]:
            best = level, f"a WMI method {_WHAT[method]} what the query found ({shown})"
    return best
