"""Effect: something made to start by itself (at logon, at boot, on a schedule, as a service, when a download
finishes) runs a program kept where anyone, or anything downloaded, can replace it.

Starting a program automatically is everyday (an app's Run value under ``Program Files``, a nightly task from
``C:\\tools``).  What an administrator refuses is the place: a temporary folder (``%TEMP%``, ``C:\\Windows\\Temp``,
``C:\\tmp``, ``/tmp``, ``/dev/shm``), ``C:\\Users\\Public``, a ``Downloads`` folder, the print spooler's colour
folder or ``Windows\\Tasks`` (writable by every user), another machine's share (``\\\\host\\share``) or an address.
Whoever writes there next decides what runs, and the usual reason to start a program from there is that it was
just dropped.  When the start runs for the whole machine (an ``HKLM`` value, a task ``/ru SYSTEM``, a service, a
system unit) a user's own ``AppData`` counts too: one user then chooses what runs as everyone.

Read for any launcher, each with where it keeps the command: ``reg add <Run key> /d``, ``Set-ItemProperty``,
``New-ItemProperty`` and ``sp`` on a Run key, ``schtasks /create|/change /tr``, ``sc create|config binpath=``,
``New-Service -BinaryPathName``, ``New-ScheduledTaskAction -Execute``/``-Argument``, ``bitsadmin
/SetNotifyCmdLine``, ``at``, and on Unix ``systemctl enable|link`` or ``launchctl load|bootstrap`` of a unit kept in
such a place; a service's ``ImagePath`` written into the registry is read as ``sc``'s ``binPath=``.  Medium; high
when it runs for the whole machine.  A shared-process service's ``Parameters\\ServiceDll`` pointed outside System32
by any registry writer is medium too (high from such a place): the service breaks, or loads it as SYSTEM.
What the kept command does is read too, for every launcher here and in ``autostart_kept`` (WMI consumers, COM
servers, ``at`` fed its job, login hooks, netsh helpers, git's hooks path): a shell handed out, a download run, an
administrator or a second root made (high), a command hidden in base64 or an account made (medium)
(``autostart_payloads``); otherwise its own effect is judged (``windows.rule_launches`` for reg, schtasks and sc).
One of Windows' own tasks given another program to run is medium.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.autostart_kept import com_server, kept, registry_launch
from aish.safety.rules.autostart_payloads import payload
from aish.safety.rules.common import HIGH, MEDIUM, Ctx
from aish.safety.winpaths import typed_text

# A place any user or any download can write, as a command names it (Windows or Unix spelling).
_OPEN_PLACE = lazy(
    r"(?i)[\\/](appdata[\\/]local[\\/]temp|users[\\/](public|shared)|downloads|spool[\\/]drivers[\\/]color|"
    r"windows[\\/](temp|tasks))[\\/]|"
    r"(^|[\s\"'=,;(:])(\w:[\\/](temp|tmp|perflogs)[\\/]|%te?mp%|%public%|\$\{?env:(te?mp|public)\b|"
    r"\[system\.io\.path\]::gettemppath|\\\\[\w.$-]+\\[\w.$-]+|https?://|/tmp/|/var/tmp/|/dev/shm/|~/downloads/)")
# For a start that runs for everyone, one user's own folders count too.
_USER_PLACE = lazy(r"(?i)([\\/]appdata[\\/]|%(local)?appdata%|\$env:(local)?appdata\b|"
                   r"[\\/]users[\\/](?!public)[^\\/\s]+[\\/](desktop|documents)[\\/]|/home/[^/\s]+/|~/)")
_RUN_KEY = lazy(r"(?i)\\(currentversion\\(run|runonce|runservices|runservicesonce)(ex)?|"
                r"policies\\explorer\\run|image file execution options\\[^\\]+)\\?$")
_MACHINE_KEY = lazy(r"(?i)^(registry::)?(hklm|hkey_local_machine)")
_REGISTRY_WRITERS = frozenset({"reg", "set-itemproperty", "sp", "new-itemproperty"})
_SERVICE_KEY = lazy(r"(?i)\\services\\[^\\]+\\?$")
_SERVICE_PARAMETERS = lazy(r"(?i)\\services\\([^\\]+)\\parameters\\?$")
_SYSTEM_LIBRARY = lazy(r"(?i)^(%systemroot%|%windir%|\w:\\windows)\\(system32|syswow64)\\")
_CLOCK = lazy(r"^\d{1,2}:\d\d")
# A word the line must hold for these everyday programs to keep anything (autostart_kept.py).
_GATES = {"git": "core.", "defaults": "hook", "netsh": "helper", "netsh.exe": "helper", "osascript": "login item"}
# Launchers whose kept command `windows.rule_launches` judges as the command it is.
_JUDGED_ELSEWHERE = frozenset({"reg", "schtasks", "sc"})
_SYSTEM_TASK = lazy(r"(?i)^\\?microsoft\\windows\\")
_SYSTEM_USERS = lazy(r"(?i)^(nt authority\\)?(system|localsystem|local service|network service)$")


def open_place(command: str, machine: bool) -> str:
    """The place in ``command`` that others can write ('' if none)."""
    m = _OPEN_PLACE.search(command) or (_USER_PLACE.search(command) if machine else None)
    return m.group(0).strip(" \"'=,;(") if m else ""


def _after(typed: list, *names: str) -> str:
    lowered = [t.lower() for t in typed]
    return next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t in names), "")


def _bare(typed: list) -> list:
    """The positional arguments of a cmdlet (not an option, not an option's value)."""
    return [t for k, t in enumerate(typed) if not t.startswith("-") and (k == 0 or not typed[k - 1].startswith("-"))]


def _registry_value(c: Ctx, prog: str) -> tuple:
    """(key, value name, data) a registry writer sets (``reg add K /v N /d D``, ``Set-ItemProperty K N D``)."""
    typed = [typed_text(w) for w in c.args]
    if prog == "reg":
        if [t.lower() for t in typed[:1]] != ["add"] or len(typed) < 2:
            return "", "", ""
        return typed[1], _after(typed, "/v"), _after(typed, "/d")
    bare = _bare(typed)
    key = _after(typed, "-path", "-literalpath") or (bare[0] if bare else "")
    key = re.sub(r"(?i)^(microsoft\.powershell\.core\\)?registry::", "", key).replace(":", "")
    return key, _after(typed, "-name") or (bare[1] if len(bare) > 1 else ""), \
        _after(typed, "-value") or (bare[2] if len(bare) > 2 else "")


def _stored(c: Ctx) -> tuple:
    """(command kept to run later, runs for the whole machine, how it starts, a path rather than a command)."""
    prog = c.prog.lower().removesuffix(".exe")
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    if prog in _REGISTRY_WRITERS:
        key, name, value = _registry_value(c, prog)
        if _RUN_KEY.search(key):
            return value, bool(_MACHINE_KEY.search(key)), "at every logon", False
        if _SERVICE_KEY.search(key) and name.lower() == "imagepath":
            return value, True, "each time the service starts", False
        launch = registry_launch(key, name)
        if launch is not None:
            how, everyone, path = launch
            return value, everyone or bool(_MACHINE_KEY.search(key)), how, path
        if com_server(key) and (name in ("", "(default)") or prog != "reg"):
            return value, bool(_MACHINE_KEY.search(key)), "each time the COM object is asked for", \
                "inprocserver32" in key.lower()
        return "", False, "", False
    if prog == "schtasks" and ({"/create", "/change"} & set(lowered)):
        return _after(typed, "/tr"), bool(_SYSTEM_USERS.match(_after(typed, "/ru"))), "each time the task runs", False
    if prog == "sc" and lowered[:1] in (["create"], ["config"]):
        fused = next((t.split("=", 1)[1].strip("'\"") for t in typed if t.lower().startswith("binpath=") and
                      len(t) > 8), "")  # `binPath="C:\x.exe"`: one word
        return fused or _after(typed, "binpath=", "binpath"), True, "each time the service starts", False
    if prog == "sc" and lowered[:1] == ["failure"]:  # `sc failure X actions= run/1000 command= "C:\x.exe"`
        return _after(typed, "command=") or next((t[8:] for t in typed if t.lower().startswith("command=")), ""), \
            True, "each time the service fails", False
    if prog == "new-service":
        bare = _bare(typed)
        return _after(typed, "-binarypathname") or (bare[1] if len(bare) > 1 else ""), True, "as a service", False
    if prog == "new-scheduledtaskaction":
        return " ".join((_after(typed, "-execute"), _after(typed, "-argument"))), False, "when the task runs", False
    if prog == "bitsadmin" and "/setnotifycmdline" in lowered:
        at = lowered.index("/setnotifycmdline")
        return " ".join(typed[at + 2:at + 4]), False, "when the transfer finishes", False
    if prog == "at" and typed and _CLOCK.match(typed[0]) and len(typed) > 1:  # Windows': `at 09:00 /every:M C:\x.bat`
        command = " ".join(t for t in typed[1:] if not t.startswith("/"))
        if command:
            return command, True, "at the set time", False
    if prog == "systemctl" and {"enable", "link", "reenable"} & set(lowered):
        return " ".join(t for t in typed if "/" in t), "--user" not in lowered, "at every boot", True
    if prog == "launchctl" and {"load", "bootstrap"} & set(lowered):
        paths = " ".join(t for t in typed if "/" in t)
        return paths, "system" in lowered or paths.startswith("/Library") or c.sudo, "at every boot or logon", True
    more = kept(c, prog, typed, lowered)
    return more if more else ("", False, "", False)


def rule_open_autostart(c: Ctx) -> Optional[tuple]:
    """A launcher whose kept command runs a program from a place others can write (see the module's doc)."""
    gate = _GATES.get(c.prog.lower())
    if gate is not None and gate not in c.lowered:
        return None  # `git status`, `defaults read`: one look at the line
    command, machine, when, path = _stored(c)
    if not command:
        return _system_task_taken(c) or _service_library(c)
    scope = "for the whole machine" if machine else "for this user"
    found = None if path else payload(command)
    if found is not None:
        return found[0], f"{found[1]} {when}, {scope} ({c.text})"
    place = open_place(command, machine)
    if place:
        return (HIGH if machine else MEDIUM,
                f"starts {place} {when}, {scope}: whoever writes there chooses what runs ({c.text})")
    inner = None if path or c.prog.lower().removesuffix(".exe") in _JUDGED_ELSEWHERE else c.recurse(command)
    if inner is not None and inner[0] >= MEDIUM:
        return inner[0], f"{inner[1]}, {when}, {scope}"
    return _system_task_taken(c) or _service_library(c)


def _system_task_taken(c: Ctx) -> Optional[tuple]:
    """One of Windows' own tasks (``\\Microsoft\\Windows\\…``) given another program to run (``schtasks /change
    /tn \\Microsoft\\Windows\\… /tr X``, ``Set-ScheduledTask -TaskPath \\Microsoft\\Windows\\… -Action``): it
    runs with the task's rights, hidden among the system's tasks.  Switching one off (``/disable``) stays quiet."""
    prog = c.prog.lower().removesuffix(".exe")
    typed = [typed_text(w) for w in c.args]
    lowered = [t.lower() for t in typed]
    if prog == "schtasks" and ("/change" in lowered or "/create" in lowered) and "/tr" in lowered:
        task = _after(typed, "/tn")  # changed, or a new one made among them to pass for one of them
    elif prog in ("set-scheduledtask", "register-scheduledtask") and "-action" in lowered:
        task = _after(typed, "-taskpath")
    else:
        return None
    if not _SYSTEM_TASK.match(task.strip("'\"")):
        return None
    if "/create" in lowered or prog == "register-scheduledtask":
        return MEDIUM, f"makes a task among Windows' own ({task}): it passes for one of the system's tasks ({c.text})"
    return MEDIUM, f"makes Windows' own task {task} run another program, with its rights and among the system's " \
                   f"tasks ({c.text})"


def _service_library(c: Ctx) -> Optional[tuple]:
    """A shared-process service's ``Parameters\\ServiceDll`` pointed outside System32: the service stops working,
    or loads what it is given into a process that runs as SYSTEM."""
    prog = c.prog.lower().removesuffix(".exe")
    if prog not in _REGISTRY_WRITERS:
        return None
    key, name, value = _registry_value(c, prog)
    service = _SERVICE_PARAMETERS.search(key)
    if service is None or name.lower() != "servicedll" or not value or _SYSTEM_LIBRARY.match(value.strip("'\"")):
        return None
    return (HIGH if open_place(value, True) else MEDIUM,
            f"{service.group(1)} loads {value} instead of its own library: the service breaks, or runs it as SYSTEM "
            f"({c.text})")


RULES: dict = {}
for _p in ("reg", "set-itemproperty", "sp", "new-itemproperty", "schtasks", "sc", "new-service",
           "new-scheduledtaskaction", "bitsadmin", "at", "systemctl", "launchctl"):
    RULES[_p] = [rule_open_autostart]
    RULES[_p + ".exe"] = [rule_open_autostart]
for _p in ("batch", "set-scheduledtask", "register-scheduledtask", "defaults", "netsh", "git", "appcmd",
           "new-webglobalmodule", "osascript"):  # (no `.exe` name: `git.exe` is read as git, as before)
    RULES[_p] = [rule_open_autostart]
