"""`aish record`: a shell on aish's pty relay, driven through tmux like a user would.

The inner bash emits OSC 133 marks from PROMPT_COMMAND and PS0 (what the
integration does), so the relay can cut its output into commands; what the
daemon would read comes from the relay's socket through context.sources.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from aish.context import sanitize, sources
from tests.shell.tmux import Tmux, running, wait_until


PROMPT = "rec$ "


@pytest.fixture
def rec(aish_env):
    runtime = Path(os.environ["AISH_RUNTIME_DIR"])
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(TERM="screen", LANG="C.UTF-8", PS1=PROMPT, HOME=str(aish_env),
               PS0="\x1b]133;C\x07", PROMPT_COMMAND=r'printf "\033]133;D;%s\007" $?')
    command = [sys.executable, "-m", "aish", "record", "--",
               "bash", "--norc", "--noprofile", "-i"]
    # the outer shell shows the relay's exit status once it ends
    outer = ["sh", "-c", " ".join(f"'{w}'" for w in command) + '; echo "relay exit $?"; sleep 60']
    tmux = Tmux(outer, env, aish_env, width=80, height=24, socket=aish_env / "rec.sock").start()
    tmux.wait_last_line(PROMPT)
    sock = wait_until(lambda: next(iter(runtime.glob("recorder-*.sock")), None), what="the socket")
    yield tmux, str(sock)
    tmux.close()


def run_and_wait(tmux: Tmux, command: str, shows: str) -> None:
    """Type a command and wait until it printed ``shows`` and the prompt came back."""
    tmux.type(command)
    tmux.keys("Enter")
    tmux.wait(lambda s: shows in s and s.rstrip().endswith(PROMPT.rstrip()))


def last(sock: str):
    return sources.recorder({"recorder": sock})


def test_output_of_the_last_command_and_exit_code_pass_through(rec):
    tmux, sock = rec
    assert oct(os.stat(sock).st_mode & 0o777) == "0o600"
    run_and_wait(tmux, "ls /definitely-missing", "No such file")
    raw = last(sock)
    assert b"No such file or directory" in raw.data and raw.exit == 2
    run_and_wait(tmux, "echo second", "second")
    earlier = sources.recorder({"recorder": sock}, back=2)
    assert b"No such file or directory" in earlier.data and earlier.exit == 2
    assert last(sock).data.strip() == b"second" and last(sock).exit == 0
    tmux.type("exit 7")
    tmux.keys("Enter")
    tmux.wait("relay exit 7")


def test_resize_ctrl_c_ctrl_z_and_full_screen(rec):
    tmux, sock = rec
    tmux._tmux("resize-window", "-x", "61", "-y", "17")
    run_and_wait(tmux, "stty size", "17 61")
    tmux.type("sleep 30")
    tmux.keys("Enter")
    wait_until(lambda: running("sleep 30", tmux.cwd), what="sleep 30")
    tmux.keys("C-c")
    run_and_wait(tmux, "echo st=$?", "st=130")
    tmux.type("sleep 31")
    tmux.keys("Enter")
    wait_until(lambda: running("sleep 31", tmux.cwd), what="sleep 31")
    tmux.keys("C-z")
    tmux.wait("Stopped")
    run_and_wait(tmux, "kill %1; echo killed", "killed")
    tmux.type("printf 'one\\ntwo\\n' | less; echo after-less")
    tmux.keys("Enter")
    tmux.wait(lambda s: "two" in s and "printf" not in s)  # less owns the (alternate) screen
    tmux.keys("q")
    tmux.wait(lambda s: "after-less\n" in s and s.rstrip().endswith(PROMPT.rstrip()))
    # What stayed is what the command printed on the main screen, not less's page.  (It used
    # to look for bash's "Terminated" notice of the job killed before: bash prints that at
    # whichever prompt comes after the job is reaped, this one or the one before.)
    kept = sanitize.clean(last(sock).data).text
    assert "one" not in kept and "(END)" not in kept and "after-less" in kept, kept



def test_keys_typed_ahead_while_a_command_runs_are_not_sent_as_its_output(rec):
    """The pty echoes keys typed while a command runs among that command's output (the shell
    shows them again at the next prompt): they are not what it printed (the flake of
    exact_output_cases under load: the question typed during `clear` went out as its output),
    so nothing of that output is sent.  The command is held open on a FIFO until the keys are
    in.  Ctrl-C alone does not count, and the next command is clean."""
    tmux, sock = rec
    gate = tmux.cwd / "gate"
    os.mkfifo(gate)
    tmux.type("cat gate; echo printed")
    tmux.keys("Enter")
    wait_until(lambda: running("cat gate", tmux.cwd), what="cat gate")
    tmux.type("typed ahead")
    tmux.wait(lambda s: "typed ahead" in s)  # the pty's echo, while cat runs
    gate.write_text("from the gate\n")
    # then the prompt, where the shell shows the keys again as the line being edited
    tmux.wait(lambda s: "printed\n" in s and s.rstrip().endswith(PROMPT + "typed ahead"))
    raw = last(sock)
    assert raw.data == b"" and raw.note == sources.TYPED_AHEAD, raw
    tmux.keys("C-u")
    tmux.type("echo started; sleep 32")
    tmux.keys("Enter")
    wait_until(lambda: running("sleep 32", tmux.cwd), what="sleep 32")
    tmux.keys("C-c")
    tmux.wait(lambda s: s.rstrip().endswith(PROMPT.rstrip()) and "^C" in s)
    raw = last(sock)
    assert b"started" in raw.data and raw.exit == 130 and not raw.note, raw
    run_and_wait(tmux, "echo next", "next")
    assert last(sock).data.strip() == b"next" and not last(sock).note
