"""What a user gets in both shells; collected by test_shell_zsh.py and test_shell_bash.py.

Each test drives the real shell with the real integration and the real daemon, answering
from the loopback model stub, and checks the screen, the stub's requests and the runtime dir.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path


from tests.helpers import question
from tests.stub_server import Reply
from tests.shell.shellenv import PROMPT, ask_then_cycle, prompt_line, shell_context, user_message
from tests.shell.tmux import fd_count, wait_until

HOSTILE = ("""what's $(rm -rf ~) doing; and "quotes" | pipes * globs ? """
           r"""100% a%0Ab %25 %09 back\slash \n \t""")


def test_question_goes_verbatim_and_command_lands_on_the_prompt(sh, stub):
    # Every character the escaping touches (%, %0A, %25, backslashes, a real tab typed
    # with Ctrl-V Tab) must reach the model as typed and come back as sent.
    stub.queue(Reply(text="It lists 50% of a%0Ab \\n.\nCMD: printf '%s' a%0Ab%25\n"))
    sh.tmux.type("? " + HOSTILE)
    sh.tmux.keys("C-v", "Tab")
    sh.ask("end")
    screen = sh.wait_prompt("printf '%s' a%0Ab%25")
    assert "It lists 50% of a%0Ab \\n." in screen
    assert user_message(stub.requests[-1]) == HOSTILE + "\tend"
    # Nothing ran: the question is on screen once, as typed, and no shell error appeared.
    assert "command not found" not in screen and "no matches" not in screen


def test_question_is_in_history_and_never_runs(sh, stub):
    stub.queue(Reply(text="Like this.\nCMD: echo ok\n"))
    sh.ask("? how do I say ok")
    sh.wait_prompt("echo ok")
    sh.tmux.keys("Enter")           # run the suggestion, then look back in history
    sh.wait("\nok\n")
    sh.tmux.keys("Up")
    sh.wait_prompt("echo ok")
    sh.tmux.keys("Up")
    sh.wait_prompt("? how do I say ok")
    assert len(stub.requests) == 1


def test_line_containing_a_question_mark_runs_normally(sh, stub):
    (sh.tmux.cwd / "a.txt").write_text("x")
    sh.ask("ls ?.txt")
    sh.wait(lambda s: "\na.txt\n" in s)
    sh.wait_prompt("")
    assert stub.requests == []


def test_context_carries_cwd_status_and_recent_commands(sh, stub):
    sh.ask("false")
    sh.wait(lambda s: s.count(PROMPT.rstrip()) >= 2)
    sh.ask("echo hello")
    sh.wait("hello\n")
    stub.queue(Reply(text="ok\nCMD: true\n"))
    sh.ask("? what failed")
    sh.wait_prompt("true")
    system = shell_context(stub.requests[-1])
    assert f"cwd: {sh.tmux.cwd}" in system
    assert "last exit status: 0" in system
    lines = [line.strip() for line in system.splitlines()]
    assert any(line.startswith("[1 ") and line.endswith("] false") for line in lines), system
    assert any(line.startswith("[0 ") and line.endswith("] echo hello") for line in lines), system
    # the next ask: only the commands run since, a remembered fact and an attached tree
    first_system = stub.requests[-1]["body"]["messages"][0]["content"]
    sh.tmux.keys("C-u")  # the suggested command waits on the prompt line
    sh.wait_prompt("")
    sh.ask("echo again")
    sh.wait("again\n")
    sh.ask("? :remember I use fd, not find")
    sh.wait("remembered: I use fd, not find")
    sh.ask("? :tree")
    sh.wait("tree attached to your next question")
    stub.queue(Reply(text="ok\nCMD: true\n"))
    sh.ask("? and now")
    sh.wait_prompt("true")
    newest = shell_context(stub.requests[-1])
    assert "] echo again" in newest and "] echo hello" not in newest and "[tree of " in newest, newest
    system = stub.requests[-1]["body"]["messages"][0]["content"]
    assert system == first_system + "\n\n[background] facts the user asked you to keep in mind:" \
        "\n- (fact) I use fd, not find"


