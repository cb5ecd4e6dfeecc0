"""Effect: Windows administration done from afar or by a file the line only names.

- Sysinternals' tools, any of them against ``\\\\HOST``, ``\\\\*`` (every machine of the domain) or
  ``@hosts.txt``: ``pskill -t \\\\DB01 sqlservr``, ``psservice \\\\EXCH01 stop MSExchangeIS``, ``pssuspend``,
  ``psloglist -c`` (the log is cleared once dumped), ``psfile … -c`` (open files closed), ``pspasswd \\\\*
  Administrator NEW`` (one password on every machine), ``movefile FILE ""`` (deleted at the next boot),
  ``handle -c`` (a handle closed under its program);
- a command whose first argument is a machine (``sc \\\\DB01 stop MSSQLSERVER``, ``wevtutil /r:DC01 cl
  Security``): judged as the same command, on that machine; terminal sessions reset (``rwinsta``,
  ``reset session``);
- scripts and installers run from another machine's share: ``wscript //B \\\\HOST\\share\\update.js``,
  ``cscript``, ``mshta``, ``msiexec /i \\\\fs\\x.msi /qn``, ``powershell -File \\\\fs\\x.ps1``, ``cmd /c
  \\\\fs\\x.bat``: what runs is not on the line, and whoever writes to the share decides it;
- silent imports (``regedit /s``, ``reg import``, ``regini``, ``ldifde -i``, ``csvde -i``, ``ldapmodify``/
  ``ldapadd -f``, ``secedit /configure``, ``auditpol /restore``, ``lgpo``) of a file from a share, or whose
  name says what it does (``delete-all-users.ldf``, ``disable-defender.reg``);
- BitLocker's recovery written over a drive (``repair-bde C: E:`` erases E:), recovery forced, protectors
  deleted; files renamed or deleted at the next boot through ``PendingFileRenameOperations``.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx, describe, target
from aish.safety.rules.delete import delete_level
from aish.safety.shell_words import Word
from aish.safety.winpaths import typed_text
from aish.safety.lazy_regex import lazy

# Options each tool takes a value for, beyond the account and its password (`-u`, `-p`, read by `_split`).
_VALUED_BY_TOOL = {"psloglist": {"-n", "-h", "-d", "-m", "-r", "-f", "-i", "-e", "-o", "-q", "-z", "-s", "-t", "-l",
                                 "-w"},
                   "handle": {"-c", "-p"}}
_PS_VALUED = {"-u", "-p"}
_REMOTE = lazy(r"^(\\\\[\w.$*-]+|@\S+)$")


def _split(c: Ctx) -> tuple:
    """(the machines named, every machine of the domain?, the other words as typed)."""
    machines, rest = [], []
    words = list(c.args)
    k = 0
    while k < len(words):
        raw = typed_text(words[k])
        if _REMOTE.match(raw) or re.match(r"^\\\\[\w.-]+(,[\w.-]+)+$", raw):
            machines.append(raw)
        elif raw.lower() in _PS_VALUED and k + 1 < len(words):
            k += 1
        elif raw.lower() not in ("-accepteula", "-nobanner"):
            rest.append(raw)
        k += 1
    return machines, "\\\\*" in machines, rest


def _where(machines: list, everyone: bool) -> str:
    if everyone:
        return " on every computer of the domain"
    names = [m.lstrip("@\\") for m in machines[:3]]
    return f" on {', '.join(names)}" if machines else ""


def rule_sysinternals(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower().removesuffix(".exe")
    machines, everyone, rest = _split(c)
    lowered = [t.lower() for t in rest]
    valued = _VALUED_BY_TOOL.get(name, set())
    positional = [t for k, t in enumerate(rest) if not t.startswith("-") and not (k and lowered[k - 1] in valued)]
    where = _where(machines, everyone)
    level = HIGH if everyone else MEDIUM
    if "-?" in lowered or "/?" in lowered:
        return None
    if name == "pskill" and positional:
        tree = " and every process it started" if "-t" in lowered else ""
        return level, f"pskill kills {positional[-1]}{tree}{where} ({c.text})"
    if name == "pssuspend" and positional and "-r" not in lowered:
        return level, f"pssuspend freezes {positional[-1]}{where}: what it serves stops answering ({c.text})"
    if name == "psservice" and positional:
        verb = positional[0].lower()
        if verb in ("stop", "pause") or verb in ("config", "setconfig") and "disabled" in lowered:
            what = "stops" if verb in ("stop", "pause") else "disables"
            return level, f"psservice {what} the service {positional[1] if len(positional) > 1 else ''}{where} " \
                          f"({c.text})"
    if name == "psloglist" and "-c" in lowered:
        return MEDIUM, f"psloglist -c clears the event log once dumped (the audit trail is gone){where} ({c.text})"
    if name == "psfile" and "-c" in lowered:
        return MEDIUM, f"psfile -c closes files others have open: unsaved changes are lost{where} ({c.text})"
    if name == "pspasswd" and positional:
        admin = any(t.lower() in ("administrator", "admin", "root") for t in positional)
        return (HIGH if everyone or admin and machines else MEDIUM,
                f"pspasswd sets the password of {positional[0]}{where or ' on this machine'} ({c.text})")
    if name == "handle" and "-c" in lowered:
        return MEDIUM, f"handle -c closes a handle under its program: it may crash or lose data ({c.text})"
    if name == "movefile" and len(positional) >= 1:
        source = Word(positional[0], positional[0])
        t = target(source)
        if len(positional) == 1 or positional[1] in ("", '""', "''"):
            found = delete_level(t, False)
            return (max(found or MEDIUM, MEDIUM),
                    f"movefile deletes {describe(t)} at the next boot ({c.text})")
        dest = target(Word(positional[1], positional[1]))
        if dest.kind in ("critical", "system", "system-top", "root") or t.kind in ("critical", "system"):
            return MEDIUM, f"movefile replaces {describe(dest)} at the next boot ({c.text})"
    return None


SYSINTERNALS = ("pskill", "pssuspend", "psservice", "psloglist", "psfile", "pspasswd", "handle", "movefile")


# ----------------------------------------------------------------- a machine named first
_SESSION_RESETS = {"rwinsta", "reset"}


def rule_machine_first(c: Ctx) -> Optional[tuple]:
    """``sc \\\\DB01 stop MSSQLSERVER``, ``wevtutil /r:DC01 cl Security``: the command judged without the
    machine, said to happen there."""
    if not c.args:
        return None
    first = typed_text(c.args[0])
    rest = None
    if re.match(r"^\\\\[\w.$*-]+$", first) and len(c.args) > 1:
        rest, where = list(c.args[1:]), first.lstrip("\\")
    else:
        named = [w for w in c.args if re.match(r"(?i)^/(r|remote|s|server|computer):\S+$", w.text)]
        if named and c.prog.lower().removesuffix(".exe") in ("wevtutil", "schtasks", "auditpol"):
            rest = [w for w in c.args if w not in named and not re.match(r"(?i)^/(u|p|a|uni):", w.text)]
            where = named[0].text.split(":", 1)[1]
    if rest is None:
        return None
    found = c.check([c.words[0]] + rest)
    return (found[0], f"{found[1]} on {where}") if found else None


def rule_session_reset(c: Ctx) -> Optional[tuple]:
    """``rwinsta 2 /server:TS01``, ``reset session 3``: a user's terminal session ended under them."""
    texts = [t.lower() for t in c.texts]
    if c.prog.lower().removesuffix(".exe") == "reset" and texts[:1] != ["session"]:
        return None
    if any(t in ("/?", "-?") for t in texts) or not [t for t in texts if not t.startswith("/") and t != "session"]:
        return None
    return MEDIUM, f"resets a terminal session: what runs in it stops, unsaved work is lost ({c.text})"


