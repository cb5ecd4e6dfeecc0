"""zsh inside the setups people really have: what a framework or plugin does to the shell
must not break aish, and aish must not break the shell.  Each case reproduces one
framework's mechanism in a small rc (the frameworks themselves are tried by hand, see
docs/compat.md)."""
from __future__ import annotations

import re

import pytest

from tests.stub_server import Reply
from tests.shell.tmux import wait_until

pytestmark = pytest.mark.shell


@pytest.fixture
def shell_name() -> str:
    return "zsh"


def test_errors_still_show_after_a_failure_drafted_a_fix(sh, stub):
    """A local model drafts a fix after each failure; opening the draft's FIFO once sent the
    shell's own stderr to /dev/null (a bare `exec {fd}<>FIFO 2>/dev/null`): no error message
    ever showed again."""
    stub.queue(Reply(text="hi\n"))
    sh.ask("? hello")                       # the daemon runs from here on: drafts are made
    sh.wait_prompt("")
    stub.queue(Reply(text="Drafted.\nCMD: ls /\n"), Reply(text="Drafted.\nCMD: ls /\n"))
    sh.ask("ls /nonexist-one")
    sh.wait("nonexist-one")
    wait_until(lambda: len(stub.requests) >= 2, what="the first draft")
    sh.ask("cat /nope-two")
    sh.wait("/nope-two: No such file or directory")
    sh.ask("ls -l /proc/$$/fd/2 | sed 's/.*-> /fd2=/'")
    screen = sh.wait(re.compile(r"^fd2=", re.M))
    assert re.search(r"^fd2=/dev/pts/\d+$", screen, re.M), screen


# powerlevel10k's precmd sets `trap '_p9k_trapint; return 130' INT` (its preexec removes it):
# a Ctrl-C then returns from whatever function runs, deep inside aish's reading loop.
P10K_INT_TRAP = r'''
_t_trapint() { (( _t_trapped++ )); return 0 }
_t_precmd() { trap '_t_trapint; return 130' INT }
_t_preexec() { trap - INT }
precmd_functions+=(_t_precmd)
preexec_functions+=(_t_preexec)
'''


def test_ctrl_c_cancels_cleanly_under_an_int_trap_set_in_precmd(make_shell, stub):
    sh = make_shell(after=P10K_INT_TRAP, prompt="top-line\naish$ ")
    words = " ".join(f"word{i:04d}" for i in range(400))
    stub.queue(Reply(text=words, chunk_size=9, delay=0.03))
    sh.ask("? a slow answer")
    sh.wait("word0012")
    sh.tmux.keys("C-c")
    sh.wait(lambda s: "[aish] cancelled" in s and s.rstrip().endswith("aish$"))
    history = sh.tmux.history()
    assert "no answer from the daemon" not in history, history
    rows = [r.rstrip() for r in history.splitlines() if r.strip()]
    at = rows.index("[aish] cancelled")
    assert "word0001" in rows[at - 1] or "word0001" in " ".join(rows[:at]), history
    assert rows[at + 1:] == ["top-line", "aish$"], history     # one fresh prompt, nothing erased
    stub.queue(Reply(text="fine\nCMD: ls -la\n"))
    sh.ask("? and now")
    sh.wait_prompt("ls -la")
    sh.tmux.keys("C-u")
    sh.tmux.type("echo some text")
    sh.tmux.keys("C-c")                                       # at the prompt: the user's trap runs
    sh.wait_prompt("")
    sh.ask("print -r -- trapped=$_t_trapped")
    sh.wait("trapped=1")
