"""Effect: a registry value that makes Windows run another program at logon, at boot or in place of one.

Written by any registry writer and in any key spelling (``reg add "HKLM\\\\…"``, ``reg add
"HKEY_LOCAL_MACHINE\\\\…"``, ``Set-ItemProperty HKLM:\\\\…``,
``New-ItemProperty -Path Registry::HKEY_LOCAL_MACHINE\\\\…``):

- ``Winlogon`` ``Shell``, ``Userinit``, ``Taskman``: what starts instead of the desktop at every logon (the
  defaults ``explorer.exe`` and ``…\\\\userinit.exe,`` stay quiet);
- ``AppInit_DLLs`` under ``Windows NT\\\\CurrentVersion\\\\Windows``: a library loaded into every program;
- ``BootExecute`` under ``Session Manager``: a program run before Windows starts (``autocheck autochk *`` is
  the default);
- ``Notification Packages``, ``Authentication Packages``, ``Security Packages`` under ``Lsa``: a library
  that sees every password set or every logon;
- ``SilentProcessExit`` ``MonitorProcess``, its ``ReportingMode`` with the launching bit, and an Image File Execution
  Options ``GlobalFlag`` with ``FLG_MONITOR_SILENT_PROCESS_EXIT`` (512): a program run whenever another exits.

Medium: nothing is lost yet, but every logon or boot runs what the value names.  Reads stay quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import MEDIUM, Ctx
from aish.safety.winpaths import typed_text
from aish.safety.lazy_regex import lazy

_POINTS = (
    (re.compile(r"\\winlogon\\?$"), {"shell", "userinit", "taskman"},
     "what starts at every logon instead of the desktop"),
    (re.compile(r"windows nt\\currentversion\\windows\\?$"), {"appinit_dlls"}, "a library loaded into every program"),
    (re.compile(r"\\session manager\\?$"), {"bootexecute"}, "a program run before Windows starts"),
    (re.compile(r"\\control\\lsa\\?$"), {"notification packages", "authentication packages", "security packages"},
     "a library that sees every password or logon"),
    (re.compile(r"\\silentprocessexit\\[^\\]+\\?$"), {"monitorprocess", "reportingmode"},
     "a program run whenever another exits"),
    (re.compile(r"\\image file execution options\\[^\\]+\\?$"), {"globalflag"},
     "SilentProcessExit's monitor started whenever this program exits"),
)
# Values that are launch points only with a bit set: GlobalFlag's FLG_MONITOR_SILENT_PROCESS_EXIT, ReportingMode's
# LAUNCH_MONITORPROCESS (other GlobalFlag bits are debugging aids; 0 switches the monitor off).
_BITS = {"globalflag": 0x200, "reportingmode": 0x1}
_DEFAULTS = lazy(r"^(explorer(\.exe)?|c:\\windows\\system32\\userinit\.exe,?|userinit(\.exe)?,?|"
                 r"autocheck autochk \*|)$")
_WRITERS = frozenset({"reg", "set-itemproperty", "sp", "new-itemproperty"})


def _key_name_value(c: Ctx) -> tuple:
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    prog = c.prog.lower().removesuffix(".exe")

    def after(*names: str) -> str:
        return next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t in names), "")

    if prog == "reg":
        if lowered[:1] != ["add"] or len(typed) < 2:
            return "", "", ""
        return typed[1], after("/v"), after("/d")
    bare = [t for k, t in enumerate(typed) if not t.startswith("-") and (k == 0 or not lowered[k - 1].startswith("-"))]
    key = after("-path", "-literalpath") or (bare[0] if bare else "")
    name = after("-name") or (bare[1] if len(bare) > 1 else "")
    value = after("-value") or (bare[2] if len(bare) > 2 else "")
    return key, name, value


def _bit_set(name: str, value: str) -> bool:
    """True unless ``name`` is a value of flags whose launching bit ``value`` leaves clear."""
    bit = _BITS.get(name)
    if bit is None:
        return True
    try:
        return bool(int(value.strip().strip("'\""), 0) & bit)
    except ValueError:
        return False


def rule_launch_point(c: Ctx) -> Optional[tuple]:
    """A launch point's value written (see the module's doc)."""
    if c.prog.lower().removesuffix(".exe") not in _WRITERS:
        return None
    key, name, value = _key_name_value(c)
    key = re.sub(r"^(registry::|microsoft\.powershell\.core\\registry::)", "", key.lower()).rstrip("\\")
    for where, names, what in _POINTS:
        if name.lower() in names and where.search(key) and not _DEFAULTS.match(value.lower().strip()) and \
                _bit_set(name.lower(), value):
            return MEDIUM, f"sets {name} to {value or 'a value'}: {what} ({c.text})"
    return None


RULES: dict = {p: [rule_launch_point] for p in ("reg", "reg.exe", "set-itemproperty", "sp", "new-itemproperty")}