# ----------------------------------------------------------------- scripts from a share, silent imports
_SCRIPT = lazy(r"\.(js|jse|vbs|vbe|wsf|wsh|hta|ps1|psm1|bat|cmd|msi|msp|dll|exe|sct|reg|inf)$", re.IGNORECASE)
_UNC = lazy(r"^\\\\[\w.$-]+\\")
_SCRIPT_HOSTS = {"wscript", "cscript", "mshta", "msiexec", "powershell", "pwsh", "cmd", "installutil", "msbuild",
                 "rundll32", "regsvr32", "start", "start-process", "invoke-item", "call", "cmstp", "odbcconf",
                 "pcalua", "msxsl", "presentationhost", "ieexec", "powershell_ise", "wsl", "bash"}
# Silent importers and the words that name their input file.
_IMPORTERS = {"regedit": ("/s", None), "reg": ("import", None), "regini": (None, None),
              "ldifde": ("-i", "-f"), "csvde": ("-i", "-f"), "ldapmodify": (None, "-f"), "ldapadd": (None, "-f"),
              "secedit": ("/configure", "/cfg"), "auditpol": ("/restore", "/file"), "lgpo": (None, None),
              "netsh": ("-f", "-f"), "import-gpo": (None, "-path"), "dsimport": (None, None)}
