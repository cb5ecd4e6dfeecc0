"""Effect: the times of a record or a system file forged, by any program.

When a file was changed is a record of its own: an investigator sorts ``/etc``, ``/usr/bin`` or ``/var/log`` by
time to find what an intruder touched, and a forged time hides it (a planted binary given ``/bin/ls``'s times, an
edited ``auth.log`` given back its old ones).  WHERE: a record's place (``records_erased.place``: log roots, login
and audit records, event logs, histories) or a system file (``common.classify``: ``/etc``, ``/bin``, ``/usr``,
``/boot``, ``/System``, ``C:\\Windows``).  THAT, for any program:

- a program that sets a file's times given an explicit time or a reference (``touch -t/-d/-r``, ``--date``,
  ``--reference``, BSD's ``-A``, macOS's ``SetFile -d/-m``, ``gtouch``, ``busybox touch``), onto such a file, or
  with such a file as the reference (``touch -r /bin/ls /tmp/x``: the new file looks as old as the system);
- any language's call that sets times, with such a file on the line (``os.utime``, ``File.utime``, perl's
  ``utime``, ``fs.utimesSync``, Go's ``os.Chtimes``, Java's ``setLastModified``, Rust's ``set_file_mtime``,
  PHP's ``touch(F, T)``, Win32's ``SetFileTime``), and PowerShell's and .NET's (``(Get-Item F).LastWriteTime =``,
  ``$_.CreationTime =``, ``[IO.File]::SetLastAccessTime(F, …)``, ``Set-ItemProperty F -Name LastWriteTime``),
  NirCmd's ``setfiletime``, ExifTool's ``-FileModifyDate=``;
- a tool whose name says it (``timestomp``, ``Invoke-TimeStomp``, ``SetMACE``), whatever it is given.

High when the file is a trace of who got in (``records_erased.who_got_in``: ``auth.log``, ``wtmp``, the audit
logs), medium otherwise.  Quiet: ``touch`` with no time (now: ``touch /var/log/app.log`` creates a log), a
project's own files and temporary ones (``touch -r Makefile main.o``, ``touch -t 197001010000 /tmp/x``,
``touch -d @0 build/x`` for reproducible builds), reading times (``stat``, ``Get-Item F | select LastWriteTime``,
``os.path.getmtime``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import HIGH, MEDIUM, Ctx, classify
from aish.safety.rules.records_erased import place, who_got_in
from aish.safety.rules.triggers import triggered_by

_SYSTEM_KINDS = frozenset({"critical", "system", "system-top"})
_TOUCHES = frozenset({"touch", "gtouch", "setfile"})
# touch's options that give a time or a reference (short letters, as bundled: `-acmr`, `-mt`)
_TIME_LETTERS = frozenset("tdrA")
_LONG_TIME = frozenset({"--date", "--reference", "--time-stamp"})
_NOW = frozenset({"now", "today"})
_NAMED = lazy(r"timestomp|^setmace$|^ntimestomp")
# Any language's or shell's call that sets a file's times (not one that reads them).
_SETTER = lazy(r"(?i)\.(?:lastwrite|creation|lastaccess)time(?:utc)?\s*=(?!=)|"
               r"set(?:lastwrite|creation|lastaccess)time(?:utc)?\s*\(|"
               r"-name\s+['\"]?(?:lastwrite|creation|lastaccess)time|"
               r"\b[lf]?utimes?(?:sync)?\s*\(|\butime\s+[-\d$(]|\bchtimes\s*\(|setlastmodified(?:time)?\s*\(|"
               r"set_file_(?:[am]|handle_)?times?\s*\(|\bsetfile(?:folder)?time\b|"
               r"-file(?:modify|create|access|inodechange)date\s*[=<+-]|\btouch\s*\(\s*['\"][^'\"]+['\"]\s*,")
_UNIX_PATH = lazy(r"(?<![\w.:/~-])/(?:[\w.+@-]+/)*[\w.+@*-]+")
_WINDOWS_PATH = lazy(r"(?i)(?:[a-z]:|%(?:systemroot|windir)%|\$env:(?:systemroot|windir))\\[^\s'\"`)|;,]+")


def _system(path: str) -> bool:
    """A record's place or a system file (not a temporary one)."""
    path = path.strip("'\"")
    if not path or path[0] == "-":
        return False
    return place(path) is not None or classify(path) in _SYSTEM_KINDS


