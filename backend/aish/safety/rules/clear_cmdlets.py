"""Effect: what PowerShell's Clear-* cmdlets and .NET's event log calls empty, for any noun.

``Clear-<Noun>`` empties what the noun names, and the cmdlets are many (``Clear-Item``,
``Clear-ItemProperty``, ``Clear-BitLockerAutoUnlock``, ``Clear-AzContext``, ``Clear-AppvClientPackage``,
``Clear-ClusterDiskReservation``...): told ``-Force``, ``-All``, ``-Confirm:$false`` or given a wildcard
it empties without asking (medium; high on the system's files).  Caches and the console
(``Clear-DnsClientCache``, ``Clear-Host``) are rebuilt on their own and stay quiet.

Event logs cleared through .NET (``[…EventLogSession]::GlobalSession.ClearLog('Security')``,
``[System.Diagnostics.EventLog]::new('Security').Clear()``, ``Get-EventLog -List | % { $_.Clear() }``)
are cleared as ``wevtutil cl`` clears them: the audit trail is gone.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, LOW, MEDIUM, Ctx, describe, fragment, target
from aish.safety.rules.content import overwrite_level
from aish.safety.shell_words import Word
from aish.safety.lazy_regex import lazy

_HARMLESS_NOUN = lazy(r"^(host|history|variable|recyclebin|eventlog|disk|tpm)$|cache$", re.IGNORECASE)
_WITHOUT_ASKING = lazy(r"^-(force|all|confirm:\$false|f)$", re.IGNORECASE)
_PATHS = {"-path", "-literalpath", "-lp"}


def rule_clear_cmdlet(c: Ctx) -> Optional[tuple]:
    """``Clear-Item -Path C:\\Data\\* -Force``, ``Clear-AzContext -Force``: a Clear-* cmdlet told not to ask."""
    name = c.prog.lower()
    if not name.startswith("clear-"):
        return None
    noun = c.prog[6:]
    if _HARMLESS_NOUN.search(noun):  # caches, the console; Clear-Disk, Clear-Tpm… have rules of their own
        return None
    texts = c.texts
    forced = any(_WITHOUT_ASKING.match(t) for t in texts)
    paths = [w for k, w in enumerate(c.args) if not w.text.startswith("-") and
             (k == 0 or texts[k - 1].lower() in _PATHS or not texts[k - 1].startswith("-"))]
    best: Optional[tuple] = None
    for w in paths:
        raw = w.raw.strip("'\"")
        t = target(Word(raw, raw, has_var="$" in raw))
        level = overwrite_level(t)
        if level is not None and level >= MEDIUM and (best is None or level > best[0]):
            best = level, f"{c.prog} empties {describe(t)} ({c.text})"
    if best is not None:
        return best
    listed = next((seg.words[0].text for seg in c.chain if seg.words and
                   seg.words[0].text.lower() in ("get-childitem", "gci", "ls", "dir") and
                   any(w.text.lower() in ("-recurse", "-r", "-rec") for w in seg.words)), None)
    if listed is not None and name in ("clear-content", "clc"):  # `Get-ChildItem C:\Logs -Recurse | Clear-Content`
        return MEDIUM, f"{c.prog} empties every file {listed} lists ({c.text})"
    wildcard = any("*" in w.text for w in c.args)
    if forced or wildcard:
        return MEDIUM, f"{c.prog} empties the {noun} it names without asking ({c.text})"
    return LOW, f"{c.prog} empties the {noun} it names ({c.text})"


# .NET's clear of an event log, anywhere on the line (`…EventLogSession]::GlobalSession.ClearLog('Security')`,
# `[System.Diagnostics.EventLog]::new('Security').Clear()`, `Get-EventLog -List | % { $_.Clear() }`).
_EVENT_LOG_CLEARED = lazy(r"eventlog.{0,300}?\.clear(log)?\s*\(", re.IGNORECASE | re.DOTALL)


# .NET's file calls that empty or delete a file the line spells out (`[System.IO.File]::WriteAllText('…\hosts', '')`).
_DOTNET_FILE = lazy(r"\[(?:system\.)?io\.file\]::(writeall(?:text|bytes|lines)|delete)\s*\(\s*"
                    r"['\"]([^'\"]+)['\"]", re.IGNORECASE)


def line_clears_event_log(text: str) -> Optional[tuple]:
    """Event logs cleared and files emptied through .NET: judged on the whole line, where PowerShell's calls are
    split into pieces."""
    lowered = text.lower()
    if "io.file]::" in lowered:
        m = _DOTNET_FILE.search(text)
        if m is not None:
            t = target(Word(m.group(2), m.group(2)))
            level = overwrite_level(t)
            if level is not None and level >= MEDIUM:
                return level, f".NET's File.{m.group(1)} replaces {describe(t)} ({fragment([text])})"
    if "eventlog" not in lowered or "clear" not in lowered:
        return None
    # WMI's Win32_NTEventlogFile.ClearEventlog, by any caller (`wmic nteventlog … call cleareventlog`,
    # `Invoke-CimMethod … -MethodName ClearEventlog`, `$_.ClearEventlog()`): every log unless a filter picks some
    wmi = "cleareventlog" in lowered and "nteventlog" in lowered
    if not wmi and (".clear" not in lowered or _EVENT_LOG_CLEARED.search(text) is None):
        return None
    every = "security" in lowered or "-list" in lowered or \
        wmi and not any(w in lowered for w in (" where", "-filter", "filename", "-query"))
    how = "WMI" if wmi else ".NET"
    return (HIGH if every else MEDIUM), f"clears Windows event logs through {how}: the audit trail is gone " \
        f"({fragment([text])})"
