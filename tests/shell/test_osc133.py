"""OSC 133 marks from the integration's own hooks: prompt start (A), end of prompt (B),
output start (C) and command done with its status (D), read as raw bytes from a real
zsh and bash on a pty; off with AISH_OSC133=off."""
from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time
from pathlib import Path

import pytest


REPO = Path(__file__).resolve().parents[2]
MARK = {name: f"\x1b]133;{name}".encode() for name in "ABCD"}


def run_on_a_pty(shell: str, home: Path, extra_env: dict) -> bytes:
    """Start an interactive shell with aish sourced, run `false`, then exit; the raw output."""
    script = REPO / "shell" / f"aish.{shell}"
    home.mkdir(parents=True, exist_ok=True)
    if shell == "zsh":
        (home / ".zshrc").write_text(f"PS1='p> '\nsource {script}\n")
        argv = ["zsh", "-i"]
    else:
        (home / ".bashrc").write_text(f"PS1='p> '\nsource {script}\n")
        argv = ["bash", "--rcfile", str(home / ".bashrc"), "-i"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TMUX", "KITTY", "WEZTERM", "VSCODE"))}
    env.update(HOME=str(home), ZDOTDIR=str(home), TERM="xterm", HISTFILE=str(home / "hist"), **extra_env)
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    out = b""

    def read_until(needle: bytes, timeout: float = 10) -> None:
        nonlocal out
        deadline = time.monotonic() + timeout
        while needle not in out and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    return

    try:
        read_until(b"p> ")
        os.write(master, b"false\n")
        os.write(master, b"echo E''ND\n")  # the quotes keep the echoed line from matching
        read_until(b"END\r")
        end = out.rindex(b"END\r")
        deadline = time.monotonic() + 10
        while b"p> " not in out[end:] and time.monotonic() < deadline:
            read_until(out + b"\0", 0.2)  # one more read round
        os.write(master, b"exit\n")
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return out


@pytest.mark.parametrize("shell", ["zsh", "bash"])
def test_the_hooks_mark_prompt_command_output_and_status(shell, tmp_path):
    out = run_on_a_pty(shell, tmp_path / "home", {})
    for name, mark in MARK.items():
        assert mark in out, (name, out[-400:])
    # `false` ran and exited 1, the first command the shell ended (the count: context/marks.py)
    # (the second line, typed before `false` ended, waits unread at its prompt: D may say so)
    done = re.search(rb"\x1b\]133;D;1;aish=1(;aish_typed=1)?\x07", out)
    assert done, out[-400:]
    # `false` printed nothing: between its C and its D there is no prompt and no command line
    # (bash printed C from Enter's bind -x, before readline echoed the line)
    ran = out[out.index(MARK["C"]):done.start()]
    assert b"false" not in ran and b"p>" not in ran, ran
    second_prompt = out.rindex(MARK["A"])
    assert out.index(MARK["B"], second_prompt) < out.index(b"p> ", second_prompt) + 16


@pytest.mark.parametrize("shell", ["zsh", "bash"])
def test_the_marks_are_off_with_the_variable(shell, tmp_path):
    out = run_on_a_pty(shell, tmp_path / "home", {"AISH_OSC133": "off"})
    assert b"\x1b]133;" not in out
