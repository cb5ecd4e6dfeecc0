"""What the integration leaves in the shell, in both shells (collected by test_zsh/test_bash):
nothing a user's command can trip over."""
from __future__ import annotations

import re

from tests.shell.tmux import wait_until
from tests.stub_server import Reply


def test_commands_inherit_no_descriptor_of_aish(sh, stub):
    """The shells keep FIFOs open across the user's commands (zsh: the fix draft's, while the
    draft is made); a child process must not inherit them."""
    stub.queue(Reply(text="hi\n"))
    sh.ask("? hello")                                  # the daemon runs: failures get drafts
    sh.wait_prompt("")
    stub.queue(Reply(text="Drafted.\nCMD: ls /\n", first_byte_delay=8))
    sh.ask("ls /nonexist-fds")
    sh.wait("nonexist-fds")
    wait_until(lambda: len(stub.requests) >= 2, what="the draft to be asked for")
    sh.ask("echo fds: $(ls /proc/self/fd)")
    screen = sh.wait(re.compile(r"^fds: .*\d", re.M))
    fds = re.search(r"^fds: (.*)$", screen, re.M).group(1).split()
    assert fds == ["0", "1", "2", "3"], screen        # 3: ls's own listing of the directory


def test_a_daemon_stopped_during_an_answer_says_so(sh, stub):
    """`aish daemon stop` while an answer streams ended it silently (kill -9 is noticed and
    said); the shell says the daemon stopped and gives the prompt back."""
    from tests.helpers import ok

    words = " ".join(f"word{i:04d}" for i in range(400))
    stub.queue(Reply(text=words, chunk_size=9, delay=0.05))
    sh.ask("? a slow answer")
    sh.wait("word0010")
    ok("daemon", "stop")
    screen = sh.wait(lambda s: "stopped" in s and s.rstrip().endswith("aish$"))
    assert "daemon was stopped while answering" in screen, screen


def test_fix_with_nothing_failed_asks_nothing_and_says_so(sh, stub):
    """After `echo ok`, the fix key and `? :fix` asked the model to fix a command that
    "failed with exit 0"; the last *failed* command is the one to fix."""
    sh.ask("echo fine-$((1+1))")
    sh.wait("fine-2")
    sh.tmux.keys("C-x", "C-f")
    sh.wait("nothing failed")
    sh.wait_prompt("")
    sh.ask("? :fix")
    sh.wait(lambda s: s.count("nothing failed") == 2 and s.rstrip().endswith("aish$"))
    assert stub.requests == []
    sh.ask("ls /nonexist-fixme")
    sh.wait("No such file")
    wait_until(lambda: len(stub.requests) == 1, what="the fix drafted in the background")
    sh.ask("echo after-$((2+2))")
    sh.wait("after-4")
    stub.queue(Reply(text="Wrong path.\nCMD: ls /\n"))
    sh.tmux.keys("C-x", "C-f")
    sh.wait_prompt("ls /")
    sent = stub.requests[-1]["body"]["messages"][-1]["content"]
    assert "ls /nonexist-fixme" in sent and "exit 2" in sent and "exit 0" not in sent, sent


def test_keys_typed_during_an_answer_are_neither_echoed_into_it_nor_lost(sh, stub):
    """zsh gave the terminal back in its cooked mode for the answer, so typed keys were
    echoed into it (`w3 echo typedw4`); they belong on the command line, once."""
    from tests.shell.shellenv import PROMPT, prompt_line

    stub.queue(Reply(text=" ".join(f"w{i}" for i in range(60)) + "\nCMD: ls -la\n", chunk_size=4, delay=0.05))
    sh.ask("? a slow answer")
    sh.wait("w3 ")
    sh.tmux.type("echo typed")
    screen = sh.wait(lambda s: "kept your typing" in s and prompt_line(s) == PROMPT + "echo typed")
    history = sh.tmux.history()
    assert history.count("echo typed") == 1, history
    assert "w58 w59" in screen, screen
    sh.tmux.keys("C-u")
    sh.ask("stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo | sed 's/^/tty: /'")
    assert "tty: echo" in sh.wait(re.compile(r"^tty: ", re.M))   # commands run with echo, as before


STEAL_A_KEY = {"zsh": "bindkey -M emacs '^X^A' beep",
               "bash": "bind -m emacs -x '\"\\C-x\\C-a\": true'"}


def test_doctor_checks_the_live_shell_not_only_the_rc_file(make_shell, stub, shell_name):
    """Its hooks and keys as they stand after every plugin had its turn: a key another
    plugin took after aish loaded is named, with the fix."""
    sh = make_shell()
    sh.ask("aish doctor 2>&1 | grep 'live shell'")
    screen = sh.wait(lambda s: "live shell:" in s and s.rstrip().endswith("aish$"))
    assert re.search(r"ok +live shell: (zsh|bash) .*hooks and keys in place", screen), screen
    sh.tmux.keys("C-d")
    sh = make_shell(after=STEAL_A_KEY[shell_name])
    sh.ask("aish doctor 2>&1 | grep 'live shell'")
    screen = sh.wait(lambda s: "live shell:" in s and s.rstrip().endswith("aish$"))
    assert "FAIL live shell" in screen and "ask key" in screen and "emacs" in screen, screen


def test_explain_verb_without_words_explains_the_last_command(sh, stub):
    """`? :explain` explained the prompt line, which holds the question itself: it always
    failed with "nothing to explain"."""
    from tests.shell.shellenv import PROMPT

    sh.ask("? :explain")
    sh.wait("nothing to explain")
    sh.wait_prompt("")
    sh.ask("ls -d / >/dev/null")
    sh.wait(lambda s: s.count(PROMPT.rstrip()) >= 3)
    stub.queue(Reply(text="It lists the root directory itself.\n"))
    sh.ask("? :explain")
    sh.wait("It lists the root directory itself.")
    sh.wait_prompt("")
    assert "ls -d / >/dev/null" in stub.requests[-1]["body"]["messages"][-1]["content"]