def test_several_commands_cycle_and_wrap(sh, stub):
    stub.queue(Reply(text="Options:\nCMD: ls -la\nCMD: ls -lS\nCMD: du -sh .\n"))
    sh.ask("? list files")
    sh.wait_prompt("ls -la")
    for expected in ("ls -lS", "du -sh .", "ls -la"):
        sh.press("cycle")
        sh.wait_prompt(expected)


def test_answer_without_command_leaves_the_buffer(sh, stub):
    stub.queue(Reply(text="Just an explanation, no command.\n"))
    sh.ask("? why is the sky blue")
    screen = sh.wait_prompt("")
    assert "Just an explanation, no command." in screen
    stub.queue(Reply(text="Nothing to fix.\n"))
    sh.tmux.type("git status")
    sh.press("ask")
    sh.wait("Nothing to fix.")
    sh.wait_prompt("git status")


def test_buffer_key_completes_the_line(sh, stub):
    stub.queue(Reply(text="Fixed.\nCMD: git status\n"))
    sh.tmux.type("git stauts")
    sh.press("ask")
    sh.wait_prompt("git status")
    assert "git stauts" in user_message(stub.requests[-1])


def test_buffer_key_on_empty_line_suggests_next(sh, stub):
    stub.queue(Reply(text="Next:\nCMD: make test\n"))
    sh.press("ask")
    sh.wait_prompt("make test")
    assert "Suggest the next command" in user_message(stub.requests[-1])


def test_explain_key_leaves_the_buffer(sh, stub):
    stub.queue(Reply(text="It extracts the archive.\nCMD: tar tzf a.tgz\n"))
    sh.tmux.type("tar xzf a.tgz")
    sh.press("explain")
    sh.wait("It extracts the archive.")
    screen = sh.wait_prompt("tar xzf a.tgz")
    assert screen.count("tar xzf a.tgz") == 2      # the line asked about, the line kept
    assert len(stub.requests) == 1


def test_risky_suggestion_shows_a_warning_with_what_it_would_touch(sh, stub):
    sh.ask("AISHT_KEEP=/srv/keep; AISHT_TOKEN=s3cr3t-value")  # plain shell variables, not exported
    sh.wait_prompt()
    stub.queue(Reply(text='Careful.\nCMD: rm -rf "$AISHT_KEEP"/* "$AISHT_GONE"/\n'))
    sh.ask("? delete my projects")
    screen = sh.wait_prompt('rm -rf "$AISHT_KEEP"/* "$AISHT_GONE"/')
    assert "[aish] high risk" in screen
    flat = "".join(screen.split())  # the warning wraps on a narrow terminal
    assert "wouldrun:rm-rf/srv/keep/*/" in flat and "AISHT_GONEisnotset" in flat
    assert "s3cr3t" not in "".join(stub.requests[-1]["body"]["messages"][0]["content"])


def test_high_risk_suggestion_needs_a_second_enter_unless_edited(sh, stub):
    # Rated high, harmless here (the pane's cwd is no git repository), and it exits 0: no
    # failure, so no fix is drafted in the background to take a queued reply.
    risky = "git push --force origin main || true"
    stub.queue(Reply(text=f"CMD: {risky}\n"))
    sh.ask("? push it")
    sh.wait_prompt(risky)
    sh.tmux.keys("Enter")                         # the first Enter only warns
    screen = sh.wait("press Enter again to run")
    assert "not a git repository" not in screen
    assert sh.tmux.wait(lambda s: PROMPT + risky in s)  # and keeps the line
    sh.tmux.keys("Enter")                         # the second Enter runs it
    sh.wait("not a git repository")
    stub.queue(Reply(text=f"CMD: {risky}\n"))
    sh.ask("? push it again")
    sh.wait_prompt(risky)
    sh.tmux.type(" ")                             # an edited line runs on its first Enter
    sh.tmux.keys("Enter")
    sh.wait(lambda s: s.count("not a git repository") >= 2)


