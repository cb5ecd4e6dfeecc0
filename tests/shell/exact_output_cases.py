"""Exact or nothing, in both shells and each output source (collected by test_zsh/test_bash).

One shell per source with the prompts that broke the screen-matching source: two lines (the
first one above the command's row, as powerlevel10k draws it) and a right prompt on the
command's row, in a pane narrower than the command and than the key it prints.  In turn:
a command wider than the pane whose output holds a key wider than the pane, a command with
no output, `clear` (then a question holding a key), and a full-screen program.  For each
the status line, the receipt (`aish sent --json`, the shell's own conversation) and the
body the model stub received must say the same thing.
"""
from __future__ import annotations

import json
import os
import re
import sys

from aish.context import sanitize, sources
from tests.helpers import ok
from tests.shell.shellenv import wait_tapped
from tests.shell.tmux import running, wait_until
from tests.stub_server import Reply

KEY = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" * 2  # 72 characters: wider than the pane
ERROR = "ls: cannot access '/definitely-missing': No such file or directory"
WIDE = f"echo {KEY}; ls /definitely-missing"
SHORT = WIDE[:39] + "…"  # how a status line names it
TOP, RIGHT, PROMPT = "top line of the prompt", "[right]", "aish$ "
# the same look in both shells: a first line, then the command's row with a right prompt
PROMPTS = {
    "zsh": f"PS1=$'{TOP}\\n{PROMPT}'; RPROMPT='{RIGHT}'",
    "bash": f"PS1='{TOP}\\n\\[\\e7\\e[999C\\e[{len(RIGHT)}D{RIGHT}\\e8\\]{PROMPT}'",
}
RECORDER = ["env", "-u", "TMUX", "-u", "TMUX_PANE", sys.executable, "-m", "aish", "record", "--"]
WEZTERM = ["env", "-u", "TMUX", "-u", "TMUX_PANE", "WEZTERM_PANE=3"]


def attached(body: dict):
    """(command, text) of the output block in the newest user turn, or None."""
    content = body["messages"][-1]["content"]
    found = re.search(r"\n\n\[output of the last command: (.*?)\]\n(.*)\Z", content, re.S)
    return (found.group(1), found.group(2)) if found else None


class Session:
    """A shell with the awkward prompts in a 40-column window, asking against the stub.
    ``sh.tmux`` is the terminal it runs in: tmux, or kitty (tests/shell/kitty.py)."""

    def __init__(self, sh, stub, tapped: bool = False) -> None:
        self.stub, self.sh, self.tmux = stub, sh, sh.tmux
        self.at_prompt()
        if tapped:  # the first prompt asked the running daemon to read this pane
            wait_tapped(self.sh)
        self.tmux.type("echo conv=$AISH_CONV")
        self.tmux.keys("Enter")
        screen = self.tmux.wait(re.compile(r"conv=(\S+)\n"))
        self.conv = re.search(r"conv=(\S+)\n", screen).group(1)
        self.at_prompt()

    def at_prompt(self, timeout: float = 15.0) -> str:
        """The prompt is back, empty: its last row is the command row with the right prompt."""
        def ready(screen: str) -> bool:
            rows = [r.rstrip() for r in screen.splitlines() if r.strip()]
            return len(rows) >= 2 and rows[-2] == TOP and rows[-1].startswith(PROMPT.rstrip()) \
                and rows[-1].endswith(RIGHT) and rows[-1][len(PROMPT):-len(RIGHT)].strip() == ""
        return self.tmux.wait(ready, timeout)

    def run(self, command: str, shows: str = "") -> None:
        """Type, and press Enter once the command row shows the line: until then the empty prompt
        from before it passes for the one after it, and the next keys would be typed while this
        command runs (on a busy host: the question went out as what `clear` printed)."""
        self.tmux.type(command)
        self.tmux.wait(lambda screen: shown(command, screen))
        self.tmux.keys("Enter")
        if shows:
            self.tmux.wait(shows)
        self.at_prompt()

    def ask(self, question: str) -> tuple:
        """Ask; the body the stub received, the screen, and the receipt of this shell."""
        before = len(self.stub.requests)
        self.stub.queue(Reply(text="Answered.\n"))
        self.run(question, "Answered.")
        self.stub.wait_requests(before + 1)
        body = self.stub.requests[-1]["body"]
        receipt = json.loads(ok("sent", "--json", env={"AISH_CONV": self.conv}).stdout)
        return body, self.tmux.history(), receipt

    def agree(self, body: dict, screen: str, receipt: dict, status: str) -> str:
        """The status line on screen, the receipt's note and the body say the same thing (the
        note, returned)."""
        assert f"[aish] {status}" in screen, screen[-1500:]
        assert status in receipt["notes"], receipt["notes"]
        main = [call for call in receipt["calls"] if call["category"] == "main"][-1]
        assert main["messages"] == body["messages"]
        return status


def shown(command: str, screen: str) -> bool:
    """The command row (the rows under the prompt's first line, wrapped) holds the command."""
    rows = screen.splitlines()
    below = [i for i, row in enumerate(rows) if row.rstrip() == TOP]
    return bool(below) and "".join(command.split()) in "".join("".join(rows[below[-1] + 1:]).split())


def secret_free(body: dict) -> bool:
    """No piece of the key (a row of a wrapped key was sent whole, unredacted)."""
    text = json.dumps(body)
    return not any(KEY[i:i + 12] in text for i in range(len(KEY) - 12))


def check_wide_command_with_a_wrapped_key(s: Session, source: str) -> str:
    s.run(WIDE, "No such file")
    body, screen, receipt = s.ask("? why")
    command, text = attached(body) or (None, "")
    lines = text.split("\n")
    assert command == WIDE.replace(KEY, lines[0]) and len(lines) == 2 and lines[1] == ERROR, screen[-800:]
    assert secret_free(body) and lines[0] and TOP not in text and RIGHT not in text, text
    return s.agree(body, screen, receipt, f"sent: 2 lines of output of '{SHORT}' ({source})")


