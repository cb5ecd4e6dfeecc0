"""Effect: a command line handed to a cmdlet as an option's value, judged as that command.

Cloud, virtualisation and scheduling cmdlets take the script they run somewhere else as text:
``Invoke-AzVMRunCommand … -ScriptString 'Remove-Item C:\\Data -Recurse -Force'``, PowerCLI's
``Invoke-VMScript -VM web01 -ScriptText 'rm -rf /var/www'``, ``Set-AzVMRunCommand -SourceScript '…'``,
``New-ScheduledTaskAction -Execute cmd.exe -Argument '/c rd /s /q C:\\Data'`` (the program and its arguments).
The text is judged by the same judge one level deeper, and what it finds stands with where it runs; a quiet
script keeps the line quiet.
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import Ctx
from aish.safety.rules.triggers import triggered_by
from aish.safety.winpaths import typed_text

_SCRIPT_OPTIONS = frozenset({"-scriptstring", "-scripttext", "-sourcescript", "-script", "-commandline",
                             "-commandstring", "-scriptcontent", "-inlinescript"})


@triggered_by(("script", "-argument", "-commandline"), otherwise=False)
def may_carry_script(c: Ctx) -> bool:
    """The cheap test: a cmdlet's name and an option named for a script or an argument line."""
    return "-" in c.prog and ("script" in c.lowered or "-argument" in c.lowered or "-commandline" in c.lowered)


def rule_script_option(c: Ctx) -> Optional[tuple]:
    lowered = [t.lower() for t in c.texts]
    best: Optional[tuple] = None
    for k, t in enumerate(lowered[:-1]):
        name = t.split(":", 1)[0]
        text = ""
        if name in _SCRIPT_OPTIONS:
            text = typed_text(c.args[k + 1])
        elif name == "-argument" and "-execute" in lowered:
            program = typed_text(c.args[lowered.index("-execute") + 1]) if lowered.index("-execute") + 1 < len(
                lowered) else ""
            text = f"{program} {typed_text(c.args[k + 1])}"
        found = c.recurse(text) if text.strip() else None
        if found is not None and (best is None or found[0] > best[0]):
            best = found[0], f"{found[1]}, run by {c.prog}"
    return best