def test_enter_guard_can_be_turned_off(make_shell, stub):
    sh = make_shell(after="AISH_GUARD_ENTER=0")
    stub.queue(Reply(text="CMD: git push --force origin main || true\n"))
    sh.ask("? push it")
    sh.wait_prompt("git push --force origin main || true")
    sh.tmux.keys("Enter")
    screen = sh.wait("not a git repository")
    assert "press Enter again" not in screen


def test_verb_output_above_the_prompt(sh, stub):
    sh.ask("? :reset")
    screen = sh.wait("conversation reset")
    screen = sh.wait_prompt("")
    rows = [r.rstrip() for r in screen.splitlines() if r.strip()]
    assert rows[-3].endswith("? :reset") and "conversation reset" in rows[-2], screen
    sh.ask("? :cost")
    sh.wait(lambda s: s.rstrip().endswith(PROMPT.rstrip()) and "? :cost" in s
            and s.index("? :cost") < s.rstrip().rindex("\n"))
    assert stub.requests == []


def test_an_error_shows_its_message_and_its_hint_in_one_line(sh, stub):
    """The E frame carries message, kind and hint apart; the shell joins them as one line."""
    sh.ask("? :delegate nosuch count the lines")
    screen = sh.wait("is not a configured model")
    sh.wait_prompt("")
    assert "aish: delegate: 'nosuch' is not a configured model (configured models: fast)" in screen, screen
    assert stub.requests == []


def test_typing_during_the_answer_is_kept(sh, stub):
    stub.queue(Reply(text="one two three four five six seven eight\nCMD: ls -la\n",
                     chunk_size=4, delay=0.12))
    sh.ask("? slow one")
    sh.wait("one")
    sh.tmux.type("echo mine")
    # The note sits above the prompt (bash) or under it (zsh: a zle message).
    screen = sh.wait(lambda s: "kept your typing" in s and prompt_line(s) == PROMPT + "echo mine")
    assert screen.count("echo mine") == 1, screen


def test_ctrl_c_cancels_and_leaks_nothing(sh, stub):
    # Warm up: the daemon and the reply FIFO exist, so later counts compare like with like.
    stub.queue(Reply(text="warm\n"))
    sh.ask("? warm up")
    sh.wait_prompt("")
    pid = sh.tmux.pane_pid()
    before = fd_count(pid)
    for i in range(50):
        stub.queue(Reply(text="x" * 400, chunk_size=4, delay=0.05))
        sh.ask(f"? long answer {i}")
        wait_until(lambda i=i: len(stub.requests) >= i + 2, 10, "the request to reach the model")
        sh.tmux.keys("C-c")
        sh.wait_prompt("")
    stub.wait_disconnects(50, timeout=20)
    assert fd_count(pid) == before
    leftovers = sorted(p.name for p in sh.runtime.iterdir() if p.suffix in (".req", ".fifo")
                       and p.name != "daemon.fifo" and not p.name.startswith("tap-"))
    # the reply FIFO, and zsh's FIFO for the hint of a drafted fix (docs/output.md)
    assert leftovers in ([f"{sh.name}-{pid}.fifo"], [f"{sh.name}-{pid}-fix.fifo", f"{sh.name}-{pid}.fifo"])
    assert len(list(sh.runtime.glob("tap-*.fifo"))) == 1  # the daemon reads the pane once
    screen = sh.tmux.screen()
    assert "no answer" not in screen and "Traceback" not in screen


def test_daemon_dying_mid_answer_gives_the_prompt_back(sh, stub):
    """A killed daemon never writes `D`: the shell notices (liveness) instead of waiting
    AISH_TIMEOUT (default 300 s) with the terminal frozen."""
    stub.queue(Reply(hang=True))
    sh.ask("? will the daemon survive")
    wait_until(lambda: stub.requests, 10, "the request to reach the model")
    os.kill(int((sh.runtime / "daemon.pid").read_text().split()[0]), signal.SIGKILL)
    screen = sh.wait_prompt("", timeout=8)
    assert "daemon stopped" in screen
    leftovers = [p.name for p in sh.runtime.iterdir() if p.suffix == ".req"]
    assert leftovers == []


