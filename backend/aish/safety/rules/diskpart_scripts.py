"""Effect: what diskpart does, read from the script echoed into it.

``echo list disk | diskpart``, ``(echo select disk 0 & echo detail disk) | diskpart`` only print; ``echo select
disk 1 ^& clean | diskpart``, ``(echo sel disk 2 & echo clean all) | diskpart`` erase a disk.  A script
diskpart reads from a file (``diskpart /s wipe.txt``), from ``type``, or typed at its own prompt cannot be
read here: what it does is up to it (medium).
"""
from __future__ import annotations

from typing import Optional

from aish.safety.rules.common import HIGH, MEDIUM, Ctx

# diskpart's commands that only print or choose what later commands act on (any prefix of 3+ letters works).
_READS = ("list", "detail", "select", "help", "exit", "rem", "filesystems")
_ERASES = ("clean", "format", "delete")


def _command(word: str) -> str:
    w = word.lower().lstrip("(")
    return next((full for full in _READS + _ERASES if len(w) >= 3 and full.startswith(w)), w)


def rule_diskpart(c: Ctx) -> Optional[tuple]:
    """diskpart judged by the commands echoed into it, else by what it can do."""
    if not c.chain and not c.texts and not any(r.op.startswith("<") for r in c.seg.redirects):
        return None  # `diskpart` alone: its prompt, where nothing happens until a command is typed
    fed: list = []
    for seg in c.chain:
        words = [w.text for w in seg.words]
        if words[:1] in (["echo"], ["echo."], ["(echo"]):
            words = words[1:]
        elif words[:1] in (["type"], ["cat"], ["Get-Content"], ["gc"]) or not words:
            fed = []
            break  # a script file: not read here
        fed.append(words)
    if c.texts and not c.texts[0].startswith("/"):
        fed.append(c.texts)  # a script line handed on as diskpart's words (`… | diskpart` read by another rule)
    commands = [_command(words[0]) for words in fed if words]
    if any(k in _ERASES for k in commands):
        return HIGH, f"diskpart erases the disk or volume its script selects ({c.text})"
    if not commands or any(k not in _READS for k in commands):
        return MEDIUM, f"diskpart cleans, formats and partitions disks as its script says ({c.text})"
    return None  # only lists and details are printed
