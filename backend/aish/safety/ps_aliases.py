"""PowerShell's built-in aliases, read as the cmdlets they stand for.

``gsv | ? Status -eq Running | spsv -Force`` is ``Get-Service | Where-Object … | Stop-Service -Force``:
every running service stopped.  The rules know cmdlets by their full names (and the listings that feed
them, ``Get-Service | …``), so each command's first word is read through PowerShell's own alias table
(``Get-Alias`` in Windows PowerShell 5.1 and PowerShell 7, the CimCmdlets module's ``gcim``/``rcim``
included) before it is judged.

Two kinds of alias:

- names no common program uses (``spsv``, ``spps``, ``ri``, ``rwmi``, ``gci``, ``iex``…): always the cmdlet;
- names that are also programs of their own (``kill``, ``rm``, ``del``, ``sc``, ``ls``, ``start``…): read
  as the cmdlet only where the line is PowerShell (a cmdlet or a ``$_`` beside them, options spelled
  ``-Force``/``-Recurse``: ``kill -Force`` after ``Get-Process``, ``del -Recurse`` after ``ls C:\\Users\\*
  -Recurse``).

Either way the typed name is judged too, the worse reading kept: ``cli -c '…'`` is also Junos' shell,
``irm -r`` iRODS' rm, ``gp -q`` PARI/GP.

``curl``/``wget`` (Invoke-WebRequest in 5.1 only), ``fc``, ``h``, ``r``, ``md``, ``mount`` are left to
their own rules: read either way they say the same, or the program is far more common.
"""
from __future__ import annotations

import re
from dataclasses import replace
from aish.safety.lazy_regex import lazy

# Aliases no other common program is called by.
ALWAYS: dict = {
    "%": "ForEach-Object", "?": "Where-Object", "ac": "Add-Content", "clc": "Clear-Content", "clhy": "Clear-History",
    "cli": "Clear-Item", "clp": "Clear-ItemProperty", "clv": "Clear-Variable", "cpi": "Copy-Item",
    "cpp": "Copy-ItemProperty", "epcsv": "Export-Csv", "etsn": "Enter-PSSession", "gal": "Get-Alias",
    "gc": "Get-Content", "gci": "Get-ChildItem", "gcm": "Get-Command", "gdr": "Get-PSDrive", "gi": "Get-Item",
    "gjb": "Get-Job", "gmo": "Get-Module", "gp": "Get-ItemProperty", "gps": "Get-Process",
    "gpv": "Get-ItemPropertyValue", "gsn": "Get-PSSession", "gsv": "Get-Service", "gwmi": "Get-WmiObject",
    "icm": "Invoke-Command", "iex": "Invoke-Expression", "ii": "Invoke-Item", "ipcsv": "Import-Csv",
    "irm": "Invoke-RestMethod", "iwmi": "Invoke-WmiMethod", "iwr": "Invoke-WebRequest", "mi": "Move-Item",
    "mp": "Move-ItemProperty", "ndr": "New-PSDrive", "ni": "New-Item", "nsn": "New-PSSession", "rdr": "Remove-PSDrive",
    "ri": "Remove-Item", "rjb": "Remove-Job", "rmo": "Remove-Module", "rni": "Rename-Item",
    "rnp": "Rename-ItemProperty", "rp": "Remove-ItemProperty", "rsn": "Remove-PSSession", "rv": "Remove-Variable",
    "rwmi": "Remove-WmiObject", "sajb": "Start-Job", "saps": "Start-Process", "sasv": "Start-Service",
    "si": "Set-Item", "sp": "Set-ItemProperty", "spjb": "Stop-Job", "spps": "Stop-Process", "spsv": "Stop-Service",
    "swmi": "Set-WmiInstance", "sls": "Select-String", "stz": "Set-TimeZone", "sujb": "Suspend-Job",
    "gcim": "Get-CimInstance", "rcim": "Remove-CimInstance", "scim": "Set-CimInstance",
    "icim": "Invoke-CimMethod", "ncim": "New-CimInstance", "gcls": "Get-CimClass",
}
# Aliases that are programs of their own too (cmd's `del`, POSIX `kill`, sc.exe): the cmdlet only in PowerShell.
AMBIGUOUS: dict = {
    "rm": "Remove-Item", "del": "Remove-Item", "erase": "Remove-Item", "rd": "Remove-Item", "rmdir": "Remove-Item",
    "kill": "Stop-Process", "sc": "Set-Content", "ls": "Get-ChildItem", "dir": "Get-ChildItem",
    "ps": "Get-Process", "cat": "Get-Content", "type": "Get-Content", "start": "Start-Process",
    "cp": "Copy-Item", "copy": "Copy-Item", "mv": "Move-Item", "move": "Move-Item", "ren": "Rename-Item",
    "where": "Where-Object", "foreach": "ForEach-Object", "select": "Select-Object", "sort": "Sort-Object",
}
# A PowerShell word: a cmdlet's name (an approved verb, a dash, a noun), `$_` and friends, `-Force` spelled so.
_VERBS = ("get|set|new|remove|stop|start|restart|clear|add|disable|enable|invoke|import|export|copy|move|rename|"
          "uninstall|install|unregister|register|suspend|resume|reset|dismount|mount|grant|revoke|test|update|"
          "select|where|foreach|sort|write|out|format|convertto|convertfrom|measure|expand|compress|enter|exit|"
          "connect|disconnect|wait|show|hide|lock|unlock|publish|unpublish|block|unblock|protect|unprotect|"
          "initialize|optimize|repair|resize|save|restore|backup|checkpoint|send|receive|read|search|find|use|"
          "push|pop|join|split|group|compare|tee|trace|debug|sync|approve|deny|request|submit|confirm|undo|redo")