def test_daemon_dying_in_the_middle_of_a_frame_gives_the_prompt_back(sh, stub):
    """Half a frame (no newline) and then no writer: a line-reading shell would wait for
    the newline forever."""
    stub.queue(Reply(hang=True))
    sh.ask("? will it survive half a frame")
    wait_until(lambda: stub.requests, 10, "the request to reach the model")
    fifo = sh.runtime / f"{sh.name}-{sh.tmux.pane_pid()}.fifo"
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, b"someid\tT\thalf a fra")
    finally:
        os.close(fd)
    time.sleep(0.2)  # the shell is reading it now
    os.kill(int((sh.runtime / "daemon.pid").read_text().split()[0]), signal.SIGKILL)
    screen = sh.wait_prompt("", timeout=8)
    assert "daemon stopped" in screen


# Run by the shell right after it sent `req`: the daemon that took the request dies and a
# new one comes up at once (another shell started it, or a spare daemon waiting on the lock
# took over), so "some daemon reads daemon.fifo" stays true while ours is gone.
REPLACE_DAEMON = """
import os, signal, sys, time
from pathlib import Path
from aish.daemon import runtime, spawn
d = Path(sys.argv[1])
for _ in range(1000):  # until the test saw the request reach the model
    if (d / "t-go").exists():
        break
    time.sleep(0.01)
pid = runtime.read_pid(d)
os.kill(pid, signal.SIGKILL)
while runtime.is_running(d) == pid:
    time.sleep(0.01)
spawn.start(rundir=d)
"""
HOOK = {"zsh": """_aish_load   # _aish_send is in the on-demand half: define it now to wrap it
functions[_t_send]=$functions[_aish_send]
_aish_send() { _t_send "$@" || return; [[ $2 == 'req '* && -z $_t_once ]] || return 0
  _t_once=1; command %(py)s -c %(code)s $1 }""",
        "bash": """_aish_load   # _aish_send is in the on-demand half: define it now to wrap it
eval "$(declare -f _aish_send | sed '1s/_aish_send/_t_send/')"
_aish_send() { _t_send "$@" || return; [[ $2 == 'req '* && -z $_t_once ]] || return 0
  _t_once=1; command %(py)s -c %(code)s "$1"; }"""}


def test_daemon_replaced_right_after_taking_the_request_gives_the_prompt_back(
        make_shell, stub, shell_name):
    """The shell watches the daemon it sent to (its pid, read before sending), not whether
    some daemon answers: otherwise it waits AISH_TIMEOUT (300 s) for a `D` that never comes."""
    import sys

    from tests.shell.shellenv import _q

    sh = make_shell(after=HOOK[shell_name] % {"py": _q(sys.executable), "code": _q(REPLACE_DAEMON)})
    stub.queue(Reply(hang=True))
    sh.ask("? will the daemon survive a restart")
    wait_until(lambda: stub.requests, 10, "the request to reach the model")
    (sh.runtime / "t-go").touch()
    screen = sh.wait_prompt("", timeout=10)
    assert "daemon stopped" in screen
    stub.queue(Reply(text="the new one answers\n"))
    sh.ask("? and now")
    sh.wait("the new one answers")
    sh.wait_prompt("")


def test_vi_mode(make_shell, stub, shell_name):
    vi = "bindkey -v" if shell_name == "zsh" else "set -o vi"
    sh = make_shell(after=vi)
    ask_then_cycle(sh, stub, "? in vi insert mode")
    sh.tmux.keys("Escape")
    time.sleep(0.1)
    sh.tmux.keys("c", "c")          # vi: change the whole line
    sh.tmux.type("? from command mode")
    sh.tmux.keys("Escape")
    time.sleep(0.1)
    stub.queue(Reply(text="b\nCMD: pwd\n"))
    sh.tmux.keys("Enter")
    sh.wait_prompt("pwd")
    assert user_message(stub.requests[-1]) == "from command mode"