# Why nothing was sent, by source: a byte stream knows a command printed nothing; kitty keeps
# one mark per row, so it only knows that no row holds the start of that output.
NOTHING = {"stream": "it printed nothing", "kitty": sources.NOTHING_MARKED}
CLEARED = {"stream": "it printed nothing", "kitty": sources.NO_MARKS}
FULL = {"stream": sanitize.FULLSCREEN_NOTE, "kitty": sources.NOTHING_MARKED}


def check_no_output(s: Session, kind: str = "stream") -> str:
    s.run("false")
    body, screen, receipt = s.ask("? and that")
    assert attached(body) is None, body["messages"][-1]["content"]
    return s.agree(body, screen, receipt, f"output of 'false' not sent: {NOTHING[kind]}")


def check_clear_then_a_question_with_a_key(s: Session, kind: str = "stream") -> str:
    s.run("clear")
    body, screen, receipt = s.ask(f"? is {KEY} still valid")
    assert attached(body) is None and secret_free(body), body["messages"][-1]["content"]
    return s.agree(body, screen, receipt, f"output of 'clear' not sent: {CLEARED[kind]}")


def check_full_screen(s: Session, kind: str = "stream") -> str:
    (s.sh.tmux.cwd / "notes.txt").write_text("private notes\n" * 3)
    s.tmux.type("less notes.txt")
    s.tmux.keys("Enter")
    s.tmux.wait(lambda screen: "private notes" in screen and "less notes.txt" not in screen)
    s.tmux.keys("q")
    s.at_prompt()
    body, screen, receipt = s.ask("? what was that")
    assert attached(body) is None and "private notes" not in json.dumps(body)
    return s.agree(body, screen, receipt, f"output of 'less notes.txt' not sent: {FULL[kind]}")


def check_typed_ahead(s: Session) -> str:
    """The question typed (and Enter pressed) while a command still runs: the pty echoes it among
    that command's output (as it did under load, when the question went out as what `clear`
    printed), so none of it is sent.  The command is held on a FIFO until the keys are in."""
    gate = s.sh.tmux.cwd / "gate"
    os.mkfifo(gate)
    s.tmux.type("cat gate; echo printed")
    s.tmux.wait(lambda screen: shown("cat gate; echo printed", screen))
    s.tmux.keys("Enter")
    wait_until(lambda: running("cat gate", s.sh.tmux.cwd), what="cat gate")
    before = len(s.stub.requests)
    s.stub.queue(Reply(text="Answered.\n"))
    s.tmux.type("? what did it print")
    s.tmux.keys("Enter")
    s.tmux.wait(lambda screen: screen.count("? what did it print") == 1)  # the pty's echo
    gate.write_text("from the gate\n")
    s.stub.wait_requests(before + 1)
    s.tmux.wait(lambda screen: "Answered." in screen.split("printed\n")[-1])
    s.at_prompt()
    body = s.stub.requests[-1]["body"]
    receipt = json.loads(ok("sent", "--json", env={"AISH_CONV": s.conv}).stdout)
    assert attached(body) is None, body["messages"][-1]["content"]
    return s.agree(body, s.tmux.history(), receipt,
                   f"output of 'cat gate; echo printed' not sent: {sources.TYPED_AHEAD}")


def tmux_session(make_shell, stub, shell_name: str, wrap=None, tapped: bool = False) -> Session:
    return Session(make_shell(after=PROMPTS[shell_name], wrap=wrap, width=40, wait=False), stub,
                   tapped=tapped)


def test_tmux_sends_exactly_what_the_command_printed_or_nothing(make_shell, daemon_first, shell_name):
    s = tmux_session(make_shell, daemon_first, shell_name, tapped=True)
    check_wide_command_with_a_wrapped_key(s, "tmux")
    check_no_output(s)
    check_clear_then_a_question_with_a_key(s)
    check_full_screen(s)
    check_typed_ahead(s)


def test_the_recorder_sends_exactly_what_the_command_printed_or_nothing(make_shell, model, shell_name):
    s = tmux_session(make_shell, model, shell_name, wrap=RECORDER)
    check_wide_command_with_a_wrapped_key(s, "recorder")
    check_no_output(s)
    check_clear_then_a_question_with_a_key(s)
    check_full_screen(s)
    check_typed_ahead(s)


def test_wezterm_cannot_bound_the_output_so_nothing_is_sent(make_shell, model, shell_name):
    s = tmux_session(make_shell, model, shell_name, wrap=WEZTERM)
    s.run(WIDE, "No such file")
    body, screen, receipt = s.ask("? why")
    assert attached(body) is None and secret_free(body)
    s.agree(body, screen, receipt, f"output of '{SHORT}' not sent: could not tell where "
                                   "it starts: WezTerm's CLI shows the screen without the marks "
                                   "('aish shell' records output there)")


def test_a_shell_started_before_the_daemon_says_it_cannot_know_its_first_output(make_shell, model,
                                                                                 shell_name):
    s = tmux_session(make_shell, model, shell_name)
    s.run("ls /definitely-missing", "No such file")
    body, screen, receipt = s.ask("? why")  # this question starts the daemon: too late
    assert attached(body) is None
    s.agree(body, screen, receipt, "output of 'ls /definitely-missing' not sent: could not tell "
                                   "where it starts: aish began reading this tmux pane after it ran")
    s.run("ls /definitely-missing", "No such file")
    body, screen, receipt = s.ask("? and now")
    assert attached(body) == ("ls /definitely-missing", ERROR)
