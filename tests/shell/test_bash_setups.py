"""bash inside the setups people really have: what a framework or a common rc line does to
the shell must not break aish.  Each case reproduces one mechanism in a small rc (the real
frameworks are tried by hand, see docs/compat.md)."""
from __future__ import annotations

import pytest

from tests.shell.shellenv import shell_context
from tests.stub_server import Reply

pytestmark = pytest.mark.shell


@pytest.fixture
def shell_name() -> str:
    return "bash"


def statuses_reach_aish(sh, stub) -> None:
    sh.ask("false")
    sh.wait(lambda s: s.count("aish$") >= 2)
    sh.ask("true")
    sh.wait(lambda s: s.count("aish$") >= 3)
    stub.queue(Reply(text="ok\nCMD: true\n"))
    sh.ask("? what failed")
    sh.wait_prompt("true")
    context = shell_context(stub.requests[-1])
    lines = [line.strip() for line in context.splitlines()]
    assert any(line.startswith("[1 ") and line.endswith("] false") for line in lines), context
    assert any(line.startswith("[0 ") and line.endswith("] true") for line in lines), context


def test_a_hook_prepended_to_prompt_command_after_aish_loads(make_shell, stub):
    """`PROMPT_COMMAND="history -a; $PROMPT_COMMAND"`, a very common rc line, ran before
    aish's hook: every status reached aish as 0 (history -a's)."""
    sh = make_shell(after='PROMPT_COMMAND="history -a; $PROMPT_COMMAND"')
    statuses_reach_aish(sh, stub)
    sh.tmux.keys("C-u")
    sh.ask('echo "pc=$PROMPT_COMMAND"')
    sh.wait("pc=_aish_precmd pc;history -a;")


def test_an_array_prompt_command_prepended_after_aish_loads(make_shell, stub):
    """bash 5.1's array form: an element put before aish's (bash starts each element with
    the real $?, so aish's entry may stay where it is)."""
    sh = make_shell(after='PROMPT_COMMAND=("history -a" "${PROMPT_COMMAND[@]}")')
    statuses_reach_aish(sh, stub)


def test_prompt_command_assigned_anew_after_aish_loads(make_shell, stub):
    """`PROMPT_COMMAND='...'` (no $PROMPT_COMMAND in it) dropped aish's hook altogether;
    the next Enter puts it back, before the command runs."""
    sh = make_shell(after="PROMPT_COMMAND='user_pc=$?'")
    statuses_reach_aish(sh, stub)
    sh.tmux.keys("C-u")
    sh.ask('echo "user saw $user_pc"')      # the user's hook still runs, with the real status
    sh.wait("user saw 0")
