"""The last command's output as a question's context: pick a source, read it, clean it.

Chosen per request from the terminal variables the shell sent; ``output=off``
from the shell or ``context.command_output = "off"`` turns it off.  Exact or
nothing (``context.sources``): when the source cannot tell where the output
starts, ``note`` says so and nothing is attached.  What is
returned is not yet redacted: it joins the user turn, and the whole message
goes through the conversation's redactor like everything else sent.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from aish.config.schema import ContextConfig
from aish.context import sanitize, sources

if TYPE_CHECKING:
    from aish.context.tap import Taps

HOW_TO_GET = ("the output of commands is not available here: run the shell inside tmux or kitty "
              "(allow_remote_control + listen_on), or start it with 'aish shell'")


PRINTED_NOTHING = "it printed nothing"


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
            cut = ", head and tail" if self.cut else ""
            return (f"sent: {plural(self.lines, 'line')} of output of '{_short(self.command)}' "
                    f"({self.source}{cut})")
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


def gather(term: dict, command: str, cfg: ContextConfig, runner: sources.Runner = sources.run,
           back: int = 1, taps: Optional[Taps] = None,
           exit_code: Optional[int] = None) -> Optional[Output]:
    """A command's output (``back`` 1 = the last command, 2 the one before...), or None when
    there is no source (the caller says how to get one).

    Output(…) with empty text means "a source, but nothing to send" and ``note`` says why
    (off, printed nothing, full-screen, the start unknown).  ``exit_code`` is the command's
    status as the shell recorded it: output the source saw end with another status belongs
    to another command, and is not sent.
    """
    if cfg.command_output == "off" or term.get("output") == "off":
        return Output(note="")
    name = sources.detect(term)
    if name is None:
        return None
    raw = sources.SOURCES[name](term, runner, back, taps)
    if raw is None:
        return Output(source=name, command=command, note=f"{name} gave nothing", back=back)
    if raw.note:
        return Output(source=name, command=command, note=raw.note, back=back)
    if exit_code is not None and raw.exit is not None and raw.exit != exit_code:
        return Output(source=name, command=command, back=back,
                      note=f"could not tell where it starts: the output {name} holds ended "
                           f"with status {raw.exit}, this command with {exit_code}")
    cleaned = sanitize.clean(raw.data, cfg.output_max_lines, cfg.output_max_bytes)
    note = cleaned.note or ("" if cleaned.text else PRINTED_NOTHING)
    return Output(source=name, command=command, text=cleaned.text, lines=cleaned.lines,
                  cut=cleaned.cut or raw.dropped > 0, note=note, back=back)


def plural(n: int, noun: str) -> str:
    """``1 line``, ``2 lines``: a status line never says "1 lines"."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _short(command: str, width: int = 40) -> str:
    command = " ".join(command.split())
    return command if len(command) <= width else command[: width - 1] + "…"
