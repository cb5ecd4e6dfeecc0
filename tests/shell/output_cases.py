"""The last command's output and the fix key, in both shells (collected by test_zsh/test_bash).

The shells run inside tmux, so tmux is their output source (the daemon runs
capture-pane with the $TMUX/$TMUX_PANE the shell sends); one case runs the
shell on aish's recorder instead, with the tmux variables removed.
"""
from __future__ import annotations

import json
import re
import sys

from tests.shell.shellenv import PROMPT, user_message, wait_tapped
from tests.shell.tmux import wait_until
from tests.stub_server import Reply

SECRET = "ghp_" + "Zq8Lm2Xv7Rt4Np1Kd6Hs9Bw3Cy5Fj0Ga2Ue8"
ERROR = "No such file or directory"


def run(sh, command: str, shows: str) -> None:
    sh.ask(command)
    sh.wait(lambda s: shows in s and s.rstrip().endswith(PROMPT.rstrip()))


def test_why_did_that_fail_sends_the_output_redacted_and_says_so(make_shell, daemon_first):
    stub = daemon_first  # running before the shell: its pane is read from the first prompt
    sh = make_shell()
    wait_tapped(sh)
    run(sh, f"echo {SECRET}; ls /definitely-missing", ERROR)
    stub.queue(Reply(text="The path does not exist.\nCMD: ls /\n"))
    sh.ask("? why did that fail")
    screen = sh.wait_prompt("ls /")
    sent = user_message(stub.requests[-1])
    assert "why did that fail" in sent and ERROR in sent and "/definitely-missing" in sent
    assert SECRET not in json.dumps(stub.requests[-1]["body"])
    assert "[aish] sent: 2 lines of output of 'echo ghp_" in screen and "(tmux)" in screen, screen


def test_fix_key_and_ctrl_x_ctrl_a_after_a_failure_put_the_fix_on_the_prompt(make_shell, daemon_first):
    stub = daemon_first
    sh = make_shell()
    wait_tapped(sh)
    run(sh, "ls /definitely-missing", ERROR)
    stub.queue(Reply(text="Wrong path.\nCMD: ls /tmp\n"), Reply(text="Again.\nCMD: ls /var\n"))
    sh.tmux.keys("C-x", "C-f")
    screen = sh.wait_prompt("ls /tmp")
    sent = user_message(stub.requests[0])
    assert "failed with exit 2 and printed the output below. Fix it" in sent and ERROR in sent, screen
    sh.tmux.keys("C-u")
    sh.wait_prompt("")
    sh.tmux.keys("C-x", "C-a")   # empty line, the last command failed: the same fix question
    sh.wait_prompt("ls /var")
    assert "Fix it" in user_message(stub.requests[1])


def test_a_fix_is_drafted_in_the_background_and_the_key_inserts_it(sh, stub):
    stub.queue(Reply(text="hi\n"))
    sh.ask("? hello")                       # the daemon runs from here on
    sh.wait_prompt("")
    stub.queue(Reply(text="Drafted.\nCMD: ls /usr\n"))
    sh.ask("ls /definitely-missing")   # (in zsh the hint may follow the prompt line)
    sh.wait(ERROR)
    stub.wait_requests(2)
    assert "Fix it" in user_message(stub.requests[1]) and ERROR in user_message(stub.requests[1])
    marker = wait_until(lambda: next(iter(sh.runtime.glob("fix-*.ready")), None), what="the ready marker")
    hint = "[aish] a fix is ready: press ^X^F"
    if sh.name == "bash":  # no hook while readline waits: the next prompt (empty Enter) says it
        sh.tmux.keys("Enter")
    sh.wait(hint)           # zsh: zle watches the draft's FIFO and says it right away
    if sh.name == "bash":  # once per draft: a second empty Enter does not repeat it
        prompts = sh.tmux.screen().count(PROMPT.rstrip())
        sh.tmux.keys("Enter")
        screen = sh.wait(lambda s: s.count(PROMPT.rstrip()) > prompts)
        assert screen.count(hint) == 1, screen
    sh.tmux.keys("C-x", "C-f")
    screen = sh.wait_prompt("ls /usr")
    assert "fix drafted in the background" in screen
    assert len(stub.requests) == 2 and not marker.exists()


def test_through_the_recorder_in_a_plain_pty(make_shell, stub):
    sh = make_shell(wrap=["env", "-u", "TMUX", "-u", "TMUX_PANE", sys.executable, "-m", "aish",
                          "record", "--"])
    run(sh, f"echo {SECRET}; ls /definitely-missing", ERROR)
    stub.queue(Reply(text="Missing.\nCMD: ls /\n"))
    sh.ask("? why did that fail")
    screen = sh.wait_prompt("ls /")
    sent = user_message(stub.requests[-1])
    assert ERROR in sent and SECRET not in json.dumps(stub.requests[-1]["body"])
    assert "output of 'echo ghp_" in screen and "(recorder)" in screen


def attached(request: dict) -> tuple:
    """(command, text) of the output block the request's newest user turn carries, or None."""
    content = request["body"]["messages"][-1]["content"]
    found = re.search(r"\n\n\[output of the last command: (.*?)\]\n(.*)\Z", content, re.S)
    return (found.group(1), found.group(2)) if found else None


RECORDER = ["env", "-u", "TMUX", "-u", "TMUX_PANE", sys.executable, "-m", "aish", "record", "--"]


def test_the_recorder_sends_what_the_command_printed_and_nothing_else(make_shell, stub):
    """bash's prompt and command line were counted as output ('sent: 2 lines')."""
    sh = make_shell(wrap=RECORDER)
    run(sh, "ls /definitely-missing", ERROR)
    stub.queue(Reply(text="Missing.\n"))
    sh.ask("? why")
    screen = sh.wait(lambda s: "Missing." in s and s.rstrip().endswith(PROMPT.rstrip()))
    assert attached(stub.requests[-1]) == (
        "ls /definitely-missing", f"ls: cannot access '/definitely-missing': {ERROR}")
    assert "[aish] sent: 1 line of output of 'ls /definitely-missing' (recorder)" in screen, screen


def test_full_screen_program_output_is_not_sent(sh, stub):
    (sh.tmux.cwd / "notes.txt").write_text("private notes\n" * 3)
    sh.ask("less notes.txt")
    sh.wait(lambda s: "private notes" in s and "less notes.txt" not in s)
    sh.tmux.keys("q")
    sh.wait_prompt("")
    stub.queue(Reply(text="ok\n"))
    sh.ask("? what was that")
    sh.wait(lambda s: "ok" in s and s.rstrip().endswith(PROMPT.rstrip()))
    assert "private notes" not in user_message(stub.requests[-1])
