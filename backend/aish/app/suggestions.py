"""Reading an answer: the commands a model suggests, made safe for the prompt line.

``CMD:`` lines are the convention the system prompt asks for; every one counts, in order,
inside or outside code fences (models put them in fences about half the time).  Many
models ignore the convention and write a fenced shell block instead, so when an answer has
no ``CMD:`` line at all, the commands of its shell blocks are taken: fences labelled
bash/sh/shell/zsh (every line a command, ``$ `` prompts stripped, comments skipped) and
console/shell-session or unlabelled fences (only the ``$ ``-prompted lines: the rest is
output).  Inline code and prose never count: explanations quote commands that are not
meant to run.  Reasoning never reaches this module: the broker splits ``<think>`` and
``reasoning_content`` out before text exists.
"""
from __future__ import annotations

import re
import unicodedata

_CMD_LINE = re.compile(r"^\s*(?:[-*>]\s*)?(?:`{1,3})?CMD:\s?(.*?)\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+-]*)")
_SCRIPT_LANGS = {"bash", "sh", "shell", "zsh"}
_SESSION_LANGS = {"console", "shell-session", "shellsession", "terminal", ""}
_PROMPT = re.compile(r"^\s*(?:\(\S+\)\s*)?[$%]\s+")   # `$ `, `% `, `(venv) $ `
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
MAX_FROM_BLOCKS = 8  # a long script is not eight suggestions worth cycling through


def extract_commands(text: str) -> list[str]:
    """Each non-empty ``CMD:`` command in order; without any, the shell blocks' commands."""
    commands = _cmd_lines(text)
    return commands if commands else _block_commands(text)[:MAX_FROM_BLOCKS]


def _cmd_lines(text: str) -> list[str]:
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


def _block_commands(text: str) -> list[str]:
    commands: list[str] = []
    fence, lang, body = "", "", []
    for line in text.splitlines():
        match = _FENCE.match(line)
        if not fence:
            if match:
                fence, lang, body = match.group(1), match.group(2).lower(), []
            continue
        if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            if lang in _SCRIPT_LANGS:
                commands += _script(body, prompted_only=False)
            elif lang in _SESSION_LANGS:
                commands += _script(body, prompted_only=True)
            fence = ""
            continue
        body.append(line)
    return commands


def _script(lines: list[str], prompted_only: bool) -> list[str]:
    """The commands of one block: continuation lines joined, a heredoc kept with its command."""
    commands: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        prompted = _PROMPT.match(line)
        if prompted:
            line = line[prompted.end():]
        elif prompted_only:
            continue
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [line]
        while parts[-1].endswith("\\") and i < len(lines):
            parts[-1] = parts[-1][:-1].rstrip()
            nxt = lines[i].strip()
            i += 1
            parts.append(nxt[2:] if nxt.startswith("> ") else nxt)
        command = " ".join(p for p in parts if p)
        heredoc = _HEREDOC.search(command)
        if heredoc:
            body = []
            while i < len(lines):
                body.append(lines[i])
                i += 1
                if body[-1].strip() == heredoc.group(1):
                    break
            command = "\n".join([command, *body])
        commands.append(command)
    return commands


# Characters that change what the prompt line shows or does without being seen: format
# characters (zero-width spaces and joiners, bidi embeddings/overrides/isolates, the BOM,
# soft hyphens) and line/paragraph separators.
_INVISIBLE_CATEGORIES = {"Cf", "Zl", "Zp"}


def clean_command(command: str) -> tuple[str, list[str]]:
    """The command without invisible and bidi control characters, and the code points removed."""
    removed = [ch for ch in command if unicodedata.category(ch) in _INVISIBLE_CATEGORIES]
    if not removed:
        return command, []
    cleaned = "".join(ch for ch in command if unicodedata.category(ch) not in _INVISIBLE_CATEGORIES)
    return cleaned.strip(), [f"U+{ord(ch):04X}" for ch in removed]


def removed_note(removed: list[str]) -> str:
    """The line telling the user what was taken out of a suggested command."""
    names = ", ".join(dict.fromkeys(removed))
    return (f"removed {len(removed)} invisible or text-direction character"
            f"{'s' if len(removed) != 1 else ''} ({names}) from the suggested command")
