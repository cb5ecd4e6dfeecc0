"""Where the last command's output can be read from, never by running the command again.

Each source takes the terminal variables the shell sent with the request
(``Request.extra``; docs/protocol.md) and returns raw bytes or None:

- tmux: ``capture-pane`` of the shell's own pane (the daemon runs it);
- kitty: ``kitty @ get-text --extent last_cmd_output`` (remote control on);
- WezTerm: ``wezterm cli get-text`` of the shell's pane;
- aish's recorder: the pty relay of ``aish shell`` answers on a private socket.

Screen sources (tmux, WezTerm) give the screen, not the command: the output
is the part between the line that ran the command and the current prompt.
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
from typing import Callable, Optional

SCREEN_LINES = 500  # how far back a screen capture looks
_PANE = re.compile(r"%\d{1,9}")
_NUMBER = re.compile(r"\d{1,9}")

Runner = Callable[[list, dict], Optional[bytes]]


@dataclass
class Raw:
    """Bytes of one command's output and where they came from."""

    source: str
    data: bytes
    fullscreen: bool = False
    exit: Optional[int] = None


def run(argv: list, env: dict, timeout: float = 2.0) -> Optional[bytes]:
    """Run a terminal's CLI; any failure is "no output", never an error in the answer."""
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
    if term.get("tmux") and _PANE.fullmatch(term.get("tmux_pane", "")):
        return "tmux"
    if term.get("kitty_window_id") and term.get("kitty_listen_on"):
        return "kitty"
    if _NUMBER.fullmatch(term.get("wezterm_pane", "")):
        return "wezterm"
    return None


def tmux(term: dict, command: str, runner: Runner = run, back: int = 1) -> Optional[Raw]:
    socket_path = term["tmux"].split(",", 1)[0]
    pane = term["tmux_pane"]
    base = ["tmux", "-S", socket_path] if socket_path else ["tmux"]
    alt = runner(base + ["display-message", "-p", "-t", pane, "#{alternate_on}"], {})
    if alt is not None and alt.strip() == b"1":
        return Raw("tmux", b"", fullscreen=True)
    screen = runner(base + ["capture-pane", "-p", "-J", "-S", f"-{SCREEN_LINES}", "-t", pane], {})
    if screen is None:
        return None
    return Raw("tmux", after_command(screen, command))


def kitty(term: dict, command: str, runner: Runner = run, back: int = 1) -> Optional[Raw]:
    if back != 1:  # kitty keeps the last command's output only
        return None
    data = runner(["kitty", "@", "--to", term["kitty_listen_on"], "get-text",
                   "--match", f"id:{term['kitty_window_id']}", "--extent", "last_cmd_output"], {})
    return None if data is None else Raw("kitty", data)


def wezterm(term: dict, command: str, runner: Runner = run, back: int = 1) -> Optional[Raw]:
    env = {"WEZTERM_UNIX_SOCKET": term["wezterm_socket"]} if term.get("wezterm_socket") else {}
    screen = runner(["wezterm", "cli", "get-text", "--pane-id", term["wezterm_pane"],
                     "--start-line", f"-{SCREEN_LINES}"], env)
    return None if screen is None else Raw("wezterm", after_command(screen, command))


def recorder(term: dict, command: str, runner: Runner = run, back: int = 1,
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
        return None
    data = base64.b64decode(entry.get("output", ""))
    return Raw("recorder", data, fullscreen=bool(entry.get("fullscreen")), exit=entry.get("exit"))


SOURCES = {"tmux": tmux, "kitty": kitty, "wezterm": wezterm, "recorder": recorder}


def after_command(screen: bytes, command: str) -> bytes:
    """The lines between the last line that ran ``command`` and the next prompt.

    The next prompt is the next line that starts like the command's own line
    did (its prompt); the shell may have drawn more below it (the question,
    a spinner).  Without a prompt to go by, the bottom non-empty line is taken
    for the prompt the question was typed on.  When the command's own line has
    scrolled away, everything above that prompt is what is left of its output.
    """
    lines = screen.decode("utf-8", errors="replace").rstrip("\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    wanted = command.strip()
    start, prompt = None, ""
    if wanted:
        for i in range(len(lines) - 2, -1, -1):
            if lines[i].rstrip().endswith(wanted):
                start, prompt = i + 1, lines[i].rstrip()[: -len(wanted)].strip()
                break
    if start is None:
        return "\n".join(lines[:-1]).encode("utf-8")
    body = lines[start:]
    if prompt:
        for j, line in enumerate(body):
            if line.startswith(prompt):
                return "\n".join(body[:j]).encode("utf-8")
    return "\n".join(body[:-1]).encode("utf-8")
