"""The receipt (`aish sent`): the messages exactly as the model received them, after redaction,
with the status lines that said what was attached; it agrees with both in every case."""
from __future__ import annotations

import json

from aish.app import receipt
from aish.app.ask import run_ask
from aish.app.verbs import sent as sent_verb
from aish.app.verbs.context import VerbContext
from aish.ipc.protocol import HistoryEntry, Request
from tests.app.test_ask import Script, make, text
from tests.app.test_output import ERROR, SECRET, TMUX, screen
from tests.doubles import RecordingReply


def ask(taps, history, status=2, question="why", raw=None):
    script = Script(text("Because.\n"))
    env, conv = make(script, raw)
    env.output_taps = taps
    reply = RecordingReply()
    req = Request(id="r1", kind="ask", text=question, shell="zsh", cwd="/tmp", status=status,
                  interactive=True, extra=dict(TMUX), history=history)
    run_ask(env, conv, req, reply)
    return script.seen[-1][1], reply.statuses, conv


def shown(conv, *args):
    words = [a for a in args if a != "--json"]  # (the dispatcher takes --json out)
    return sent_verb.run(words, VerbContext(session=conv, json="--json" in args))


def test_the_receipt_is_the_body_the_model_got_and_names_what_was_attached():
    body, statuses, conv = ask(screen(f"{SECRET}\r\n{ERROR}\r\n"),
                               [HistoryEntry("cat token; ls /definitely-missing", 2, 3)])
    status = "sent: 2 lines of output of 'cat token; ls /definitely-missing' (tmux)"
    assert status in statuses
    saved = json.loads(shown(conv, "--json")[0])
    assert saved["calls"][-1]["messages"] == body and saved["notes"] == [status]
    assert SECRET not in json.dumps(saved) and ERROR in body[-1]["content"]
    lines = shown(conv)
    assert f"[aish] {status}" in lines and ERROR in lines
    assert "--- user" in lines and any(line.startswith("=== main request to ") for line in lines)


def test_a_command_that_printed_nothing_says_so_and_sends_no_block():
    body, statuses, conv = ask(screen(("", 1)), [HistoryEntry("false", 1, 2)], status=1)
    assert "output of 'false' not sent: it printed nothing" in statuses
    assert "[output of" not in body[-1]["content"]
    assert receipt.last(conv).notes == ["output of 'false' not sent: it printed nothing"]


def test_output_that_ended_with_another_status_belongs_to_another_command():
    """The pane's last output ended with 0, the shell says the last command failed with 2:
    the output is not that command's (the tap missed it), so nothing goes."""
    body, statuses, conv = ask(screen(("hello\r\n", 0)), [HistoryEntry("make", 2, 900)])
    assert "[output of" not in body[-1]["content"]
    assert any(s.startswith("output of 'make' not sent: could not tell where it starts") for s in statuses)


def test_earlier_turns_are_one_line_unless_all():
    script = Script(text("One.\n"), text("Two.\n"))
    env, conv = make(script)
    for question in ("first question", "second question"):
        run_ask(env, conv, Request(id="r", kind="ask", text=question, shell="zsh"), RecordingReply())
    short, full = shown(conv), shown(conv, "--all")
    assert "second question" in short and "first question" not in short
    assert any("earlier turn" in line for line in short)
    assert "first question" in full


def test_nothing_sent_yet():
    from aish.chat.conversation import Conversation

    assert shown(Conversation("x")) == ["[aish] nothing was sent to a model from this shell yet"]


def test_a_norris_step_has_its_own_receipt_with_what_the_step_printed():
    from aish.app import norris
    from tests.app.test_output import screen

    script = Script(text("CMD: ls /definitely-missing\n"), text("DONE: looked\n"))
    env, conv = make(script)
    env.output_taps = screen((ERROR + "\r\n", 2))
    request = Request(id="n", kind="verb", shell="zsh", interactive=True, extra=dict(TMUX))
    norris.start(env, conv, request, RecordingReply(), "look around")
    norris.report(env, conv, request, RecordingReply(), 2, 5, "ls /definitely-missing")
    last = receipt.last(conv)
    assert last.notes == ["sent: 1 line of output of 'ls /definitely-missing' (tmux)"]
    assert last.calls[-1].messages == script.seen[-1][1] and ERROR in json.dumps(last.calls[-1].messages)
