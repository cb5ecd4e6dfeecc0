"""Where more launchers keep the command they start by themselves, read for ``autostart_writable``.

``autostart_writable`` reads the registry's Run keys, tasks, services, BITS, ``at``, unit files; these are the
other places that start code by themselves, each with where its command is kept:

- WMI's permanent event consumers (``wmic … CommandLineEventConsumer create … CommandLineTemplate="…"``,
  ``Set-WmiInstance``/``New-CimInstance -Class CommandLineEventConsumer|ActiveScriptEventConsumer
  -Arguments|-Property @{CommandLineTemplate|ScriptText=…}``): run as SYSTEM on the event, read on the line;
- a COM object's server under ``Classes\\CLSID\\{…}\\InprocServer32|LocalServer32`` written by any registry
  writer (the user's own hive wins over the machine's: what loads the object loads this instead);
- ``at``/``batch`` fed the job on their input (``echo CMD | at now + 1 minute``, a heredoc);
- macOS' login and logout hooks (``defaults write com.apple.loginwindow LoginHook F``): run as root;
- ``netsh add helper DLL``: a library netsh loads every time it starts;
- an IIS native module (``appcmd install module /image:DLL``, ``New-WebGlobalModule -Image DLL``): loaded into every
  worker process, as the site's identity;
- git's ``core.hooksPath`` (every repository's hooks) and the commands it runs itself (``core.fsmonitor``,
  ``core.pager``, ``core.editor``, ``core.sshCommand``, ``sequence.editor``, ``core.askPass``);
- macOS' login items made through System Events (``osascript -e '… make login item … {path:"…"}'``).

``kept(c)`` answers for one command (command or path kept, runs for the whole machine, how it starts, a path
rather than a command) or None for anything else.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.common import Ctx

# A permanent WMI event consumer made, and the command or script it keeps (read on the whole line: a hashtable's
# `;` splits PowerShell's `@{Name='x';CommandLineTemplate='…'}` where the shell's reading sees two commands).
_CONSUMER = lazy(r"(?i)\b(commandline|activescript)eventconsumer\b.*\b(create|set-wmiinstance|swmi|new-ciminstance|"
                 r"ncim|createinstance|put)\b|\b(create|set-wmiinstance|swmi|new-ciminstance|ncim)\b.*"
                 r"\b(commandline|activescript)eventconsumer\b")
_CONSUMER_FIELD = lazy(r"(?i)\b(commandlinetemplate|executablepath|scripttext|scriptfilename)[\"']?\s*=\s*"
                       r"(\"[^\"]*\"|'[^']*'|[^,;}]+)")
_COM_SERVER = lazy(r"(?i)\\classes\\clsid\\\{[^\\]+\}\\(inprocserver32|localserver32)\\?$")
_HOOK_KEYS = frozenset({"loginhook", "logouthook"})
_GIT_KEYS = frozenset({"core.hookspath", "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand",
                       "sequence.editor", "core.askpass"})
_LOGIN_ITEM = lazy(r"(?i)\bmake (new )?login item\b.*\bpath\s*:\s*\"([^\"]+)\"")


def kept(c: Ctx, prog: str, typed: list, lowered: list) -> Optional[tuple]:
    """(kept command or path, for the whole machine, when it starts, a path?) for the launchers above."""
    if prog in ("at", "batch"):  # Unix: the job on the input (Windows' `at 09:00 CMD` is read before this)
        job = _fed(c)
        return (job, c.sudo, "when the job runs", False) if job else None
    if prog == "defaults" and lowered[:1] == ["write"] and len(lowered) > 3 and "loginwindow" in lowered[1] and \
            lowered[2] in _HOOK_KEYS:
        return typed[3], True, f"as root at every {'login' if lowered[2] == 'loginhook' else 'logout'}", True
    if prog == "netsh" and lowered[:2] == ["add", "helper"] and len(typed) > 2:
        return typed[2], True, "each time netsh starts", True
    if prog in ("appcmd", "new-webglobalmodule") and ("module" in lowered or prog != "appcmd"):
        image = next((t.split(":", 1)[1] for t in typed if t.lower().startswith("/image:")), "") or \
            next((typed[k + 1] for k, t in enumerate(lowered[:-1]) if t == "-image"), "")
        return (image, True, "in every IIS worker process", True) if image else None
    if prog == "git" and _GIT_KEYS & set(lowered):
        at = next(k for k, t in enumerate(lowered) if t in _GIT_KEYS)
        value = typed[at + 1] if at + 1 < len(typed) else ""
        path = lowered[at] == "core.hookspath"
        return value, "--system" in lowered, "at every git command" if path else "each time git runs it", path
    if prog == "osascript":  # System Events' login items: `make login item at end with properties {path:"…"}`
        found = _LOGIN_ITEM.search(" ".join(typed))
        return (found.group(2), False, "at every login", True) if found else None
    return None


def event_consumer(text: str) -> str:
    """The command or script a permanent WMI event consumer made on this line keeps ('' if none is made)."""
    if not _CONSUMER.search(text):
        return ""
    return "\n".join(m.group(2).strip("\"' ") for m in _CONSUMER_FIELD.finditer(text))  # each field, one a line


# Registry values that start a program or load a library by themselves: (key, value name or "*" for any, how it
# starts, for every user, a library's path rather than a command).
_LAUNCH_VALUES = (
    (lazy(r"(?i)\\environment\\?$"), "userinitmprlogonscript", "at every logon", False, False),
    (lazy(r"(?i)\\winlogon\\?$"), "userinit", "at every logon", False, False),
    (lazy(r"(?i)\\winlogon\\?$"), "shell", "at every logon", False, False),
    (lazy(r"(?i)\\active setup\\installed components\\[^\\]+\\?$"), "stubpath", "at each user's first logon",
     True, False),
    (lazy(r"(?i)\\command processor\\?$"), "autorun", "at every cmd start", False, False),
    (lazy(r"(?i)\\control panel\\desktop\\?$"), "scrnsave.exe", "when the screen saver starts", False, False),
    (lazy(r"(?i)\\classes\\[^\\]+\\shell\\[^\\]+\\command\\?$"), "", "whenever such a file or link is opened",
     False, False),
    (lazy(r"(?i)\\classes\\[^\\]+\\shell\\[^\\]+\\command\\?$"), "(default)",
     "whenever such a file or link is opened", False, False),
    (lazy(r"(?i)\\session manager\\appcertdlls\\?$"), "*", "in every program that starts another", True, True),
    (lazy(r"(?i)\\w32time\\timeproviders\\[^\\]+\\?$"), "dllname", "in the time service, as SYSTEM", True,
     True),
    (lazy(r"(?i)\\control\\print\\monitors\\[^\\]+\\?$"), "driver", "in the print spooler, as SYSTEM", True,
     True),
    (lazy(r"(?i)\\office test\\special\\perf\\?$"), "", "each time an Office program starts", False, True),
    (lazy(r"(?i)\\office test\\special\\perf\\?$"), "(default)", "each time an Office program starts", False,
     True),
    (lazy(r"(?i)\\office\\[\d.]+\\excel\\options\\?$"), "open*", "each time Excel starts", False, False),
)


def registry_launch(key: str, name: str) -> Optional[tuple]:
    """(how it starts, for every user, a library's path) when ``key``'s value ``name`` starts something by itself."""
    lowered = name.lower()
    for where, value_name, how, everyone, library in _LAUNCH_VALUES:
        named = value_name == "*" or lowered == value_name or value_name.endswith("*") and \
            lowered.startswith(value_name[:-1])
        if named and where.search(key):
            return how, everyone, library
    return None


def com_server(key: str) -> bool:
    """Is ``key`` a COM object's server (``…\\Classes\\CLSID\\{…}\\InprocServer32``)?"""
    return bool(_COM_SERVER.search(key))


def _fed(c: Ctx) -> str:
    from aish.safety.rules.meaning import content_of  # meaning reads this module's neighbours: imported late

    return content_of(c.seg, c.chain).strip()


# Wrappers that keep a command to start later, and the options that make them do so (read on the line: the
# shell's reading hands the command they carry to the rules as the program).
_TIMER = lazy(r"^--on-(calendar|boot|startup|active|unit-active|unit-inactive)\b")
_VALUED = frozenset({"-u", "--unit", "-p", "--property", "-M", "--machine", "-H", "--host", "--uid", "--gid",
                     "-E", "--setenv", "--description", "--slice", "--nice", "--working-directory", "--timer-property",
                     "--on-calendar", "--on-boot", "--on-startup", "--on-active", "--on-unit-active",
                     "--on-unit-inactive", "-l", "-o", "-e"})


def transient_job(words: list) -> tuple:
    """(command kept, for the whole machine, when it starts) for ``systemd-run --on-calendar=… CMD`` (a transient
    timer) and ``launchctl submit -l L -- CMD`` (a job launchd keeps alive); ('', False, '') for anything else."""
    texts = [w.text for w in words]
    if texts[:1] == ["systemd-run"] and any(_TIMER.match(t) for t in texts[1:]):
        k = 1
        while k < len(texts) and texts[k].startswith("-"):
            k += 1 if "=" in texts[k] or texts[k] not in _VALUED else 2
        return " ".join(texts[k:]), "--user" not in texts, "each time its timer fires"
    if texts[:2] == ["launchctl", "submit"] and "--" in texts:
        return " ".join(texts[texts.index("--") + 1:]), False, "whenever launchd starts it again"
    return "", False, ""