_CMDLET = lazy(rf"^(?:{_VERBS})-[A-Za-z][A-Za-z0-9]+$", re.IGNORECASE)
_PS_WORD = re.compile(r"^(?:\$_|\$psitem|\$env:|\$true|\$false|\$null)|^-(?:[A-Z][a-z]+[A-Za-z]*(?::.*)?|"
                      r"force|recurse|fo|confirm:\$\w+|erroraction|literalpath|whatif)$")


def is_cmdlet(name: str) -> bool:
    """``Stop-Service``, ``remove-item``: a cmdlet's shape (an approved verb, a dash, a noun)."""
    return "-" in name and bool(_CMDLET.match(name))


def _powershell_words(words: list) -> bool:
    return any(_PS_WORD.match(w.text) for w in words[1:])


def _powershell_segment(seg) -> bool:
    first = seg.words[0].text if seg.words else ""
    return first in ALWAYS or first.lower() in ALWAYS or is_cmdlet(first)


def resolve(segs: list) -> list:
    """The segments with each alias's first word spelled as its cmdlet (the word as typed is kept in ``raw``):
    the listings that feed a cmdlet are then seen for what they are.  Lines with no alias come back as they are."""
    firsts = [s.words[0].text.lower() if s.words else "" for s in segs]
    if not any(f in ALWAYS or f in AMBIGUOUS for f in firsts):
        return segs
    powershell = any(_powershell_segment(s) for s in segs)
    out = []
    for seg, first in zip(segs, firsts):
        full = ALWAYS.get(first) or (AMBIGUOUS.get(first) if powershell or _powershell_words(seg.words) else None)
        if full is not None and not (first == "sc" and not _powershell_words(seg.words)):  # sc.exe takes `start= x`
            seg = replace(seg, words=[replace(seg.words[0], text=full)] + seg.words[1:])
        out.append(seg)
    return out


def assigned(segs: list) -> list:
    """``$a = Verb-Noun …`` as ``Verb-Noun …``: PowerShell keeps the result, the cmdlet runs all the same (``assess``
    asks only for lines holding `` = ``)."""
    out = []
    for seg in segs:
        words = seg.words
        if len(words) > 2 and words[1].text == "=" and words[0].raw.startswith("$") and is_cmdlet(words[2].raw):
            seg = replace(seg, words=words[2:])
        out.append(seg)
    return out


def cmdlet_of(words: list, chain: list) -> tuple:
    """(the cmdlet the first word stands for, or ''; whether the program of the typed name is judged too).

    Every alias is also a program's name somewhere (``cli`` is Junos' shell, ``irm`` iRODS' rm), so the
    typed name keeps its own reading beside the cmdlet's, the worse kept.  An alias that is a common
    program (``kill``, ``del``) is read as its cmdlet only where its own words or the commands feeding it
    are PowerShell."""
    first = words[0].raw.strip("'\"").lower() if words else ""
    full = ALWAYS.get(first)
    if full is not None:  # `cli` is also Junos' shell, `irm` iRODS' rm, `gp` PARI/GP: their own reading is kept
        return full, True
    full = AMBIGUOUS.get(first)
    if full is None or first == "sc" and not _powershell_words(words):
        return "", False
    if words[0].text == full or _powershell_words(words) or any(_powershell_segment(f) for f in chain):
        return full, True
    return "", False