def _verdict(paths: list, how: str, text: str) -> tuple:
    worst_path = next((p for p in paths if who_got_in(p)), paths[0])
    level = HIGH if who_got_in(worst_path) else MEDIUM
    what = "a record of who got in" if level == HIGH else "a system file or record"
    return level, f"forges the times of {what}: {worst_path.strip(chr(39) + chr(34))} ({how}): when it was " \
                  f"changed is hidden ({text})"[:200]


def _touch_name(prog: str, texts: list) -> Optional[list]:
    """The words after a program that sets times (``touch``, ``gtouch``, ``SetFile``, ``coreutils touch``)."""
    name = prog.lower().rsplit("/", 1)[-1].removesuffix(".exe")
    if name in _TOUCHES or name.endswith("-touch"):
        return texts
    if name in ("coreutils", "uutils") and texts[:1] == ["touch"]:
        return texts[1:]
    return None


def _touch_parts(name: str, texts: list) -> tuple:
    """(the time or reference given, the reference file, the files whose times are set) of a touch-like command."""
    given, reference, files = None, None, []
    k = 0
    while k < len(texts):
        t = texts[k]
        k += 1
        if t == "--":
            files += texts[k:]
            break
        if t.startswith("--"):
            opt, eq, value = t.partition("=")
            if opt in _LONG_TIME:
                if not eq and k < len(texts):
                    value, k = texts[k], k + 1
                given = value
                if opt == "--reference":
                    reference = value
            continue
        if t.startswith("-") and len(t) > 1:
            letters = t[1:]
            timed = [ch for ch in letters if ch in _TIME_LETTERS or name == "setfile" and ch == "m"]
            if timed:
                value = texts[k] if k < len(texts) else ""
                k += 1
                given = value
                if timed[-1] == "r":
                    reference = value
            continue
        files.append(t)
    return given, reference, files


_GATE = ("touch", "setfile", "timestomp", "setmace")


@triggered_by(_GATE, otherwise=False)
def may_forge(c: Ctx) -> bool:
    """Cheap: a program that sets times, or one named for forging them."""
    line = c.prog.lower() + " " + c.lowered
    return any(w in line for w in _GATE)


def rule_times_forged(c: Ctx) -> Optional[tuple]:
    """``touch -r /bin/ls /usr/bin/x``, ``touch -t 200101010000 /var/log/auth.log``, ``SetFile -m D /etc/hosts``,
    ``timestomp x.exe -z D``."""
    name = c.prog.lower().rsplit("/", 1)[-1].rsplit("\\", 1)[-1].removesuffix(".exe")
    if _NAMED.search(name) and c.texts and not {"-h", "--help"} & set(c.texts):
        return MEDIUM, f"{c.prog} forges the times of the files it is given: when they were changed is hidden " \
                       f"({c.text})"[:200]
    texts = _touch_name(c.prog, c.texts)
    if texts is None:
        return None
    given, reference, files = _touch_parts(name, texts)
    if given is None or given.strip("'\"").lower() in _NOW:
        return None
    forged = [f for f in files if _system(f)]
    if forged:
        how = f"{c.prog} given the times of {reference}" if reference else f"{c.prog} given the time {given}"
        return _verdict(forged, how, c.text)
    if reference and _system(reference) and files:
        return MEDIUM, f"gives {files[0]} the times of the system file {reference}: it looks as old as the " \
                       f"system, when it was made is hidden ({c.text})"[:200]
    return None


def line_times_forged(text: str) -> Optional[tuple]:
    """A call that sets a file's times (PowerShell's ``.LastWriteTime =``, ``os.utime``, ``File.utime``…) with a
    record or a system file on the same line (``(Get-Item C:\\Windows\\System32\\x.dll).CreationTime = '…'``)."""
    if not any(w in text for w in ("ime", "IME", "ouch", "odif", "eDate", "sDate")):
        return None  # most lines: no word that sets times
    found = _SETTER.search(text)
    if found is None:
        return None
    paths = [p for p in _WINDOWS_PATH.findall(text) + _UNIX_PATH.findall(text) if _system(p)]
    if not paths:
        return None
    return _verdict(paths, found.group(0).strip(" =(").lstrip("."), re.sub(r"\s+", " ", text)[:80])
