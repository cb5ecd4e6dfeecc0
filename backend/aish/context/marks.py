"""Cut a shell's raw output stream into commands at the OSC 133 marks aish's hooks print.

Two readers see the bytes a shell writes to its terminal, unchanged: aish's pty
recorder (``aish shell``) and the daemon's tap on a tmux pane (``pipe-pane``).
Both cut the stream here: what lies between ``C`` (the command starts: zsh's
preexec, bash's PS0) and ``D;<exit>`` (it finished: precmd) is that command's
output, byte for byte.  The boundary is the mark itself, never the command's text
on a screen, so right prompts, two-line prompts, long command lines and ``clear``
cannot move it.

A reader that starts in the middle of a command sees its ``D`` without a ``C``:
that command is kept as ``unsure`` (its start is unknown), so it is never taken
for the one before.  zsh's PROMPT_SP (the ``%`` and the spaces it prints after
output that did not end its line, before precmd, so before ``D``) is not the
command's output and is dropped when ``D`` arrives.

Each ``D`` of aish's hooks also carries the shell's count of the commands it ended
(``D;<exit>;aish=<n>``), and every request from a tmux pane sends the count it had
(``mark``): a reader behind the shell (tmux and ``cat`` delay the copy on a loaded
host) knows it has not yet seen the command the request is about.

Keys typed while a command runs are echoed by the terminal among its output.  The
recorder sees them pass (``keys_echoed``); a reader that sees only the output (the
tmux tap) learns it from the shell: keys still waiting unread when its hook prints
``D`` were typed ahead, and it adds ``aish_typed=1`` (``D;<exit>;aish=<n>;aish_typed=1``).

Bounded: the last ``KEEP`` commands, the last ``PER_COMMAND`` bytes of each.
"""
from __future__ import annotations

import base64
import collections
import re
from dataclasses import dataclass, field
from typing import Optional

KEEP = 16
PER_COMMAND = 64 * 1024
MARK = re.compile(rb"\x1b\]133;([ABCD])([^\x07\x1b]{0,64})(?:\x07|\x1b\\)")
ALT_SCREEN = re.compile(rb"\x1b\[\?(?:1049|1047|47)h")
_PARTIAL_MAX = 80  # an unterminated mark longer than this is not a mark
_SGR = rb"(?:\x1b\[[0-9;]*m)*"


@dataclass
class Entry:
    """One command's output (its last PER_COMMAND bytes) and how it ended."""

    output: bytearray = field(default_factory=bytearray)
    exit: Optional[int] = None
    fullscreen: bool = False
    dropped: int = 0  # bytes that did not fit (the head is gone)
    unsure: bool = False  # its start was not seen: the reader began during the command
    typed: bool = False  # keys typed while it ran were echoed among its output (see CommandLog)

    def add(self, data: bytes) -> None:
        if ALT_SCREEN.search(data):
            self.fullscreen = True
        self.output += data
        over = len(self.output) - PER_COMMAND
        if over > 0:
            del self.output[:over]
            self.dropped += over

    def finish(self, exit_code: Optional[int]) -> None:
        self.exit = exit_code
        start = max(0, len(self.output) - 4096)
        cut = prompt_sp_start(bytes(self.output[start:]))
        if cut is not None:
            del self.output[start + cut:]

    def to_json(self) -> dict:
        return {"exit": self.exit, "fullscreen": self.fullscreen, "dropped": self.dropped,
                "unsure": self.unsure, "typed": self.typed,
                "output": base64.b64encode(bytes(self.output)).decode("ascii")}


def prompt_sp_start(tail: bytes) -> Optional[int]:
    """Where zsh's PROMPT_SP begins at the end of ``tail``, or None.

    zsh prints it after every command, before precmd: the end-of-line mark (``%`` in
    bold reverse by default: its visible width is ``w``), enough spaces to wrap a partial
    line, ``\\r``, ``w`` spaces, ``\\r``.  Only that exact shape is recognised.
    """
    found = re.search(rb"( *)\r( *)\r\Z", tail)
    if found is None:
        return None
    width = len(found.group(2))
    mark = re.search(_SGR + (rb"[^\x1b\r\n]" + _SGR) * width + rb"\Z", tail[:found.start()])
    return mark.start() if mark is not None else None


class CommandLog:
    """Cuts the output stream into commands at OSC 133 marks; marks may span reads."""

    def __init__(self, keep: int = KEEP) -> None:
        self.done: collections.deque = collections.deque(maxlen=keep)
        self.current: Optional[Entry] = None
        self.ended = 0  # the highest count a D carried (``aish=<n>``), 0 before one did
        self._carry = b""
        self._last = b""  # the kind of the last mark read
        self._echo_due = False  # keys were echoed after the last B: the next C's output holds them

    def keys_echoed(self) -> None:
        """Keys just went to a terminal that echoes them: the echo comes after every byte read so
        far, so among the running command's output; after a prompt's end (``B``), with no command
        running, the line was just accepted and its ``C`` may be on its way before the echo: the
        next command's.  (After ``D`` or ``A`` it falls on the prompt, in no command.)"""
        if self.current is not None:
            self.current.typed = True
        elif self._last == b"B":
            self._echo_due = True

    def feed(self, data: bytes) -> None:
        data = self._carry + data
        self._carry = b""
        pos = 0
        for match in MARK.finditer(data):
            self._text(data[pos:match.start()])
            self._mark(match.group(1), match.group(2))
            pos = match.end()
        rest = data[pos:]
        cut = rest.rfind(b"\x1b")
        if cut >= 0 and len(rest) - cut < _PARTIAL_MAX and b"\x07" not in rest[cut:] \
                and (b"\x1b]133;".startswith(rest[cut:]) or rest[cut:].startswith(b"\x1b]133;")):
            self._carry = rest[cut:]
            rest = rest[:cut]
        self._text(rest)

    def _text(self, data: bytes) -> None:
        if data and self.current is not None:
            self.current.add(data)

    def _mark(self, kind: bytes, args: bytes) -> None:
        self._last, due, self._echo_due = kind, self._echo_due, False
        if kind == b"C":
            self.current = Entry(typed=due)
        elif kind == b"D":
            fields = args.lstrip(b";").split(b";")
            code = fields[0]
            for extra in fields[1:]:
                if extra.startswith(b"aish=") and extra[5:].isdigit():
                    self.ended = max(self.ended, int(extra[5:]))
            entry = self.current if self.current is not None else Entry(unsure=True)
            entry.typed = entry.typed or b"aish_typed=1" in fields[1:]
            entry.finish(int(code) if code.isdigit() else None)
            self.done.append(entry)
            self.current = None
        elif kind == b"A" and self.current is not None:  # a prompt without D: the command ended
            self.current.finish(None)
            self.done.append(self.current)
            self.current = None

    def entry(self, n: int) -> Optional[Entry]:
        """The n-th finished command counting back from the last (1 = the last)."""
        return self.done[-n] if 1 <= n <= len(self.done) else None

    def last(self) -> Optional[dict]:
        return self.back(1)

    def back(self, n: int) -> Optional[dict]:
        found = self.entry(n)
        return found.to_json() if found is not None else None
