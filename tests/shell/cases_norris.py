"""Norris in a real shell: collected by test_zsh.py and test_bash.py (tmux, real daemon).

Two scenarios per shell, each covering several behaviours, so the tmux cost stays small.
"""
from __future__ import annotations

from tests.shell.shellenv import PROMPT, prompt_line, user_message
from tests.shell.tmux import wait_until
from tests.stub_server import Reply


def test_norris_steps_edit_halt_and_ctrl_c(sh, stub):
    # A three-step task; the user presses Enter on each step and edits the second.
    stub.queue(Reply("CMD: printf 'o%sk\\n' 1"), Reply("Next.\nCMD: echo two"), Reply("CMD: echo three"),
               Reply("DONE: counted to three"))
    sh.ask("?? count to three")
    sh.wait_prompt("printf 'o%sk\\n' 1")
    sh.tmux.keys("Enter")
    sh.wait_prompt("echo two")  # no new question: the shell's report planned it
    assert "o1k" in user_message(stub.requests[1])  # what the step printed (tmux capture)
    sh.tmux.keys("BSpace", "BSpace", "BSpace")
    sh.tmux.type("2")
    sh.tmux.keys("Enter")
    sh.wait_prompt("echo three")
    assert "`echo 2` (the user ran this instead of `echo two`)" in user_message(stub.requests[2])
    assert "exit status 0" in user_message(stub.requests[2])
    sh.tmux.keys("Enter")
    screen = sh.wait("norris: done: counted to three")
    sh.wait_prompt("")
    assert "\no1k\n" in screen and "\n2\n" in screen and "\nthree\n" in screen  # the steps ran
    assert len(stub.requests) == 4
    sh.ask("echo after")  # the task is over: nothing is reported
    sh.wait("\nafter\n")
    sh.wait_prompt("")

    # An empty Enter on a proposed step, then `? :halt`: the loop stops.
    stub.queue(Reply("CMD: echo four"))
    sh.ask("? :norris say four")
    sh.wait_prompt("echo four")
    sh.tmux.keys("C-u", "Enter")
    sh.wait_prompt("")
    sh.ask("? :halt")
    sh.wait("halted after 1 steps")
    sh.wait_prompt("")
    sh.ask("echo still")
    sh.wait("\nstill\n")
    sh.wait_prompt("")
    assert len(stub.requests) == 5

    # Ctrl-C while the planner thinks: the task halts, the prompt comes back.
    stub.queue(Reply("CMD: echo five"), Reply("CMD: echo six", first_byte_delay=30))
    sh.ask("?? slow one")
    sh.wait_prompt("echo five")
    sh.tmux.keys("Enter")
    wait_until(lambda: len(stub.requests) >= 7, 10, "the report to reach the planner")
    sh.tmux.keys("C-c")
    sh.wait("[aish] cancelled")
    sh.wait_prompt("")
    sh.ask("? :norris")
    sh.wait("Ctrl-C while planning")
    sh.wait_prompt("")
    sh.ask("echo done")
    sh.wait("\ndone\n")
    sh.wait_prompt("")
    assert len(stub.requests) == 7


def test_norris_autorun_runs_safe_steps_and_waits_on_flagged(sh, stub, config_file):
    config_file(f'[models.fast]\nendpoint = "{stub.url}"\nmodel = "m"\n[norris]\nautorun = "safe"\n')
    stub.queue(Reply("CMD: echo auto-one"), Reply("CMD: echo auto-two"), Reply("CMD: rm -rf ~"))
    sh.ask("?? tidy up")
    # The safe steps run by themselves (on screen, in history): the first from the question,
    # the second from the report; the flagged one waits on the prompt line, and being high
    # risk, needs a second Enter (the Enter guard).  HOME is the test's own temp dir.
    screen = sh.wait_prompt("rm -rf ~")
    assert "\nauto-one\n" in screen and "\nauto-two\n" in screen
    assert "[aish] high risk: recursive forced delete of ~" in screen
    assert "Step 1 ran: `echo auto-one`" in user_message(stub.requests[1])
    assert "Step 2 ran: `echo auto-two`" in user_message(stub.requests[2])
    sh.tmux.keys("Enter")
    sh.wait("press Enter again to run")
    assert sh.home.is_dir() and len(stub.requests) == 3  # nothing ran, nothing reported
    sh.tmux.keys("C-u")
    sh.wait(lambda s: prompt_line(s) == PROMPT.rstrip())  # (zsh keeps its note under the line)
    sh.ask("? :halt")
    sh.wait("halted after 3 steps")
    sh.wait_prompt("")
    sh.tmux.keys("Up", "Up")
    sh.wait_prompt("echo auto-two")
    sh.tmux.keys("Up")
    sh.wait_prompt("echo auto-one")
    assert len(stub.requests) == 3


def test_norris_keys_typed_while_the_next_step_is_planned_stay_apart(sh, stub):
    """A command typed while the planner thinks was glued onto the step and run with it
    (`ls -laecho typed`); it stays the user's line, and the step waits on the cycle key."""
    stub.queue(Reply("CMD: echo first-step"), Reply("CMD: echo second-step", first_byte_delay=1.5),
               Reply("DONE: ok"))
    sh.ask("?? two steps")
    sh.wait_prompt("echo first-step")
    sh.tmux.keys("Enter")
    wait_until(lambda: len(stub.requests) >= 2, 10, "the report to reach the planner")
    sh.tmux.type("echo typed")
    screen = sh.wait(lambda s: "kept your typing" in s and prompt_line(s) == PROMPT + "echo typed")
    assert "echo second-stepecho typed" not in screen and "echo typedecho" not in screen, screen
    sh.press("cycle")
    sh.wait_prompt("echo second-step")
