"""Effect: a program or script put in a Windows Startup folder, where it runs at every logon.

Everything in ``…\\Start Menu\\Programs\\Startup`` (``shell:startup``; ``ProgramData``'s ``StartUp`` for every user)
runs when its user logs on.  Installers put shortcuts there (``.lnk``); what no setup puts there by hand is the
program itself (``.exe``, ``.bat``, ``.cmd``, ``.vbs``, ``.js``, ``.ps1``, ``.hta``, ``.scr``…), copied, moved or
downloaded into it by any copier (``copy``, ``xcopy``, ``robocopy``, ``cp``, ``mv``, ``Copy-Item``, ``Move-Item``)
or fetcher (``Invoke-WebRequest -OutFile``, ``curl -o``, ``certutil -urlcache -f``, ``bitsadmin /transfer``).
Office's own start-up folders (``Word\\STARTUP``, ``Excel\\XLSTART``, ``AddIns``) load templates and add-ins
(``.dotm``, ``.xlam``, ``.xll``, ``.wll``) at every start of the program, alike.
A script written there (``echo … > "…\\Startup\\x.bat"``, ``Set-Content -Path …\\Startup\\u.vbs``) alike.
Medium; high when it is fetched from an address (a download run at every logon).  A program the logon screen
starts for anyone (``sethc.exe``, ``utilman.exe``, ``osk.exe``, ``magnify.exe``, ``narrator.exe``…) replaced by any
copier or link is high: a SYSTEM program at the logon screen, with no password.  Shortcuts, listings and reads
of the folder stay quiet.
"""
from __future__ import annotations

from typing import Any, Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, fragment

_STARTUP = lazy(r"(?i)(start menu[\\/]programs[\\/]startup|shell:(common )?startup|"
               r"microsoft[\\/](word[\\/]startup|excel[\\/]xlstart|addins))([\\/]|['\"]?$)")
_RUNNABLE = lazy(r"(?i)\.(exe|bat|cmd|com|pif|scr|vbs|vbe|js|jse|wsf|wsh|ps1|hta|msi|cpl|jar|dotm|xlam|xll|wll|"
                 r"ppam)['\"]?$")
_ADDRESS = lazy(r"(?i)^['\"]?(https?|ftp)://")
_COPIERS = frozenset({"copy", "xcopy", "robocopy", "move", "cp", "mv", "copy-item", "cpi", "move-item", "mi",
                      "install", "mklink", "ren", "rename", "rename-item"})
_WRITERS = frozenset({"set-content", "add-content", "out-file"})
_FETCHERS = frozenset({"invoke-webrequest", "iwr", "curl", "wget", "certutil", "bitsadmin", "start-bitstransfer",
                       "invoke-restmethod", "irm"})


# The programs the logon screen starts for anyone (sticky keys, the ease-of-access menu, the on-screen keyboard…).
_LOGON_SCREEN = lazy(r"(?i)(^|[\\/])(sethc|utilman|osk|magnify|narrator|displayswitch|atbroker)\.exe['\"]?$")


def _logon_screen_program(c: Ctx) -> Optional[tuple]:
    """``copy cmd.exe C:\\Windows\\System32\\sethc.exe``: a program the logon screen starts replaced, by any copier
    or link (``mklink``): anyone at the logon screen gets it, as SYSTEM, with no password."""
    raws = [w.raw.strip("'\"") for w in c.args if not w.raw.startswith(("-", "/"))]
    if len(raws) < 2 or not _LOGON_SCREEN.search(raws[-1 if c.prog.lower() != "mklink" else 0]):
        return None
    target = raws[-1 if c.prog.lower() != "mklink" else 0]
    return HIGH, f"replaces {target}, which the logon screen starts for anyone: a SYSTEM program there with no " \
                 f"password ({c.text})"


def script_written(path: str, seg: Any) -> Optional[tuple]:
    """A script written by any writer (``echo … > "…\\Startup\\x.bat"``: ``meaning`` asks for every file written)."""
    if "tartup" not in path and "TARTUP" not in path or not _STARTUP.search(path) or not _RUNNABLE.search(path):
        return None
    return MEDIUM, f"writes {path.replace(chr(92), '/').rsplit('/', 1)[-1]} in a start-up folder: it runs at every " \
                   f"logon ({fragment([w.raw for w in seg.words])})"


def rule_startup_folder(c: Ctx) -> Optional[tuple]:
    """A runnable file put in a Startup folder (see the module's doc)."""
    if ".exe" in c.lowered and ("sethc" in c.lowered or "utilman" in c.lowered or "osk." in c.lowered or
                                "magnify" in c.lowered or "narrator" in c.lowered or "displayswitch" in c.lowered or
                                "atbroker" in c.lowered):
        return _logon_screen_program(c)
    if "start" not in c.lowered and "addins" not in c.lowered:
        return None  # one look at the line: most copies never name it (Startup, XLSTART, AddIns)
    raws = [w.raw for w in c.args]
    into = [k for k, r in enumerate(raws) if _STARTUP.search(r)]
    if not into:
        return None
    prog = c.prog.lower().rsplit("\\", 1)[-1].removesuffix(".exe")
    named = [r for r in raws if not r.startswith(("-", "/")) or _STARTUP.search(r)]
    runnable = next((r for r in named if _RUNNABLE.search(r)), "")
    if not runnable:
        return None  # a shortcut, a folder listed
    office = next((m.group(3) for m in (_STARTUP.search(raws[k]) for k in into) if m and m.group(3)), "")
    when = f"Office loads it at every start of {office.split(chr(92))[0].split('/')[0]}" if office else \
        "it runs at every logon"
    if prog in _FETCHERS and any(_ADDRESS.match(r) for r in raws):
        return HIGH, f"downloads {runnable.strip(chr(34))} into a start-up folder: {when} ({c.text})"
    if (prog in _COPIERS or prog in ("set-content", "add-content", "out-file")) and any(k > 0 for k in into):
        return MEDIUM, f"puts {runnable.strip(chr(34))} in a start-up folder: {when} ({c.text})"
    return None


# (`xcopy.exe`: table.py adds xcopy's)
RULES: dict = {_p: [rule_startup_folder] for _p in _COPIERS | _FETCHERS | _WRITERS}
