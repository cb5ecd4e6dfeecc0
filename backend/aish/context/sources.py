"""Where the last command's output can be read from, never by running the command again.

Exact or nothing: every source bounds a command's output by marks aish's own
hooks print (OSC 133 ``C`` where output starts, ``A``/``D`` where it ends),
never by finding the command's text on a screen.  When a source cannot tell
where the output starts it says so (``Raw.note``) and nothing is sent.

Each source takes the terminal variables the shell sent with the request
(``Request.extra``; docs/protocol.md):

- the recorder: the pty relay of ``aish shell`` answers on a private socket with
  the bytes between the marks;
- tmux: the daemon's tap on the pane (``context.tap``: ``pipe-pane``, the same
  byte stream, cut the same way);
- kitty: ``kitty @ get-text --extent all --ansi``, whose rows carry kitty's
  record of the marks (``133;A`` prompt start, ``133;C`` output start): the
  output is the text after the last command's ``C`` row, up to the next prompt;
- WezTerm: its CLI shows the screen without the marks, so it cannot bound the
  output; ``aish shell`` records it there instead.
"""
from __future__ import annotations

import base64
import json
import os
import re
import socket
import stat
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    from aish.context.tap import Taps

_PANE = re.compile(r"%\d{1,9}")
_NUMBER = re.compile(r"\d{1,9}")
# kitty's --ansi rows: `133;A` prompt start, `133;A;k=s` a continuation prompt, `133;C` output
_ROW_MARK = re.compile(r"\x1b\]133;([AC])((?:;[^\x07\x1b]*)?)(?:\x1b\\|\x07)")
# zsh's PROMPT_SP end-of-line mark as kitty renders it: one reverse-video character, blanks
_EOL_MARK = re.compile(r"\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m[^\x1b\n]\x1b\[[0-9;]*m[ \n]*(?:\x1b\[m[ \n]*)*\Z")
WEZTERM_NOTE = ("could not tell where it starts: WezTerm's CLI shows the screen without the "
                "marks ('aish shell' records output there)")
NO_MARKS = "could not tell where it starts: no output start marked before the prompt"
TYPED_AHEAD = "keys typed while it ran are mixed into it (the terminal echoed them)"
NOTHING_MARKED = "kitty marks no output for it (it printed nothing, or on the prompt's row)"

Runner = Callable[[list, dict], Optional[bytes]]
SLOW_CLIS = {"kitty": 6.0}  # kitty's CLI is a Python program of its own: slower to start


@dataclass
class Raw:
    """Bytes of one command's output and where they came from, or why there are none."""

    source: str
    data: bytes = b""
    exit: Optional[int] = None
    note: str = ""  # set: nothing is sent, and this says why
    dropped: int = 0  # bytes of its head the source no longer has


