"""Launchers read on the whole line, for ``autostart_writable``'s class (a way back in planted): where the shell's
reading splits what one launcher keeps, or hands it on as the program, ``assess`` asks these once per line, each
behind a word the line must hold.

- WMI's permanent consumers: every command or script field a ``CommandLineEventConsumer`` or
  ``ActiveScriptEventConsumer`` keeps (a hashtable's ``;`` splits PowerShell's ``@{…}``);
- ``systemd-run --on-calendar|--on-boot… CMD`` and ``launchctl submit -- CMD``: a command kept to start again;
- a BITS job told by ``/SetNotifyCmdLine`` to run the file its ``/addfile`` or ``/transfer`` fetched (a download run);
- a Run key (or Winlogon, IFEO, cmd's AutoRun, a logon script) written by code in any language (.NET's
  ``Registry::SetValue``/``RegistryKey.SetValue``, Python's ``winreg.SetValueEx``, WSH's ``RegWrite``).

Each kept command is judged as the launchers' are: ``autostart_payloads.payload`` (a shell, a download run, an
administrator, hidden code, an account), then a place others can write (``autostart_writable.open_place``).
"""
from __future__ import annotations

import re
from typing import Optional

from aish.safety.lazy_regex import lazy
from aish.safety.rules.autostart_kept import event_consumer, transient_job
from aish.safety.rules.autostart_payloads import payload
from aish.safety.rules.autostart_writable import open_place
from aish.safety.rules.common import HIGH, MEDIUM
from aish.safety.winpaths import typed_text

_INTERPRETERS = lazy(r"^(\S*/)?((ba|da|z|k|fi)?sh|python[\d.]*|perl|ruby|node|php)$")


def line_event_consumer(text: str) -> Optional[tuple]:
    """A permanent WMI event consumer whose command is a way back in or starts from a place others can write: it
    runs as SYSTEM on every event it is bound to (``autostart_kept.event_consumer`` reads it on the line)."""
    best: Optional[tuple] = None
    for command in event_consumer(text).splitlines():
        found = payload(command)
        if found is not None:
            return found[0], f"{found[1]} on a WMI event, as SYSTEM ({command[:60]})"
        place = open_place(command, True)
        best = best or ((HIGH, f"starts {place} on a WMI event, as SYSTEM: whoever writes there chooses what runs "
                               f"({command[:60]})") if place else None)
    return best


def line_transient_jobs(segs: list) -> Optional[tuple]:
    """``systemd-run --on-boot=1m CMD``, ``launchctl submit -l L -- CMD``: a command kept to start again later,
    judged as the launchers above (``assess`` asks for lines holding ``--on-`` or ``submit``)."""
    best: Optional[tuple] = None
    for seg in segs:
        words = seg.words[1:] if seg.words[:1] and seg.words[0].text in ("sudo", "doas") else seg.words
        command, machine, when = transient_job(words)
        if not command:
            continue
        machine = machine or words is not seg.words
        scope = "for the whole machine" if machine else "for this user"
        found = payload(command)
        if found is not None:
            return found[0], f"{found[1]} {when}, {scope} ({command[:60]})"
        run = command.split()[:2]  # the program, or the script an interpreter runs: `touch /tmp/x` runs no /tmp file
        place = open_place(run[1] if len(run) > 1 and _INTERPRETERS.match(run[0]) else run[0], machine)
        if place:
            best = best or (HIGH if machine else MEDIUM,
                            f"starts {place} {when}, {scope}: whoever writes there chooses what runs ({command[:60]})")
    return best


def line_bits_download_run(segs: list) -> Optional[tuple]:
    """A BITS job told to run, when its transfer finishes, the file it downloads (``bitsadmin /addfile J URL F &
    bitsadmin /SetNotifyCmdLine J F NUL``): a download run, again each time the job is resumed (``assess`` asks
    for lines holding ``NotifyCmdLine`` in any case)."""
    fetched: dict = {}
    for seg in segs:
        texts = [typed_text(w) for w in seg.words]
        lowered = [t.lower() for t in texts]
        if lowered[:1] not in (["bitsadmin"], ["bitsadmin.exe"]):
            continue
        for verb in ("/addfile", "/transfer"):
            if verb in lowered and len(texts) >= 3:
                url, local = texts[-2], texts[-1]
                if re.match(r"(?i)^(https?|ftp)://|^\\\\", url):
                    fetched[_base(local)] = url
        if "/setnotifycmdline" in lowered:
            at = lowered.index("/setnotifycmdline")
            program = _base(texts[at + 2]) if len(texts) > at + 2 else ""
            given = " ".join(texts[at + 3:at + 4]).lower() if _RUNNERS.match(program) else ""
            for name, url in fetched.items():
                if name and (name == program or name in given):
                    return HIGH, f"runs what a BITS job downloads ({url}) each time its transfer finishes " \
                                 f"({' '.join(texts[:at + 3])[:80]})"
    return None


_RUNNERS = lazy(r"^(cmd|powershell|pwsh|wscript|cscript|mshta|rundll32|regsvr32|msiexec)(\.exe)?$")


def _base(path: str) -> str:
    return path.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1].lower()


# Code that writes a registry value (.NET's Registry/RegistryKey SetValue, Python's winreg.SetValueEx, WSH's
# RegWrite) into a key that starts programs by itself.
_CODE_WRITE = lazy(r"(?i)\b(setvalue(ex)?|regwrite)\b")
_CODE_LAUNCH_KEY = lazy(r"(?i)currentversion\\+(run|runonce|runservices)(once)?(ex)?\b|\\winlogon\b|"
                        r"image file execution options|command processor|\benvironment\b.*userinitmprlogonscript")
_QUOTED = lazy(r"\"((?:[^\"\\]|\\.)*)\"|'([^']*)'")


def line_code_registry(text: str) -> Optional[tuple]:
    """A Run key (or Winlogon, IFEO, cmd's AutoRun, a logon script) written by code in any language, the value
    judged as the launchers' (``assess`` asks for lines holding ``SetValue`` or ``RegWrite``)."""
    if not _CODE_WRITE.search(text) or not _CODE_LAUNCH_KEY.search(text):
        return None
    machine = bool(re.search(r"(?i)\bhklm\b|hkey_local_machine|localmachine", text))
    scope = "for the whole machine" if machine else "for this user"
    best: Optional[tuple] = None
    for m in _QUOTED.finditer(text):
        value = (m.group(1) or m.group(2) or "").replace('\\"', '"')
        found = payload(value)
        if found is not None:
            return found[0], f"{found[1]} at every logon, {scope}: code writes it into a key that starts it " \
                             f"({value[:60]})"
        place = open_place(value, machine)
        if place and best is None:
            best = (HIGH if machine else MEDIUM,
                    f"starts {place} at every logon, {scope}: code writes it into a key that starts it ({value[:60]})")
    return best
