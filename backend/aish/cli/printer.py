"""Talking to the daemon from the terminal: send a request, print its frames as they come.

Text goes to stdout as it streams, status and warning lines to stderr (dimmed or colored on
a terminal), suggested commands after the answer; an ``E`` frame's message and hint are one
line, and its kind is the exit status (``exit_status.for_kind``).  Approval questions are
read from the terminal.

Without click: ``aish ask`` and the verbs that only talk to the daemon run through here
without loading it (``cli/quick.py``), and print exactly what click printed (``secho``'s
colors are ANSI codes added on a terminal only, each line flushed).
"""
from __future__ import annotations

import json
import os
import sys

from aish.cli import conversations
from aish.cli.exit_status import Exit, ExitStatus, for_kind

_COLORS = {"S": "bright_black", "W": "yellow", "E": "red"}
_LEVEL_COLORS = {"high": "red", "medium": "yellow", "low": "cyan"}
_ANSI = {"red": 31, "yellow": 33, "cyan": 36, "bright_black": 90}  # click.style's codes


def tty(stream) -> bool:
    return hasattr(stream, "isatty") and stream.isatty()


def echo(message: str, *, err: bool = False, fg: str | None = None) -> None:
    """One line, colored with ``fg`` (as click's ``secho``), flushed."""
    stream = sys.stderr if err else sys.stdout
    if fg:
        message = f"\x1b[{_ANSI[fg]}m{message}\x1b[0m"
    stream.write(message + "\n")
    stream.flush()


def err(message: str, tag: str = "S") -> None:
    echo(message, err=True, fg=_COLORS.get(tag) if tty(sys.stderr) else None)


# ------------------------------------------------------------------ talking to the daemon
def send(kind: str, *, argv: list | None = None, text: str = "", stdin: str = "",
         mode: str = "question", buffer: str = "", as_json: bool = False,
         conv: str | None = None) -> dict:
    from aish.daemon.client import Client

    request = {"kind": kind, "conv": conv or conversations.for_verb(), "shell": "cli", "mode": mode,
               "text": text, "buffer": buffer, "cwd": os.getcwd(), "argv": list(argv or []), "stdin": stdin,
               "interactive": _can_ask(), "cols": _columns(), "env": _request_env(argv or [])}
    printer = Printer(stream_text=not as_json)
    result = Client().request(request, on_frame=printer.frame, answer=_answer)
    printer.finish(result)
    if as_json:
        if printer.errors and not result.get("error"):
            result["error"] = printer.errors[-1]
        echo(json.dumps(result, ensure_ascii=False))
    if printer.errors:
        raise Exit(for_kind(printer.kinds[-1]))
    if result.get("cancelled"):
        raise Exit(ExitStatus.INTERRUPTED)
    return result


class Printer:
    """Turns frames into terminal output: text to stdout, status lines to stderr."""

    def __init__(self, stream_text: bool) -> None:
        self.stream_text = stream_text
        self.commands: list = []
        self.errors: list = []  # each E frame's message, as one line with its hint
        self.kinds: list = []  # and its kind (the exit status)
        self.task = ""  # a multi-step task's state after this request (N frame)
        self.ended_with_newline = True

    def frame(self, frame) -> None:
        tag, fields = frame.tag, frame.fields
        if tag == "T" and self.stream_text:
            sys.stdout.write(fields[0])
            sys.stdout.flush()
            if fields[0]:
                self.ended_with_newline = fields[0].endswith("\n")
        elif tag in ("S", "W") and self.stream_text:
            self._break_line()
            err(fields[0], tag)
        elif tag == "E":  # message, kind, hint (docs/protocol.md)
            self._break_line()
            message = fields[0] if fields else ""
            kind, hint = (fields[1] if len(fields) > 1 else "error"), (fields[2] if len(fields) > 2 else "")
            line = f"{message} ({hint})" if hint else message
            self.errors.append(line)
            self.kinds.append(kind)
            if self.stream_text:
                err(f"aish: {line}", "E")
        elif tag == "C":
            self.commands.append(fields)
        elif tag == "N":
            self.task = fields[0]

    def _break_line(self) -> None:
        if not self.ended_with_newline:
            sys.stdout.write("\n")
            sys.stdout.flush()
            self.ended_with_newline = True

    def finish(self, result: dict) -> None:
        if not self.stream_text:
            return
        self._break_line()
        for fields in self.commands:
            command, level, reason = (list(fields) + ["-", "-"])[:3]
            prefix = "→ " if tty(sys.stdout) else ""
            echo(f"{prefix}{command}")
            if level and level != "-":
                echo(f"  ! {level}: {reason}", err=True, fg=_LEVEL_COLORS.get(level) if tty(sys.stderr) else None)


def stdin_text(no_stdin: bool) -> str:
    """Extra context from stdin only when it is a pipe or a file: never a terminal (it
    would wait for typing) nor a device; ``--no-stdin`` leaves it to a ``while read`` loop."""
    import stat

    if no_stdin:
        return ""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return ""
    if not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode)):
        return ""
    return sys.stdin.read()


def _request_env(argv: list | None = None) -> dict:
    """The exported variables, for the safety preview (secret-looking names withheld), and
    the ones the command names itself (``--auth-env VAR``, ``--env VAR``), which it needs.

    Not ``complete``: a shell variable that is not exported is invisible here.
    """
    from aish.ipc.wire import env_from

    args = list(argv or [])
    named = {name: os.environ[name] for flag, name in zip(args, args[1:])
             if flag in ("--auth-env", "--env") and name in os.environ}  # first: never cut off
    return {**named, **{k: v for k, v in env_from(dict(os.environ)).items() if k not in named}}


def _can_ask() -> bool:
    return tty(sys.stdin) or os.path.exists("/dev/tty") and tty(sys.stderr)


def _answer(qid: str, question: str, text: bool = False) -> str | None:
    """Questions in ``aish ask``: one answer line from the terminal (y/n/a/s for an approval,
    the typed line for a server's question; None: nobody could answer)."""
    try:  # unbuffered bytes: a text-mode "r+" stream insists on seeking, which a tty cannot
        with open("/dev/tty", "rb+", buffering=0) as tty:
            tty.write(f"{question} ".encode())
            line = tty.readline().decode(errors="replace").strip()
    except OSError:  # no terminal after all: deny now rather than let the daemon wait
        return None if text else "n"
    if text:
        return line
    word = line.lower()
    return word[:1] if word[:1] in ("y", "a", "s") else "n"


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except OSError:
        return 80