def run(argv: list, env: dict, timeout: float = 2.0) -> Optional[bytes]:
    """Run a terminal's CLI; any failure is "no output", never an error in the answer."""
    timeout = SLOW_CLIS.get(argv[0], timeout)
    try:
        done = subprocess.run(argv, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def detect(term: dict) -> Optional[str]:
    """The best source the shell's variables offer, or None."""
    if term.get("recorder"):
        return "recorder"
    if tmux_target(term) is not None:
        return "tmux"
    if term.get("kitty_window_id") and term.get("kitty_listen_on"):
        return "kitty"
    if _NUMBER.fullmatch(term.get("wezterm_pane", "")):
        return "wezterm"
    return None


def tmux_target(term: dict) -> Optional[tuple]:
    """(server socket, pane id) from ``$TMUX`` and ``$TMUX_PANE``, or None when malformed."""
    if not term.get("tmux") or not _PANE.fullmatch(term.get("tmux_pane", "")):
        return None
    return term["tmux"].split(",", 1)[0], term["tmux_pane"]


def marks_of(term: dict) -> Optional[int]:
    """The count in the shell's last D mark (``mark``, context/marks.py), None when not sent."""
    sent = term.get("mark", "")
    return int(sent) if isinstance(sent, str) and sent.isascii() and sent.isdigit() else None


def tmux(term: dict, runner: Runner = run, back: int = 1,
         taps: Optional[Taps] = None) -> Optional[Raw]:
    target = tmux_target(term)
    if taps is None or target is None:
        return None
    found = taps.find(target[0], target[1], runner, back, ended=marks_of(term))
    if found.entry is None:
        return Raw("tmux", note=found.note)
    entry = found.entry
    if entry.typed:  # the shell's D said keys typed ahead wait: their echo is among the output
        return Raw("tmux", exit=entry.exit, note=TYPED_AHEAD)
    return Raw("tmux", bytes(entry.output), exit=entry.exit, dropped=entry.dropped)


def kitty(term: dict, runner: Runner = run, back: int = 1,
          taps: Optional[Taps] = None) -> Optional[Raw]:
    if back != 1:  # an empty Enter also starts a prompt: only the last command is certain
        return None
    if term.get("typed") == "1":  # the shell found keys typed while it ran: their echo is in it
        return Raw("kitty", note=TYPED_AHEAD)
    data = runner(["kitty", "@", "--to", term["kitty_listen_on"], "get-text",
                   "--match", f"id:{term['kitty_window_id']}", "--extent", "all", "--ansi"], {})
    if data is None:
        return None
    return marked_rows("kitty", data.decode("utf-8", "replace"))


def marked_rows(source: str, text: str) -> Raw:
    """The last command's output in a screen whose rows carry OSC 133 marks.

    The question is typed at the last prompt (the last ``A``); the last command's
    block runs from the prompt before it; its output starts at the block's last
    ``C`` row and ends where the last prompt starts.  No ``C`` in that block means
    the terminal has no mark for its output (nothing printed, or the prompt was
    drawn on the output's last row, which then lost its mark); no prompt at all
    means the start is not known (cleared, or scrolled out of the history).
    """
    prompts, outputs = [], []
    for mark in _ROW_MARK.finditer(text):
        if mark.group(1) == "A" and "k=s" not in mark.group(2):
            prompts.append(mark)
        elif mark.group(1) == "C":
            outputs.append(mark)
    if not prompts:
        return Raw(source, note=NO_MARKS)
    current = prompts[-1].start()
    before = prompts[-2].end() if len(prompts) > 1 else 0
    starts = [m for m in outputs if before <= m.start() < current]
    if not starts:
        return Raw(source, note=NOTHING_MARKED if len(prompts) > 1 else NO_MARKS)
    region = _ROW_MARK.sub("", text[starts[-1].end():current])
    return Raw(source, _EOL_MARK.sub("", region.rstrip("\n")).encode("utf-8"))


def wezterm(term: dict, runner: Runner = run, back: int = 1,
            taps: Optional[Taps] = None) -> Optional[Raw]:
    return Raw("wezterm", note=WEZTERM_NOTE)


def recorder(term: dict, runner: Runner = run, back: int = 1, taps: Optional[Taps] = None,
             timeout: float = 1.0) -> Optional[Raw]:
    """Ask the relay for a finished command (``back`` 1 = the last); the socket must be ours."""
    path = term["recorder"]
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.getuid():
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(path)
            conn.sendall(b"last\n" if back == 1 else f"back {back}\n".encode("ascii"))
            chunks = []
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        entry = json.loads(b"".join(chunks) or b"null")
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict):
        return Raw("recorder", note="could not tell where it starts: the recorder saw no command")
    if entry.get("unsure"):
        return Raw("recorder", note="could not tell where it starts: the recorder missed its start")
    if entry.get("typed"):
        return Raw("recorder", exit=entry.get("exit"), note=TYPED_AHEAD)
    data = base64.b64decode(entry.get("output", ""))
    return Raw("recorder", data, exit=entry.get("exit"), dropped=int(entry.get("dropped") or 0))


SOURCES = {"tmux": tmux, "kitty": kitty, "wezterm": wezterm, "recorder": recorder}
