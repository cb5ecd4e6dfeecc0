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