_SAYS_DESTROY = lazy(r"(?:^|[\W_])(delete|del|remove|rm|wipe|purge|drop|disable|deny|block|reset|clear|kill|"
                     r"destroy|erase|uninstall|nuke|truncate|revoke|unprotect|off)(?:$|[\W_]|all|s\b|users|"
                     r"groups|ous)", re.IGNORECASE)


def rule_run_from_share(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower().removesuffix(".exe")
    if name not in _SCRIPT_HOSTS:
        return None
    for w in c.args:
        raw = typed_text(w).split(",", 1)[0]  # rundll32's `\\host\x.dll,Entry`
        raw = raw.split(":", 1)[1] if re.match(r"(?i)^/(i|e:\w+|file):", raw) else raw
        if _UNC.match(raw) and (_SCRIPT.search(raw) or name in ("wscript", "cscript", "mshta")):
            return MEDIUM, f"{c.prog} runs {raw} from another machine's share: what it does is not on the line " \
                           f"({c.text})"
    return None


def rule_silent_import(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower().removesuffix(".exe")
    switch, file_option = _IMPORTERS.get(name, (None, None))
    if name not in _IMPORTERS:
        return None
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    if switch is not None and not any(t == switch or t.startswith(switch + ":") for t in lowered):
        return None
    if name == "netsh" and "-f" not in lowered:
        return None
    files = [typed[k + 1] for k, t in enumerate(lowered[:-1]) if file_option and t == file_option]
    files += [t.split(":", 1)[1] for t in typed if file_option and t.lower().startswith(file_option + ":")]
    if not files:
        files = [t for t in typed if not t.startswith(("-", "/")) and t.lower() not in ("import",)][-1:]
    for f in files:
        leaf = re.split(r"[\\/]", f)[-1]
        if _UNC.match(f):
            return MEDIUM, f"{c.prog} imports {f} from another machine's share, without asking: what it " \
                           f"changes is not on the line ({c.text})"
        m = _SAYS_DESTROY.search(leaf.rsplit(".", 1)[0])
        if m:
            return MEDIUM, f"{c.prog} imports {leaf}, whose name says it will {m.group(1).lower()} ({c.text})"
    return None


# ----------------------------------------------------------------- BitLocker recovery, renames at boot
def rule_bitlocker_repair(c: Ctx) -> Optional[tuple]:
    name = c.prog.lower().removesuffix(".exe")
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    if name == "repair-bde":
        if any(t in ("-?", "/?") for t in lowered):
            return None
        drives = [t for t in typed if re.fullmatch(r"[A-Za-z]:\\?", t)]
        if len(drives) >= 2:
            return HIGH, f"repair-bde writes the recovered volume over {drives[1]}: everything on it is erased " \
                         f"({c.text})"
        return None
    if name == "manage-bde" and ("-forcerecovery" in lowered or "-fr" in lowered):
        return MEDIUM, f"forces BitLocker recovery: the machine will not start without the recovery key ({c.text})"
    if name == "manage-bde" and "-protectors" in lowered and "-delete" in lowered:
        return MEDIUM, f"deletes BitLocker's key protectors ({c.text})"
    return None


def rule_renamed_at_boot(c: Ctx) -> Optional[tuple]:
    """``reg add …\\Session Manager /v PendingFileRenameOperations …``: files moved or deleted at the next boot."""
    if "pendingfilerenameoperations" in c.lowered:
        return MEDIUM, f"schedules files to be renamed or deleted at the next boot ({c.text})"
    return None


_MOVE_VALUED = {"-path", "-literalpath", "-destination", "-filter", "-include", "-exclude", "-credential"}


def rule_system_file_moved(c: Ctx) -> Optional[tuple]:
    """``Move-Item C:\\Windows\\System32\\drivers\\netio.sys C:\\Temp``, cmd's ``move``: judged as ``mv`` of the
    paths as typed (a driver or a boot file moved away, a system file replaced)."""
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    sources, dest = [], None
    for k, t in enumerate(typed):
        before = lowered[k - 1] if k else ""
        if before == "-destination":
            dest = t
        elif before in ("-path", "-literalpath") or not t.startswith(("-", "/")) and before not in _MOVE_VALUED:
            sources.append(t)
    if dest is None and len(sources) >= 2:
        dest = sources.pop()
    if not sources or dest is None or not any("\\" in t or ":" in t for t in sources + [dest]):
        return None
    return c.check([Word("mv", "mv")] + [Word(t, t) for t in sources + [dest]])


def rule_system_file_renamed(c: Ctx) -> Optional[tuple]:
    """``Rename-Item C:\\Windows\\System32\\ntoskrnl.exe -NewName x.old``, cmd's ``ren``: judged as ``mv`` to the
    new name beside it (a boot file or a hive renamed is as gone as one moved away)."""
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    new = next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-newname"), None)
    names = [t for k, t in enumerate(typed) if not t.startswith(("-", "/")) and
             (not k or lowered[k - 1] not in _MOVE_VALUED | {"-newname"} or lowered[k - 1] in ("-path",
                                                                                                "-literalpath"))]
    if new is None and len(names) >= 2:
        new = names[1]
    if not names or not new or "\\" not in names[0] or names[0] == new:
        return None
    dest = new if "\\" in new else names[0].rsplit("\\", 1)[0] + "\\" + new
    return c.check([Word("mv", "mv"), Word(names[0], names[0]), Word(dest, dest)])


_BY_NAME: dict = {}
for _name in SYSINTERNALS:
    _BY_NAME[_name] = [rule_sysinternals]
for _name in ("sc", "reg", "net", "wevtutil", "schtasks", "auditpol", "tasklist", "taskkill", "shutdown"):
    _BY_NAME.setdefault(_name, []).append(rule_machine_first)
for _name in _SESSION_RESETS:
    _BY_NAME.setdefault(_name, []).append(rule_session_reset)
for _name in _SCRIPT_HOSTS:
    _BY_NAME.setdefault(_name, []).append(rule_run_from_share)
for _name in _IMPORTERS:
    _BY_NAME.setdefault(_name, []).append(rule_silent_import)
for _name in ("repair-bde", "manage-bde"):
    _BY_NAME.setdefault(_name, []).append(rule_bitlocker_repair)
for _name in ("move-item", "move"):
    _BY_NAME.setdefault(_name, []).append(rule_system_file_moved)
for _name in ("rename-item", "rni", "ren", "rename"):
    _BY_NAME.setdefault(_name, []).append(rule_system_file_renamed)
for _name in ("reg", "set-itemproperty", "new-itemproperty"):
    _BY_NAME.setdefault(_name, []).append(rule_renamed_at_boot)
NAMES = frozenset(_BY_NAME) | frozenset(name + ".exe" for name in _BY_NAME)


def rule_remote_admin(c: Ctx) -> Optional[tuple]:
    """The rules above for the program by its name (asked from ``table.check`` for ``NAMES`` only: the
    programs stay unknown to the vocabulary's readings where no other rule names them)."""
    best: Optional[tuple] = None
    for rule in _BY_NAME.get(c.prog.lower().removesuffix(".exe"), ()):
        found = rule(c)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return best
