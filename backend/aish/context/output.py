"""The last command's output as a question's context: pick a source, read it, clean it.

Chosen per request from the terminal variables the shell sent; ``output=off``
from the shell or ``context.command_output = "off"`` turns it off.  What is
returned is not yet redacted: it joins the user turn, and the whole message
goes through the conversation's redactor like everything else sent.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from aish.config.schema import ContextConfig
from aish.context import sanitize, sources

HOW_TO_GET = ("the output of commands is not available here: run the shell inside tmux, kitty "
              "(allow_remote_control + listen_on) or WezTerm, or start it with 'aish shell'")


@dataclass
class Output:
    """What will be sent: ``text`` (cleaned, capped), or a ``note`` saying why not."""

    source: Optional[str] = None
    command: str = ""
    text: str = ""
    lines: int = 0
    cut: bool = False
    note: str = ""
    back: int = 1  # 1: the last command; 2: the one before...

    def status(self) -> str:
        """The one line telling the user what left the machine (or why nothing did)."""
        if self.text:
            return (f"sent: {plural(self.lines, 'line')} of output of '{_short(self.command)}' "
                    f"({self.source})")
        if self.note:
            return f"output of '{_short(self.command)}' not sent: {self.note}"
        return ""

    def block(self) -> str:
        """The text appended to the question."""
        if not self.text:
            return ""
        which = "the last command" if self.back == 1 else "an earlier command"
        head = f"[output of {which}: {self.command}]" if self.command else f"[output of {which}]"
        return f"{head}\n{self.text}"


def gather(term: dict, command: str, cfg: ContextConfig,
           runner: sources.Runner = sources.run, back: int = 1) -> Optional[Output]:
    """A command's output (``back`` 1 = the last command, 2 the one before...), or None when
    there is no source (the caller says how to get one).

    Output(…) with empty text means "a source, but nothing to send" (off, empty, full-screen).
    """
    if cfg.command_output == "off" or term.get("output") == "off":
        return Output(note="")
    name = sources.detect(term)
    if name is None:
        return None
    raw = sources.SOURCES[name](term, command, runner, back)
    if raw is None:
        return Output(source=name, command=command, note=f"{name} gave nothing")
    if raw.fullscreen:
        return Output(source=name, command=command, note="a full-screen program")
    cleaned = sanitize.clean(raw.data, cfg.output_max_lines, cfg.output_max_bytes)
    return Output(source=name, command=command, text=cleaned.text, lines=cleaned.lines,
                  cut=cleaned.cut, note=cleaned.note, back=back)


def plural(n: int, noun: str) -> str:
    """``1 line``, ``2 lines``: a status line never says "1 lines"."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _short(command: str, width: int = 40) -> str:
    command = " ".join(command.split())
    return command if len(command) <= width else command[: width - 1] + "…"
