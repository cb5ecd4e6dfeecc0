"""Reading an answer: the ``CMD:`` lines a model suggests.

Every ``CMD:`` line counts, in order, inside or outside code fences (models put
them in fences about half the time).  Reasoning never reaches this function:
the broker splits ``<think>`` and ``reasoning_content`` out before text exists.
"""
from __future__ import annotations

import re

_CMD_LINE = re.compile(r"^\s*(?:[-*>]\s*)?(?:`{1,3})?CMD:\s?(.*?)\s*$")


def extract_commands(text: str) -> list[str]:
    """Return each non-empty ``CMD:`` command in order, stripped of stray backticks."""
    commands: list[str] = []
    for line in text.splitlines():
        match = _CMD_LINE.match(line)
        if not match:
            continue
        command = match.group(1).strip()
        if command.endswith("`") and command.count("`") % 2 == 1:
            command = command[:-1].rstrip()
        if len(command) >= 2 and command[0] == command[-1] == "`":
            command = command[1:-1].strip()
        if command:
            commands.append(command)
    return commands
