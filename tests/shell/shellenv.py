"""Fixtures shared by tests/test_shell_zsh.py and tests/test_shell_bash.py.

A test gets a real shell (zsh or bash) in tmux, started with a private rc that sources
the integration from this checkout, private HOME/HISTFILE, and the aish env the root
conftest points at tmp dirs; the real daemon is started by the integration itself on
first use (`aish daemon start`), answering from the loopback model stub.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from tests.stub_server import Reply, StubServer
from tests.shell.tmux import ScreenTimeout, Tmux, last_row, wait_until

REPO = Path(__file__).resolve().parents[2]
PROMPT = "aish$ "



@dataclass
class Shell:
    name: str
    tmux: Tmux
    home: Path
    runtime: Path
    histfile: Path
    keys: dict = field(default_factory=dict)

    def ask(self, line: str) -> None:
        """Type the line and press Enter once the shell shows it: a wait for the prompt that
        follows the answer must not be met by the prompt from before the question (on a busy
        machine the shell reads the keys after the first look at the screen)."""
        self.tmux.type(line)
        tail = line.rstrip()[-12:]
        if tail:
            try:  # the line editor shows it (an autosuggestion may follow it on the row)
                self.tmux.wait(lambda screen: tail in last_row(screen), timeout=5)
            except ScreenTimeout:
                pass  # a widget that rewrites the line as typed; Enter decides from here
        self.tmux.keys("Enter")

    def press(self, what: str) -> None:
        """Press a binding by role: ask, explain, cycle."""
        self.tmux.keys(*self.keys[what])

    def wait_prompt(self, buffer: str = "", timeout: float = 15.0) -> str:
        return self.tmux.wait_last_line(PROMPT + buffer, timeout)

    def wait(self, match, timeout: float = 15.0) -> str:
        return self.tmux.wait(match, timeout)


def _aish_wrapper(bindir: Path) -> Path:
    """`aish` as the shell will call it: this interpreter, this checkout.  `aish daemon start`
    (a shell's first ask) is forked from the test process's warm aish (tests/warm_aish.py)."""
    from tests import warm_aish

    bindir.mkdir(exist_ok=True)
    path = bindir / "aish"
    warm, socket = "", warm_aish.socket_path()
    if socket:
        client = " ".join(map(_q, [sys.executable, "-S", "-E", "-s", warm_aish.__file__, socket]))
        warm = f'case "$*" in "daemon start") exec {client} "$@";; esac\n'
    path.write_text(f'#!/bin/sh\n{warm}exec {_q(sys.executable)} -m aish "$@"\n', encoding="utf-8")
    path.chmod(0o755)
    return path


def aish_shell(aish_env: Path, home: Path, shell: str) -> Tmux:
    """`aish shell <shell>` (the README's first command) in tmux, for a user whose home is
    ``home``; enter it with ``with``."""
    aish = _aish_wrapper(aish_env / "bin")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TMUX", "ZDOTDIR", "BASH_ENV"))}
    env.update(HOME=str(home), TERM="screen", LANG="C.UTF-8", SHELL=f"/bin/{shell}",
               PATH=f"{aish.parent}:{env['PATH']}")
    return Tmux([str(aish), "shell", shell], env, home, socket=aish_env / "tmux-shell.sock")


def ask_gets_the_suggestion(tmux: Tmux, stub: StubServer, question: str) -> None:
    """An ask in a shell started by hand answers and puts its command on the prompt line."""
    stub.queue(Reply(text="a\nCMD: ls -la\n"))
    tmux.type(question)
    tmux.keys("Enter")
    tmux.wait_last_line(PROMPT + "ls -la", timeout=20)


def shell_command(name: str, base: Path, before: str = "", after: str = "", prompt: str = "",
                  extra_env: dict | None = None, load: str = "source") -> tuple:
    """(argv, env, home, work dir, history file) of a shell with a private rc that loads aish
    from this checkout: ``load`` "source" the script, "eval" `aish init <shell>`, or "none"
    (the rc loads it itself)."""
    home = base / "home"
    home.mkdir(exist_ok=True)
    work = home / "work"
    work.mkdir(exist_ok=True)
    histfile = home / "history"
    aish = _aish_wrapper(base / "bin")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TMUX", "ZDOTDIR", "BASH_ENV"))}
    env.update(HOME=str(home), TERM="screen", INPUTRC="/dev/null", LANG="C.UTF-8",
               HISTFILE=str(histfile), AISH_COMMAND=str(aish), PATH=f"{aish.parent}:{env['PATH']}")
    env.update(extra_env or {})
    script = REPO / "shell" / f"aish.{name}"
    loader = {"source": f"source {_q(str(script))}", "eval": f'eval "$(aish init {name})"',
              "none": ""}[load]
    if name == "zsh":
        rc = (f"PS1={_q(prompt or PROMPT)}\nHISTSIZE=100\nSAVEHIST=100\n{before}\n"
              f"{loader}\n{after}\n")
        (home / ".zshrc").write_text(rc, encoding="utf-8")
        env["ZDOTDIR"] = str(home)
        command = ["zsh", "--no-globalrcs", "-i"]
    else:
        rc = (f"PS1={_q(prompt or PROMPT)}\nHISTSIZE=100\n{before}\n"
              f"{loader}\n{after}\n")
        (home / ".bashrc").write_text(rc, encoding="utf-8")
        command = ["bash", "--noprofile", "--rcfile", str(home / ".bashrc"), "-i"]
    return command, env, home, work, histfile


def start_shell(name: str, base: Path, before: str = "", after: str = "",
                prompt: str = "", extra_env: dict | None = None, load: str = "source",
                wrap: list | None = None, width: int = 100) -> Shell:
    """The shell of ``shell_command`` in tmux; ``wrap``: a command line it runs under
    (``aish record --``)."""
    command, env, home, work, histfile = shell_command(name, base, before, after, prompt,
                                                       extra_env, load)
    keys = {"ask": ("C-x", "C-a"), "explain": ("C-x", "C-w"), "cycle": ("C-x", "C-y")}
    command = [*(wrap or []), *command]
    tmux = Tmux(command, env, work, width=width,
                socket=base / f"tmux-{name}-{len(list(base.glob('tmux-*')))}.sock").start()
    shell = Shell(name, tmux, home, Path(os.environ["AISH_RUNTIME_DIR"]), histfile, keys)
    return shell


def _q(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"



@pytest.fixture
def make_shell(shell_name, aish_env):
    """Start a shell: make_shell(before="...rc lines...", after="...", prompt="...")."""
    started: list[Shell] = []

    def make(wait: bool = True, **kwargs) -> Shell:
        shell = start_shell(shell_name, aish_env, **kwargs)
        started.append(shell)
        if wait:  # (a test with a prompt of its own waits for it itself)
            shell.wait_prompt(timeout=10)
        return shell

    yield make
    for shell in started:
        shell.tmux.close()


@pytest.fixture
def sh(make_shell, stub) -> Shell:
    return make_shell()


def ask_then_cycle(sh: Shell, stub: StubServer, question: str) -> None:
    """Ask; the first of two suggestions lands on the prompt; the cycle key brings the second."""
    from tests.stub_server import Reply

    stub.queue(Reply(text="a\nCMD: ls -la\nCMD: ls -lS\n"))
    sh.ask(question)
    sh.wait_prompt("ls -la")
    sh.press("cycle")
    sh.wait_prompt("ls -lS")


def prompt_line(screen: str) -> str:
    """The last row that starts with the prompt: the line being edited (zsh may show a
    message under it)."""
    rows = [row.rstrip() for row in screen.splitlines() if row.startswith(PROMPT.rstrip())]
    return rows[-1] if rows else ""


def user_message(request: dict) -> str:
    """The question of the newest user turn, without the shell context in front of it."""
    return request["body"]["messages"][-1]["content"].split("\n\n[question]\n", 1)[-1]


def shell_context(request: dict) -> str:
    """The volatile shell context, which travels with the newest user turn (not the system message)."""
    content = request["body"]["messages"][-1]["content"]
    return content.split("\n\n[question]\n", 1)[0] if "\n\n[question]\n" in content else ""


def system_message(request: dict) -> str:
    return request["body"]["messages"][0]["content"]


Factory = Callable[..., Shell]


@pytest.fixture
def model(stub, config_file):
    """The stub, with no fix drafted in the background (it would take the queued answers)."""
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n[fix]\nprepare = "off"\n')
    return stub


@pytest.fixture
def daemon_first(model):
    """The daemon runs before the shell starts, as on every day but the first: the shell's
    first prompt asks it to read its tmux pane, so even the first command is known."""
    from tests.helpers import ok

    ok("daemon", "start")
    return model


def wait_tapped(sh: Shell) -> None:
    """Until the daemon reads the shell's tmux pane (it names its tap in the pane's option
    once `pipe-pane` runs): commands run from then on are known exactly."""
    from tests.shell.tmux import wait_until

    wait_until(lambda: sh.tmux._tmux("display-message", "-p", "#{@aish_tap}").strip(),
               what="the daemon reading the pane")


def slow_stand_in(tmp_path: Path, aish_env: Path, name: str, before: str) -> dict:
    """A stand-in for the command ``name``, first on PATH: it runs the shell lines ``before``
    (a mark, a sleep) and then the real command.  What tests use to hold a moment open that
    is too short to hit by hand.  Returns ``make_shell``'s ``extra_env``."""
    slow = tmp_path / f"slow-{name}"
    slow.mkdir()
    real = subprocess.run(["sh", "-c", f"command -v {name}"], capture_output=True, text=True).stdout.strip()
    (slow / name).write_text(f"#!/bin/sh\n{before}exec {real} \"$@\"\n")
    (slow / name).chmod(0o755)
    return {"PATH": f"{slow}:{aish_env / 'bin'}:{os.environ['PATH']}"}


def ctrl_c_in_the_first_mkfifo(make_shell, stub, aish_env: Path, tmp_path: Path, before: str) -> tuple:
    """A shell's first ask, with Ctrl-C pressed while its `mkfifo` runs (a slow stand-in that
    runs ``before``, which must create ``tmp_path / "mkfifo-running"``, then sleeps 3 s).
    Returns the shell and its screen once an ask that was not cancelled would have streamed."""
    mark = tmp_path / "mkfifo-running"
    sh = make_shell(extra_env=slow_stand_in(tmp_path, aish_env, "mkfifo", f"{before}sleep 3\n"))
    words = " ".join(f"word{i:04d}" for i in range(200))
    stub.queue(Reply(text=words + "\nCMD: ls -la\n", chunk_size=9, delay=0.02))
    sh.ask("? a first question")
    wait_until(mark.exists, 30, "the shell to make its FIFO")
    sh.tmux.keys("C-c")
    sh.wait(lambda s: s.rstrip().endswith("aish$") or "word0000" in s, timeout=20)
    time.sleep(4)                           # the slow mkfifo is done: an ask not cancelled goes on
    return sh, sh.tmux.screen()
