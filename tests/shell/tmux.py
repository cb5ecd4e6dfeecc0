"""Drive a real interactive shell inside a private tmux server and read its screen.

Why tmux: the integration lives in the line editor (zle, readline), which only runs on a
terminal; tmux gives a real pty, real key presses and a screen we can read back, the way
zsh-autosuggestions and fzf test theirs.  Each Tmux owns one server on a unique socket, so
tests can run in parallel and a failing one cannot leave a session behind.
"""
from __future__ import annotations

import os
import re
import subprocess
import time
import uuid
from pathlib import Path
from typing import Callable, Optional, Union

from tests.helpers import pauses, wait_until  # noqa: F401 - wait_until: the shell tests' import of it

Matcher = Union[str, "re.Pattern[str]", Callable[[str], bool]]


class ScreenTimeout(AssertionError):
    pass


class Tmux:
    def __init__(self, command: list[str], env: dict[str, str], cwd: Path,
                 width: int = 100, height: int = 30, socket: Optional[Path] = None) -> None:
        # A socket path of our own (in the test's tmp dir): nothing left in tmux's shared dir.
        self.socket = str(socket or Path(env.get("TMPDIR", "/tmp")) /
                          f"aish-test-{os.getpid()}-{uuid.uuid4().hex[:8]}.sock")
        self.command = command
        self.env = env
        self.cwd = cwd
        self.width, self.height = width, height

    def _tmux(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, env=self.env, timeout=10)
        if check and done.returncode:
            raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def start(self) -> "Tmux":
        self._tmux("new-session", "-d", "-x", str(self.width), "-y", str(self.height),
                   "-c", str(self.cwd), "--", *self.command)
        self._tmux("set-option", "-g", "status", "off")
        return self

    def close(self) -> None:
        self._tmux("kill-server", check=False)
        try:
            os.unlink(self.socket)
        except OSError:
            pass

    def __enter__(self) -> "Tmux":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ input
    def type(self, text: str) -> None:
        """Type literal text (no key names)."""
        self._tmux("send-keys", "-l", "--", text)

    def keys(self, *names: str) -> None:
        """Press named keys: Enter, C-c, C-x, Escape, Up ..."""
        self._tmux("send-keys", *names)

    # ------------------------------------------------------------ output
    def screen(self) -> str:
        return self._tmux("capture-pane", "-p")

    def history(self) -> str:
        """The scrollback and the screen, wrapped rows joined into their lines."""
        return self._tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-")

    def resize(self, width: int, height: int) -> None:
        self._tmux("resize-window", "-x", str(width), "-y", str(height))

    def lines(self) -> list[str]:
        """Screen lines, trailing blank ones dropped."""
        rows = [row.rstrip() for row in self.screen().splitlines()]
        while rows and not rows[-1]:
            rows.pop()
        return rows

    def pane_pid(self) -> int:
        return int(self._tmux("display-message", "-p", "#{pane_pid}").strip())

    def wait(self, match: Matcher, timeout: float = 10.0) -> str:
        return poll_screen(self.screen, match, timeout)

    def last_line(self) -> str:
        rows = self.lines()
        return rows[-1] if rows else ""

    def wait_last_line(self, expected: str, timeout: float = 10.0) -> str:
        """Wait until the screen's last non-blank line (the prompt line) is exactly this."""
        return self.wait(lambda s: last_row(s) == expected.rstrip(), timeout)


def _matcher(match: Matcher) -> Callable[[str], bool]:
    """A text is contained, a pattern is searched, a callable decides."""
    if isinstance(match, str):
        return lambda screen: match in screen
    if isinstance(match, re.Pattern):
        return lambda screen: bool(match.search(screen))
    return match


def last_row(screen: str) -> str:
    """The screen's last non-blank row (where the prompt line is)."""
    rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
    return rows[-1] if rows else ""


def poll_screen(screen_of: Callable[[], str], match: Matcher, timeout: float,
                longest: float = 0.1) -> str:
    """Poll a terminal's screen until it matches; the last screen goes into the failure message.
    Each look is a process (``tmux capture-pane``): the pauses between looks grow
    (``tests.helpers.pauses``), so a wait of seconds on a busy machine costs tens of them."""
    test = _matcher(match)
    deadline = time.monotonic() + timeout
    screen = ""
    for pause in pauses(longest=longest):
        screen = screen_of()
        if test(screen):
            return screen
        if time.monotonic() >= deadline:
            break
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
    raise ScreenTimeout(f"screen did not match {match!r} within {timeout}s:\n{screen}")


def running(what: str, cwd: Path) -> bool:
    """A process with this command line runs in this directory (keys sent before it starts would
    go to the shell; the directory tells it from another case's)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").strip() == what.encode() \
                    and os.readlink(f"/proc/{pid}/cwd") == str(cwd):
                return True
        except OSError:
            pass
    return False


def fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))
