"""The user's shells as an agent sees them: each one's state file, and how to reach it.

While an agent is connected (``aish mcp-server``: the daemon keeps the marker file
``agents`` in the runtime dir), every shell with aish loaded rewrites
``<shell>-<pid>.state`` there at each prompt and when a command starts: cwd, the
recent commands with statuses and durations, the command running now, the
terminal's variables (the output sources) and its tty.  Builtins only, so nothing
forks on the prompt path; without the marker the shells write nothing.

The file is the request file's format (docs/protocol.md: escaped ``key=value``
lines, ``hist`` as in a request) and ends with ``end=1``: a shell rewrites it in
place, so a file read in the middle of a rewrite lacks its end and is read again.

Reaching a shell at its prompt is the terminal's job: the daemon writes a status
request (``ESC [ 5 n``) to the shell's tty, the terminal answers ``ESC [ 0 n`` as
input, and the line editor runs the key binding the integration gave that
sequence (docs/agents.md).  ``foreground`` says whether the shell, not a command
it started, has the terminal: only then may the answer be typed into it.
"""
from __future__ import annotations

import os
import re
import stat
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from aish.errors import NotFound
from aish.ipc.protocol import HistoryEntry, history_entry, unescape

STATE_FILE = re.compile(r"^(zsh|bash)-(\d{1,10})\.state$")
STATUS_REQUEST = b"\x1b[5n"  # "report your status": a VT100 terminal answers ESC [ 0 n
_KNOWN = frozenset({"v", "shell", "conv", "pid", "name", "tty", "cwd", "status", "hist", "running",
                    "since", "end"})
_MAX_STATE = 1 << 20
_READ_TRIES = 5


@dataclass
class ShellState:
    """One shell as its last state file described it."""

    shell: str  # zsh or bash
    pid: int
    conv: str = ""  # its conversation id (AISH_CONV): how its own requests name it
    name: str = ""  # AISH_NAME in that shell, if the user named it
    tty: str = ""
    cwd: str = ""
    status: Optional[int] = None
    history: list[HistoryEntry] = field(default_factory=list)  # oldest first
    running: str = ""  # the command running now; empty at the prompt
    since: Optional[float] = None  # when it started (epoch seconds)
    term: dict = field(default_factory=dict)  # the output sources' variables (tmux, kitty...)
    written: float = 0.0  # the file's mtime: when the shell last reported

    @property
    def label(self) -> str:
        """How the user and the agent name it: its AISH_NAME, else ``zsh-1234``."""
        return self.name or f"{self.shell}-{self.pid}"

    @property
    def key(self) -> str:
        return self.conv or f"{self.shell}-{self.pid}"

    def matches(self, selector: str) -> bool:
        """A name, ``zsh-1234``, the pid, the tty (``/dev/pts/3``, ``pts/3``), the tmux pane
        (``%3``) or the conversation id."""
        wanted = selector.strip()
        tty = self.tty.removeprefix("/dev/")
        return wanted in {self.label, f"{self.shell}-{self.pid}", str(self.pid), self.conv,
                          self.tty, tty, self.term.get("tmux_pane", "")} - {""}

    def describe(self, now: Optional[float] = None) -> str:
        """``zsh-1234 (pts/3, tmux %1): at the prompt, reported 3 s ago``."""
        now = time.time() if now is None else now
        where = ", ".join(x for x in (self.tty.removeprefix("/dev/"),
                                      f"tmux {self.term['tmux_pane']}" if self.term.get("tmux_pane") else "")
                          if x)
        doing = (f"running `{self.running}` for {ago(now - self.since)}" if self.running and self.since
                 else f"running `{self.running}`" if self.running else "at the prompt")
        return f"{self.label} ({self.shell}{', ' + where if where else ''}): {doing}, " \
               f"reported {ago(now - self.written)} ago"