def test_multi_line_prompt(make_shell, stub, shell_name):
    top = "top-of-prompt"
    prompt = (f"%F{{blue}}{top}%f\n{PROMPT}" if shell_name == "zsh" else f"{top}\n{PROMPT}")
    sh = make_shell(prompt=prompt)
    stub.queue(Reply(text="Answer text.\nCMD: ls -la\n"))
    sh.ask("? with two lines")
    screen = sh.wait_prompt("ls -la")
    rows = [r.rstrip() for r in screen.splitlines() if r.strip()]
    assert rows[-2] == top, screen
    assert rows.index("Answer text.") < len(rows) - 2
    assert any(r.endswith("? with two lines") for r in rows)


def test_daemon_that_cannot_start_says_why_in_one_line(make_shell, stub, aish_env):
    broken = aish_env / "bin" / "broken-aish"
    broken.parent.mkdir(exist_ok=True)
    broken.write_text("#!/bin/sh\necho 'aish: cannot start the daemon: see the log' >&2\nexit 1\n")
    broken.chmod(0o755)
    sh = make_shell(before=f"AISH_COMMAND={broken}")
    sh.ask("? anything")
    screen = sh.wait_prompt("")
    assert "cannot start the daemon: see the log" in screen
    assert "aish doctor" in screen and screen.count("cannot start") == 1


def test_eval_of_aish_init_works_and_keeps_the_rest_of_the_rc(make_shell, stub):
    sh = make_shell(load="eval", after="echo rc-went-on")
    sh.wait("rc-went-on")
    stub.queue(Reply(text="a\nCMD: ls -la\n"))
    sh.ask("? loaded by eval")
    sh.wait_prompt("ls -la")


def test_aish_ask_run_in_the_shell_continues_its_conversation(sh, stub):
    """The integration exports its conversation id (AISH_CONV) for `aish ask`."""
    stub.queue(Reply(text="noted\n"), Reply(text="it was pelican\n"))
    sh.ask("? remember the word pelican")
    sh.wait("noted")
    sh.wait_prompt("")
    sh.ask("aish ask --no-stdin what was the word")
    sh.wait("it was pelican")
    sh.wait_prompt("")
    turns = [question(m["content"]) for m in stub.requests[-1]["body"]["messages"] if m["role"] == "user"]
    assert turns[0].startswith("remember the word pelican") and turns[-1] == "what was the word"


DEFINED = {"zsh": "(( ${+functions[_aish_request]} )) || echo request-not-defined-yet",
           "bash": "declare -F _aish_request || echo request-not-defined-yet"}


def test_the_on_demand_half_is_sourced_by_the_first_question_not_at_start(make_shell, stub, shell_name):
    """Start-up parses only the first half; the first question defines the rest and is answered."""
    sh = make_shell(after=DEFINED[shell_name])
    sh.wait("request-not-defined-yet")
    stub.queue(Reply(text="Lazy answer.\nCMD: ls -la\n"))
    sh.ask("? first question")
    sh.wait_prompt("ls -la")
    sh.tmux.keys("C-u")
    sh.ask({"zsh": "(( ${+functions[_aish_request]} ))", "bash": "declare -F _aish_request >/dev/null"}[shell_name]
           + " && echo defined-$((6*7))")
    sh.wait("defined-42")


def test_a_missing_on_demand_half_costs_one_line_and_runs_nothing(make_shell, stub, shell_name, tmp_path):
    lone = tmp_path / "lone"
    lone.mkdir()
    name = f"aish.{shell_name}"
    (lone / name).write_text((Path(__file__).resolve().parents[2] / "shell" / name).read_text())
    sh = make_shell(after=f"source '{lone / name}'; echo sourced-alone")
    sh.wait("sourced-alone")
    sh.ask("? is anyone there")
    screen = sh.wait("aish: cannot read")
    said = (f"aish: cannot read {lone}/aish.lazy.{shell_name}: load aish with the line "
            f"`aish init {shell_name} --rc` prints")
    assert "".join(said.split()) in "".join(screen.split()), screen   # one line, wrapped on screen
    sh.tmux.keys("C-u")
    sh.ask("echo still-alive")
    screen = sh.wait("\nstill-alive")
    assert "command not found" not in screen and not stub.requests, screen
