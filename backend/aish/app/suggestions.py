"""Reading an answer: the commands a model suggests, made safe for the prompt line.

``CMD:`` lines are the convention the system prompt asks for; every one counts, in order,
inside or outside code fences (models put them in fences about half the time), and it
goes on over the next lines wherever the shell would keep reading (a backslash at the end,
a heredoc, an open ``for``/``if``): the landed command is what the answer meant, byte for
byte, with continuations joined as the shell joins them.  Many
models ignore the convention and write a fenced shell block instead, so when an answer has
no ``CMD:`` line at all, the commands of its shell blocks are taken: fences labelled
bash/sh/shell/zsh (every complete command, ``$ `` prompts stripped, comments skipped, a
``#!`` script whole) and
console/shell-session or unlabelled fences (only the ``$ ``-prompted lines: the rest is
output).  Inline code and prose never count: explanations quote commands that are not
meant to run.  Reasoning never reaches this module: the broker splits ``<think>`` and
``reasoning_content`` out before text exists.
"""
from __future__ import annotations

import functools
import re
import unicodedata

from aish.safety.shell_input import CommandReader

_CMD_LINE = re.compile(r"^\s*(?:[-*>]\s*)?(?:`{1,3})?CMD:\s?(.*?)\s*$")
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
_SCRIPT_LANGS = {"bash", "sh", "shell", "zsh"}
_SESSION_LANGS = {"console", "shell-session", "shellsession", "terminal", ""}
# `$ `, `% `, `(venv) $ `, `user@host:~/src$ `
_PROMPT = re.compile(r"^\s*(?:\(\S+\)\s*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#%]*)?\s?)?[$%]\s+")
MAX_FROM_BLOCKS = 8  # a long script is not eight suggestions worth cycling through
_MAX_LINES = 400  # lines one command may gather (a heredoc, a loop)
_MAX_CHARS = 20000
_MAX_KEPT_LINE = 4096  # longer first lines are read every time (a key that size is a copy)


def extract_commands(text: str) -> list[str]:
    """Each non-empty ``CMD:`` command in order; without any, the shell blocks' commands."""
    lines = text.replace("\r\n", "\n").split("\n")
    commands = _cmd_lines(lines)
    return commands if commands else _block_commands(lines)[:MAX_FROM_BLOCKS]


def _cmd_lines(lines: list[str]) -> list[str]:
    """``CMD:`` commands; one goes on over the next lines where the shell would keep reading
    (a backslash at the end, a heredoc, ``|``/``&&``, an open ``if``/``for``/``{``)."""
    commands: list[str] = []
    fence_indent = -1  # inside a fence: how far its lines are indented
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        fence = _FENCE.match(line)
        if fence and not _CMD_LINE.match(line):
            fence_indent = -1 if fence_indent >= 0 else len(fence.group(1))
            continue
        match = _CMD_LINE.match(line)
        if not match:
            continue
        first = _unwrap_backticks(match.group(1).strip())
        if not first:
            continue
        command, used = _continue(first, lines, i, max(fence_indent, 0), quotes_span=False)
        i += used
        commands.append(command)
    return commands


def _unwrap_backticks(command: str) -> str:
    if command.endswith("`") and command.count("`") % 2 == 1:
        command = command[:-1].rstrip()
    if len(command) >= 2 and command[0] == command[-1] == "`":
        command = command[1:-1].strip()
    return command


def _continue(first: str, lines: list[str], start: int, indent: int, quotes_span: bool) -> tuple[str, int]:
    """The command that begins with ``first`` and how many of ``lines[start:]`` it took.

    On a ``CMD:`` line (``quotes_span`` false) an apostrophe left open is prose, not a
    multi-line string: the line stands alone.  So does a command that never ends before
    a fence, the next ``CMD:`` line or the end of its block.
    """
    if _stands_alone(first, quotes_span):
        return first, 0
    reader = CommandReader()
    reader.feed(first)
    size = len(first)
    for used, line in enumerate(lines[start:start + _MAX_LINES], 1):
        if _CMD_LINE.match(line) or _FENCE.match(line):
            break
        line = _dedent(line, indent)
        size += len(line) + 1
        if size > _MAX_CHARS:
            break
        reader.feed(line)
        if reader.complete:
            return reader.command(), used
    return first, 0


def _stands_alone(first: str, quotes_span: bool) -> bool:
    """Does the command that begins with ``first`` end on its own line?  A pure function of the
    line, kept for the lines seen lately (``_read_alone``): the same suggestion recurs across
    the answers of a conversation and the shells of one user, and reading it is most of what
    taking the commands out of an answer costs."""
    if len(first) > _MAX_KEPT_LINE:
        return _read_alone(first, quotes_span)
    return _read_alone_kept(first, quotes_span)


def _read_alone(first: str, quotes_span: bool) -> bool:
    reader = CommandReader()
    reader.feed(first)
    return reader.complete or bool(reader.open_quote and not quotes_span)


_read_alone_kept = functools.lru_cache(maxsize=1024)(_read_alone)


def _dedent(line: str, indent: int) -> str:
    """A fenced block's lines lose up to the fence's own indentation (Markdown's rule)."""
    k = 0
    while k < indent and k < len(line) and line[k] == " ":
        k += 1
    return line[k:]


def _block_commands(lines: list[str]) -> list[str]:
    commands: list[str] = []
    fence, lang, indent = "", "", 0
    body: list[str] = []
    for line in lines:
        match = _FENCE.match(line)
        if not fence:
            if match:
                fence, lang, indent, body = match.group(2), match.group(3).lower(), len(match.group(1)), []
            continue
        if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            if lang in _SCRIPT_LANGS:
                commands += _script(body, prompted_only=False)
            elif lang in _SESSION_LANGS:
                commands += _script(body, prompted_only=True)
            fence = ""
            continue
        body.append(_dedent(line, indent))
    return commands


def _script(lines: list[str], prompted_only: bool) -> list[str]:
    """The commands of one block, each read as the shell reads it (see ``shell_input``).

    A block that starts with ``#!`` is a script: it is one command, shebang and all.  In
    a session (console) block only ``$ ``-prompted lines start commands; the rest is output.
    """
    first = next((line for line in lines if line.strip()), "")
    if not prompted_only and first.startswith("#!"):
        while lines and not lines[-1].strip():
            lines = lines[:-1]
        start = next(k for k, line in enumerate(lines) if line.strip())
        return ["\n".join(lines[start:])]
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
        command, used = _continue(line, lines, i, 0, quotes_span=True)
        i += used
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
