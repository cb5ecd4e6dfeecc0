"""What a Windows path is worth losing, in the same classes as POSIX paths (``rules.common``).

``C:\\`` is the root, ``C:\\Windows`` and ``C:\\Program Files`` the system, ``%USERPROFILE%`` and
``$env:USERPROFILE`` home, ``C:\\Users\\NAME`` another user's home, ``%TEMP%`` temp,
``\\\\.\\PhysicalDrive0`` a disk.  Commands from PowerShell and cmd reach the same judges.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace

from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_ENV = lazy(r"%(\w+)%|\$env:(\w+)|\$\{env:(\w+)\}", re.IGNORECASE)
_HOME_NAMES = {"userprofile", "home", "homepath"}
_TEMP_NAMES = {"temp", "tmp"}
_SYSTEM_NAMES = {"windir", "systemroot", "programfiles", "programfiles(x86)", "programdata", "systemdrive",
                 "commonprogramfiles"}
_PS_PROFILE_FILE = lazy(r"(?i)/documents/(windows)?powershell/[\w.]*profile\.ps1$")
_APPDATA_NAMES = {"appdata", "localappdata"}
_SYSTEM_TOP = {"windows", "program files", "program files (x86)", "programdata", "boot", "efi", "recovery",
               "system volume information", "$recycle.bin"}
# What Windows and programs make again: a Temp folder or a cache below AppData (`npm-cache`, `pip\\Cache`,
# `INetCache`, a browser's `Cache`), and Windows' own Temp and update downloads (SoftwareDistribution).
_MADE_AGAIN = lazy(r"^(temp|tmp|caches?|[\w.-]*[ _-]?cache|inetcache|crashdumps)$")
_WINDOWS_MADE_AGAIN = {"temp", "softwaredistribution"}  # (Prefetch is a record: records_erased)
_CRITICAL = lazy(r"^windows/system32/(config/(sam|system|security|software)|drivers/etc/hosts|"
                 r"(ntoskrnl|winload|hal)\.\w+)$|^bootmgr$|^boot/bcd$")


# Disks and volumes opened raw: `\\.\PhysicalDrive1`, `\\.\E:`, `\\.\Harddisk1Partition2`, `\\?\Volume{…}`,
# `\\?\GLOBALROOT\Device\Harddisk1\Partition0` (any slash, any case).
_RAW_DEVICE = lazy(r"^(\\\\|//)[.?](\\|/)(physicaldrive\d+|[a-z]:$|[a-z]:(\\|/)?$|harddisk\d+partition\d+|"
                   r"harddiskvolume\d+|cdrom\d+|tape\d+|volume\{[\w-]+\}(\\|/)?$|"
                   r"globalroot(\\|/)device(\\|/)(harddisk\d+|harddiskvolume\d+|cdrom\d+))", re.IGNORECASE)


_DRIVE = re.compile(r"^[A-Za-z]:($|[\\/])")  # asked of every path a command names


def looks_windows(path: str) -> bool:
    return bool(_DRIVE.match(path) or "\\" in path or _ENV.search(path)
                or path.lower().startswith(("\\\\.\\", "//./")))


def classify_windows(path: str) -> str:
    """The class of a Windows path (see ``rules.common.classify`` for the names)."""
    if _RAW_DEVICE.match(path):
        return "device"
    p = path.replace("\\", "/")
    if _PS_PROFILE_FILE.search(p):  # a user's PowerShell profile: a start-up file (rules.common.RC_DOT)
        return "dot-rc"
    env = _ENV.match(p)
    if env:
        name = (env.group(1) or env.group(2) or env.group(3) or "").lower()
        rest = p[env.end():].strip("/")
        if ".." in rest.split("/"):
            return "var"  # outside the variable's directory: at its worst, anything
        if name in _HOME_NAMES:
            return "home" if rest in ("", "*", "*.*") else ("dot" if rest.startswith(".") else "user")
        if name in _TEMP_NAMES:
            return "temp"
        if name in _APPDATA_NAMES:
            return "dot-critical" if rest in ("", "*", "*.*") else "temp" if _made_again(rest.lower().split("/")) \
                else "dot"
        if name in ("windir", "systemroot") and rest.lower().split("/")[0] in _WINDOWS_MADE_AGAIN:
            return "temp"  # `%windir%\Temp\*`, `$env:SystemRoot\SoftwareDistribution\Download`
        if name in _SYSTEM_NAMES:
            return "system-top" if rest in ("", "*", "*.*") else "system"
        return "var" if not rest else "other"
    drive = re.match(r"^([A-Za-z]):/?(.*)$", p)
    if not drive:
        rest = p.strip("/")
        return "all" if rest in ("*", "*.*", ".", "") else "project"
    rest = re.sub(r"/+", "/", drive.group(2)).strip("/")
    low = rest.lower()
    if low in ("", "*", "*.*"):
        return "root"
    parts = low.split("/")
    if parts[0] == "users":
        if len(parts) == 1 or parts[1:] in (["*"], ["*.*"]):
            return "home"
        me = os.environ.get("USERNAME", os.environ.get("USER", "")).lower()
        if len(parts) == 2 or parts[2:] in (["*"], ["*.*"]):
            return "home" if parts[1] == me else "userhome"
        if parts[2] == "appdata":
            return "dot-critical" if len(parts) == 3 else "temp" if _made_again(parts[3:]) else "dot"
        return "user"
    if _CRITICAL.match(low):
        return "critical"
    if parts[0] == "windows" and len(parts) > 1 and parts[1] in _WINDOWS_MADE_AGAIN:
        return "temp"  # `C:\Windows\Temp\*`, `C:\Windows\SoftwareDistribution` (Windows Update's own fix)
    if parts[0] in _SYSTEM_TOP:
        return "system-top" if len(parts) == 1 or parts[1:] in (["*"], ["*.*"]) or \
            parts[:2] == ["windows", "system32"] and len(parts) == 2 else "system"
    if parts[0] in ("temp", "tmp"):
        return "temp"
    return "other"


def _made_again(below: list) -> bool:
    """A folder below AppData that its program makes again: a Temp folder or a cache, at any depth."""
    return any(_MADE_AGAIN.match(part) for part in below if part not in ("*", "*.*"))


def env_at_worst(text: str) -> str:
    """``$env:USERPROFILE\\x`` -> ``%USERPROFILE%\\x`` (classified above); other variables -> empty."""
    return re.sub(r"\$\{?env:(\w+)\}?", lambda m: f"%{m.group(1)}%", text, flags=re.IGNORECASE)


# A word typed as a Windows path whose backslashes a POSIX reading ate: `\\fs01\share\x.reg`, `C:\Users`.
_TYPED_PATH = lazy(r"^(\\\\[\w.$-]+\\|[A-Za-z]:\\|%\w+%\\|\$env:\w+\\|\.\.?\\)")


def typed_words(words: list) -> "list | None":
    """The words with each Windows path as typed (backslashes kept, quotes removed), or None when no path
    lost its backslashes: ``sdelete64 -s C:\\Users`` reads ``C:Users`` the POSIX way."""
    if not any("\\" in w.raw for w in words[1:]):
        return None
    out, changed = [words[0]], False
    for w in words[1:]:
        raw = w.raw
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
            raw = raw[1:-1]
        if raw != w.text and "\\" in raw and _TYPED_PATH.match(raw) and not w.subs:
            out.append(replace(w, text=raw))
            changed = True
        else:
            out.append(w)
    return out if changed else None


_WINDOWS_START = lazy(r"^([A-Za-z]:|\\\\|%\w+%|\$env:\w+|\.\.?)\\")


def typed_text(w: Word) -> str:
    """One word as typed, quotes removed, backslashes kept (``\\\\fs01\\share\\x.reg``, ``C:\\Users``)."""
    raw = w.raw
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    return raw if "\\" in raw else w.text


def typed_texts(words: list) -> list:
    """Each word as typed, quotes removed, backslashes kept; a Windows path that ends in a backslash took the
    next word with it under the POSIX reading (``C:\\ -Force`` is one word there) and is split again."""
    out: list = []
    for w in words:
        raw = typed_text(w)
        while "\\ " in raw and _WINDOWS_START.match(raw):
            head, _, raw = raw.partition("\\ ")
            out.append(head + "\\")
        out.append(raw)
    return out
