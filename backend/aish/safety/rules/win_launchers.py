"""Effect: a command that a Windows launcher runs, judged as that command.

cmd and PowerShell hand the rest of a line to another program in more ways than ``cmd /c`` and
``powershell -c`` (read elsewhere); each takes its own options first and then the command, as words
or as one string:

- ``wsl [-d DISTRO] [-u USER] [--cd DIR] [-e|--exec|--] rm -rf ~/work``: the Linux command (wsl's own
  management options, ``--list``, ``--shutdown``, ``--unregister``, are wsl's, not a command);
- ``start [/b] [/min] [/wait] ["title"] cmd /c …``, ``call rd /s /q …``, ``conhost [--headless] cmd /c …``;
- ``psexec [-s] [-i] [-u USER] cmd /c …`` on this machine (``psexec \\\\host …`` is judged by ``fleets``),
  ``winrs -r:HOST rd /s /q …`` on another;
- Windows ``at 23:00 [/every:M] cmd /c …`` (POSIX ``at`` reads its commands from its input);
- ``Invoke-Expression 'text'``, ``iex "text"``: the text is a PowerShell command line;
- Windows' own programs that launch others: ``pcalua -a PROG -c ARGS``, ``SyncAppvPublishingServer "n; PS…"``,
  ``scriptrunner -appvscript PROG ARGS``.

The carried command is judged by the same judge one level deeper; a quiet command (``start notepad``,
``wsl ls -la``, ``call build.bat``) keeps the line quiet.
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.rules.common import Ctx
from aish.safety.lazy_regex import lazy

# wsl's options that take a value, and its own management options (what follows them is not a command).
_WSL_VALUED = frozenset({"-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id"})
_WSL_RUN = frozenset({"-e", "--exec", "--"})
# start's switches (any case): /b /min /max /wait /i /separate /shared /low … and the one valued /d /node /affinity.
_START_VALUED = frozenset({"/d", "/node", "/affinity"})
_PSEXEC_VALUED = frozenset({"-u", "-p", "-w", "-n", "-a", "-g", "-r"})
_TIME = lazy(r"^\d{1,2}:\d{2}(:\d{2})?([ap]m?)?$", re.IGNORECASE)


def _from(c: Ctx, k: int, where: str = "") -> Optional[tuple]:
    """Judge ``c.args[k:]`` as a command; the verdict says who ran it."""
    words = list(c.args[k:])
    if not words:
        return None
    found = c.check(words)
    if found is None:
        return None
    return found[0], f"{found[1]}, run by {c.prog}{where}"


def _wsl(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    k = 0
    while k < len(texts):
        t = texts[k]
        if t in _WSL_RUN:
            return _from(c, k + 1)
        if t in _WSL_VALUED:
            k += 2
            continue
        if t.startswith("-"):
            return None  # `wsl --list`, `wsl --shutdown`, `wsl --unregister X`: wsl's own business (rule_cmd_admin)
        if t == "~" and k == 0:
            k += 1  # `wsl ~`: start in the home directory
            continue
        return _from(c, k)
    return None


def _start(c: Ctx) -> Optional[tuple]:
    k = 0
    args = c.args
    while k < len(args):
        raw = args[k].raw
        t = args[k].text.lower()
        if raw[:1] in ("'", '"') and k == 0 or raw in ('""', "''"):
            k += 1  # the window's title
        elif t.startswith("/") and len(t) <= 14 and "\\" not in raw and t.count("/") == 1:
            k += 2 if t in _START_VALUED else 1
        else:
            return _from(c, k)
    return None


def _conhost(c: Ctx) -> Optional[tuple]:
    k = 0
    while k < len(c.args) and c.texts[k].startswith("--"):
        k += 2 if c.texts[k] in ("--width", "--height", "--signal", "--server") else 1
    return _from(c, k)


def _psexec_here(c: Ctx) -> Optional[tuple]:
    if c.args and c.args[0].raw.startswith(("\\\\", "@")):
        return None  # another computer or a list of them: `fleets` judges it
    k = 0
    texts = c.texts
    while k < len(texts) and texts[k].startswith("-"):
        t = texts[k].lower()
        if t == "-i" and k + 1 < len(texts) and texts[k + 1].isdigit():
            k += 2  # `-i 1`: the session to show it in
        else:
            k += 2 if t in _PSEXEC_VALUED else 1
    return _from(c, k, " as another account" if {"-s", "-u"} & {t.lower() for t in texts[:k]} else "")


def _winrs(c: Ctx) -> Optional[tuple]:
    k = 0
    host = ""
    while k < len(c.texts) and c.texts[k][:1] in ("-", "/"):
        t = c.texts[k].lower()
        if t.startswith(("-r:", "-remote:", "/r:", "/remote:")):
            host = c.texts[k].split(":", 1)[1]
        k += 1
    return _from(c, k, f" on {host}" if host else "")


def _at(c: Ctx) -> Optional[tuple]:
    args = c.args
    k = 1 if args and args[0].raw.startswith("\\\\") else 0
    if k >= len(args) or not _TIME.match(args[k].text):
        return None
    k += 1
    while k < len(args) and args[k].text.startswith("/"):
        k += 1
    return _from(c, k, ", at the time it names")


def _expression(c: Ctx) -> Optional[tuple]:
    texts = c.texts
    k = 0
    while k < len(texts) and texts[k].startswith("-"):
        if texts[k].lower() == "-command":
            break
        k += 1
    text = next((w.raw for w in c.args[k:] if not w.text.startswith("-")), "")
    if text[:1] not in ("'", '"') or len(text) < 3:
        return None  # `iex (iwr …)`, `iex $code`: what runs is not written here (downloaded_runs reads a download)
    found = c.recurse(text[1:-1])
    return (found[0], f"{found[1]}, run by {c.prog}") if found else None


def _pcalua(c: Ctx) -> Optional[tuple]:
    """``pcalua -a cmd.exe -c "/c rd /s /q C:\\Data"``: the program after -a, its arguments after -c."""
    lowered = [t.lower() for t in c.texts]
    if "-a" not in lowered or lowered.index("-a") + 1 >= len(lowered):
        return None
    k = lowered.index("-a")
    program = c.args[k + 1].raw.strip("'\"")
    arguments = c.args[lowered.index("-c") + 1].raw.strip("'\"") if "-c" in lowered[k + 2:-1] else ""
    found = c.recurse(f"{program} {arguments}")
    return (found[0], f"{found[1]}, run by {c.prog}") if found else None


def _appv(c: Ctx) -> Optional[tuple]:
    """``SyncAppvPublishingServer "n; Remove-Item …"`` runs what follows the first ``;`` as PowerShell;
    ``scriptrunner -appvscript PROG ARGS`` runs PROG."""
    lowered = [t.lower() for t in c.texts]
    text = " ".join(w.raw.strip("'\"") for w in c.args)
    if "-appvscript" in lowered:
        text = " ".join(w.raw.strip("'\"") for w in c.args[lowered.index("-appvscript") + 1:])
    elif ";" in text:
        text = text.split(";", 1)[1]
    else:
        return None
    found = c.recurse(text)
    return (found[0], f"{found[1]}, run by {c.prog}") if found else None


def rule_launched(c: Ctx) -> Optional[tuple]:
    """The command a Windows launcher runs, judged as that command (see the module's doc)."""
    name = c.prog.lower().removesuffix(".exe")
    reader = _READERS.get(name)
    return reader(c) if reader is not None and c.args else None


_READERS = {"wsl": _wsl, "start": _start, "call": lambda c: _from(c, 0), "conhost": _conhost,
            "psexec": _psexec_here, "psexec64": _psexec_here, "paexec": _psexec_here, "winrs": _winrs, "at": _at,
            "invoke-expression": _expression, "iex": _expression, "pcalua": _pcalua,
            "syncappvpublishingserver": _appv, "syncappvpublishingserver.vbs": _appv, "scriptrunner": _appv}
NAMES = tuple(_READERS) + tuple(n + ".exe" for n in ("wsl", "conhost", "psexec", "psexec64", "paexec", "winrs", "at",
                                                     "pcalua", "syncappvpublishingserver", "scriptrunner"))
RULES: dict = {name: [rule_launched] for name in NAMES}