def ago(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def parse(text: str, shell: str, pid: int, written: float = 0.0) -> Optional[ShellState]:
    """A state file's text; None when it is not complete (no ``end=1``: being rewritten)."""
    state = ShellState(shell=shell, pid=pid, written=written)
    complete = False
    for line in text.split("\n"):
        key, sep, raw = line.partition("=")
        if not sep:
            continue
        value = unescape(raw)
        if key == "hist":
            state.history.append(history_entry(value))
        elif key == "status":
            state.status = _number(value, int)
        elif key == "since":
            state.since = _number(value, float)
        elif key == "end":
            complete = True
        elif key in ("conv", "name", "tty", "cwd", "running"):
            setattr(state, key, value)
        elif key not in _KNOWN and re.fullmatch(r"[a-z_]{1,32}", key):
            state.term[key] = value
    return state if complete else None


def _number(value: str, kind):
    try:
        return kind(value.strip())
    except ValueError:
        return None


def read(path: Path) -> Optional[ShellState]:
    """The state in ``path`` (a regular file of ours), read again while it is being rewritten."""
    found = STATE_FILE.match(path.name)
    if found is None:
        return None
    for attempt in range(_READ_TRIES):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_size > _MAX_STATE:
                return None
            data = os.read(fd, _MAX_STATE)
        finally:
            os.close(fd)
        state = parse(data.decode("utf-8", "replace"), found.group(1), int(found.group(2)), st.st_mtime)
        if state is not None:
            return state
        time.sleep(0.02 * (attempt + 1) ** 2)  # a rewrite on a busy machine: up to 0.6 s in all
    return None


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def live(rundir: Path) -> list[ShellState]:
    """Every shell that reported and still runs, the most recently active first."""
    try:
        names = os.listdir(rundir)
    except OSError:
        return []
    found = []
    for name in names:
        match = STATE_FILE.match(name)
        if match is None or not alive(int(match.group(2))):
            continue
        state = read(rundir / name)
        if state is not None:
            state.tty = tty_of(state)  # (bash cannot name its terminal without a fork)
            found.append(state)
    return sorted(found, key=lambda s: s.written, reverse=True)


def pick(shells: list[ShellState], selector: str = "") -> ShellState:
    """The shell ``selector`` names, or the most recently active one when it names none (or
    names only a kind, ``zsh`` or ``bash``, as agents often do)."""
    if not shells:
        raise NotFound("no shell has reported to aish since an agent connected",
                       hint="press Enter at a prompt in the shell to use (aish loaded there)")
    if not selector.strip():
        return shells[0]
    for shell in shells:
        if shell.matches(selector):
            return shell
    kind = [s for s in shells if s.shell == selector.strip()]  # "zsh": the latest zsh
    if kind:
        return max(kind, key=lambda s: s.written)
    names = ", ".join(s.label for s in shells)
    raise NotFound(f"no shell named '{selector}'", hint=f"the shells that reported: {names}")


def tty_of(state: ShellState) -> str:
    """The shell's terminal: the one it sent (zsh's $TTY), else what the OS says of its pid."""
    if state.tty:
        return state.tty
    try:
        path = os.readlink(f"/proc/{state.pid}/fd/0")
        return path if path.startswith("/dev/") else ""
    except OSError:
        pass
    try:  # no /proc (macOS): ps knows the controlling terminal
        done = subprocess.run(["ps", "-o", "tty=", "-p", str(state.pid)], capture_output=True,
                              text=True, timeout=2.0)
    except (OSError, subprocess.SubprocessError):
        return ""
    name = done.stdout.strip()
    return f"/dev/{name}" if name and name not in ("?", "??") else ""


def foreground(pid: int) -> Optional[bool]:
    """Whether the shell's own process group has its terminal (no command running in it);
    None where the OS does not say (no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        pgrp, tpgid = int(fields[2]), int(fields[5])
    except (OSError, IndexError, ValueError):
        return None
    return tpgid == pgrp


def _controlling_tty(pid: int) -> Optional[tuple]:
    """(major, minor) of the process's controlling terminal, where /proc says."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            tty_nr = int(fh.read().rsplit(b")", 1)[1].split()[4])
    except (OSError, IndexError, ValueError):
        return None
    return (tty_nr >> 8) & 0xFFF, (tty_nr & 0xFF) | ((tty_nr >> 12) & 0xFFF00)


def poke(tty: str, pid: int) -> bool:
    """Write the status request to ``tty``, a terminal of ours that is shell ``pid``'s own
    (where /proc can say); the terminal's answer arrives as input to whatever reads the
    terminal now.  False when it cannot be written."""
    if not tty.startswith("/dev/"):
        return False
    try:
        fd = os.open(tty, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISCHR(st.st_mode) or st.st_uid != os.getuid():
            return False
        owner = _controlling_tty(pid)
        if owner is not None and owner != (os.major(st.st_rdev), os.minor(st.st_rdev)):
            return False
        return os.write(fd, STATUS_REQUEST) == len(STATUS_REQUEST)
    except OSError:
        return False
    finally:
        os.close(fd)
