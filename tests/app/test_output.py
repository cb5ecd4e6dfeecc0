"""The last command's output joins the question, redacted, with one status line; and `fix`."""
from __future__ import annotations

from aish.app.ask import run_ask
from aish.config.schema import ContextConfig
from aish.context import output as output_mod
from aish.ipc.protocol import HistoryEntry, Request
from tests.doubles import RecordingReply
from tests.helpers import question
from tests.app.test_ask import Script, make, text

TMUX = {"tmux": "/tmp/tmux-1/default,1,0", "tmux_pane": "%0"}
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


class Panes:
    """The daemon's tmux taps as a test needs them: the pane's last commands, newest last."""

    def __init__(self, *outputs: tuple) -> None:
        self.outputs = outputs  # (what it printed, its exit status)
        self.asked: list = []

    def find(self, socket, pane, runner, back=1, ended=None):
        from aish.context.marks import Entry
        from aish.context.tap import NOT_SEEN, Found

        self.asked.append((socket, pane, back))
        if back > len(self.outputs):
            return Found(note=NOT_SEEN)
        printed, code = self.outputs[-back]
        return Found(entry=Entry(bytearray(printed.encode()), exit=code))


def screen(*outputs):
    """The pane printed these (text, or (text, exit)); the last exits 2 like the request says."""
    pairs = [o if isinstance(o, tuple) else (o, None) for o in outputs]
    return Panes(*pairs)


def ask(raw=None, runner=None, mode="question", extra=None, status=2, interactive=True,
        question="why did that fail"):
    script = Script(text("Because.\nCMD: ls /tmp\n"), text("again"))
    env, session = make(script, raw)
    env.output_taps = runner
    reply = RecordingReply()
    req = Request(id="r1", kind="ask", text=question, shell="zsh", cwd="/tmp", status=status,
                  mode=mode, interactive=interactive, extra=dict(TMUX if extra is None else extra),
                  history=[HistoryEntry("ls /definitely-missing", status, 3)])
    run_ask(env, session, req, reply)
    return script, reply, session, env, req


ERROR = "ls: cannot access '/definitely-missing': No such file or directory"


def test_output_reaches_the_model_with_a_status_line_naming_the_source():
    script, reply, *_ = ask(runner=screen(ERROR + "\r\n"))
    sent = script.seen[0][1][-1]["content"]
    assert question(sent).startswith("why did that fail\n\n[output of the last command: ls /definitely-missing]")
    assert ERROR in sent
    assert "sent: 1 line of output of 'ls /definitely-missing' (tmux)" in reply.statuses


def test_a_secret_printed_by_a_command_is_redacted():
    script, reply, *_ = ask(runner=screen(SECRET + "\r\n"))
    sent = script.seen[0][1][-1]["content"]
    assert SECRET not in sent and "[output of the last command" in sent


def test_no_source_says_how_to_get_one_once_per_conversation():
    script, reply, session, env, req = ask(extra={})
    hints = [s for s in reply.statuses if "not available" in s]
    assert len(hints) == 1 and "aish shell" in hints[0] and "tmux" in hints[0]
    reply2 = RecordingReply()
    run_ask(env, session, req, reply2)
    assert not [s for s in reply2.statuses if "not available" in s]


def test_off_in_config_sends_nothing_and_says_nothing():
    script, reply, *_ = ask(raw={"context": {"command_output": "off"}},
                            runner=screen(ERROR + "\r\n"))
    assert ERROR not in script.seen[0][1][-1]["content"]
    assert not [s for s in reply.statuses if "output" in s]


def test_not_interactive_requests_carry_no_output():
    script, reply, *_ = ask(interactive=False, runner=screen(ERROR + "\r\n"))
    assert ERROR not in script.seen[0][1][-1]["content"]


def test_fix_mode_asks_to_fix_the_failed_command_with_its_output():
    script, reply, *_ = ask(mode="fix", question="", status=2,
                            runner=screen(ERROR + "\r\n"))
    sent = script.seen[0][1][-1]["content"]
    assert "Last command: ls /definitely-missing" in sent
    assert "failed with exit 2 and printed the output below. Fix it" in sent and ERROR in sent
    assert reply.commands[0][0] == "ls /tmp"


def test_fix_verb_runs_as_a_fix_ask():
    from aish.app.service import Service

    seen = []

    class Fake(Service):
        def ask(self, request, reply):
            seen.append((request.kind, request.mode))

    Fake().verb(Request(id="r", kind="verb", argv=[":fix"]), RecordingReply())
    assert seen == [("ask", "fix")]


def test_nothing_ran_yet_sends_no_screen():
    script = Script(text("ok"))
    env, session = make(script)
    env.output_taps = screen("welcome banner")
    req = Request(id="r1", kind="ask", text="hi", interactive=True, extra=dict(TMUX))
    run_ask(env, session, req, RecordingReply())
    assert script.seen[0][1][-1]["content"] == "hi"


def test_the_same_output_is_sent_once_per_command():
    script, reply, session, env, req = ask(runner=screen(ERROR + "\r\n"))
    reply2 = RecordingReply()
    run_ask(env, session, req, reply2)
    assert ERROR not in script.seen[1][1][-1]["content"]
    assert not [s for s in reply2.statuses if s.startswith("sent:")]


def test_an_earlier_command_the_question_names_is_sent_too():
    script = Script(text("ok"))
    env, session = make(script)
    env.output_taps = screen(("FAILED: test_x\r\n", 2), ("a b\r\n", 0))
    req = Request(id="r1", kind="ask", text="why did make test fail", interactive=True,
                  extra=dict(TMUX), history=[HistoryEntry("make test", 2, 900), HistoryEntry("ls /tmp", 0, 3)])
    reply = RecordingReply()
    run_ask(env, session, req, reply)
    sent = script.seen[0][1][-1]["content"]
    assert "[output of an earlier command: make test]\nFAILED: test_x\n" in sent + "\n"
    assert "[output of the last command: ls /tmp]\na b" in sent
    assert "sent: 1 line of output of 'make test' (tmux)" in reply.statuses
    assert "sent: 1 line of output of 'ls /tmp' (tmux)" in reply.statuses


def test_kitty_has_no_earlier_output():
    calls = []
    out = output_mod.gather({"kitty_window_id": "1", "kitty_listen_on": "unix:x"}, "make",
                            ContextConfig(), lambda argv, env: calls.append(argv) or b"x", back=2)
    assert out.text == "" and not calls
