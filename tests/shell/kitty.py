"""A real kitty, under a virtual X server (xvfb-run), driven through its remote control:
the terminal side of the kitty output source, with the interface of tests/shell/tmux.py that
the output cases use (type, keys, wait, screen, history, cwd)."""
from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path
from typing import Optional

from tests.shell.tmux import Matcher, poll_screen, wait_until

KEYS = {"Enter": "\r", "C-c": "\x03", "C-u": "\x15"}


class Kitty:
    def __init__(self, command: list, env: dict, cwd: Path, socket: Path,
                 columns: int = 40, lines: int = 30) -> None:
        self.command, self.env, self.cwd = command, env, cwd
        self.to = f"unix:{socket}"
        self.columns, self.lines = columns, lines
        self.proc: Optional[subprocess.Popen] = None

    def start(self) -> "Kitty":
        self.proc = subprocess.Popen(
            ["xvfb-run", "-a", "-s", "-screen 0 800x600x24",
             "kitty", "-o", "allow_remote_control=yes", "--listen-on", self.to,
             "-o", "shell_integration=disabled", "-o", "remember_window_size=no",
             "-o", f"initial_window_width={self.columns}c",
             "-o", f"initial_window_height={self.lines}c", "--directory", str(self.cwd),
             *self.command],
            env=self.env, cwd=self.cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        wait_until(lambda: self._remote("ls", check=False) is not None, timeout=30,
                   what="kitty's remote control")
        return self

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # xvfb-run, its X server and kitty
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)

    def _remote(self, *args: str, check: bool = True) -> Optional[str]:
        try:
            done = subprocess.run(["kitty", "@", "--to", self.to, *args], capture_output=True,
                                  text=True, env=self.env, timeout=20)
        except subprocess.TimeoutExpired:
            if check:
                raise
            return None
        if done.returncode:
            if check:
                raise RuntimeError(f"kitty @ {' '.join(args)}: {done.stderr.strip()[-300:]}")
            return None
        return done.stdout

    # ------------------------------------------------------------ input
    def type(self, text: str) -> None:
        self._remote("send-text", "--", text.replace("\\", "\\\\"))

    def keys(self, *names: str) -> None:
        for name in names:
            self._remote("send-text", "--", KEYS.get(name, name))

    # ------------------------------------------------------------ output
    def screen(self) -> str:
        return self._remote("get-text", "--extent", "screen") or ""

    def history(self) -> str:
        """Scrollback and screen, wrapped rows joined (kitty joins them itself)."""
        return self._remote("get-text", "--extent", "all") or ""

    def wait(self, match: Matcher, timeout: float = 15.0) -> str:
        return poll_screen(self.screen, match, timeout, longest=0.2)
