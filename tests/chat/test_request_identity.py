"""The request a conversation sends is the same bytes whether it was built step by step from
the last ask's (``Outgoing``: messages, redaction and JSON kept and extended) or from scratch:
by a daemon that rebuilt the conversation from its log after a restart, after a fold, after a
question cut to fit, after a failed ask, and after a secret learned late (issue 26: the daemon's
work per ask is made proportional to what changed; what is sent must not change)."""
from __future__ import annotations

import json

from aish.app import after_answer, sessions
from aish.chat import fold
from aish.llm import broker

SYSTEM = "You help in the shell."
TOKEN = "ghp_" + "k3Jx9QmZ2vT8rW4yL6nB1cD5fH7gA0sE2uI9"
VALUE = "Zq8#vLm2$Rt9!wXe4"  # recognised only beside a secret's name


class Model:
    endpoint, model, is_local, temperature, max_tokens, include_usage = "", "m", False, None, None, True


def body_of(session, system: str = SYSTEM) -> bytes:
    """What the daemon sends for this session's conversation: its messages, redacted by the
    session's redactor, encoded as the broker encodes a request."""
    messages = session.conversation.to_messages(system)
    sent = session.redactor.redact_messages(messages)
    return broker.encode_body(broker._body(Model, sent, None, 64, "max_tokens", stream=True))


def scratch(session_id: str):
    """The conversation as a daemon started now rebuilds it: from its log only."""
    return sessions._rebuilt(session_id, None)


def ask(session, question: str, answer: str | None) -> bytes:
    session.conversation.drop_unanswered("no answer")  # as every ask starts (app/ask.py)
    session.conversation.add_user(question)
    data = body_of(session)
    if answer is not None:
        session.conversation.add_assistant(answer)
        after_answer.compact_if_long(session)  # the work after an answer (``_fold``'s end)
    return data


def same_as_scratch(session) -> bytes:
    """The next request, built on the live session's kept work and by a restarted daemon."""
    live = body_of(session)
    again = body_of(scratch(session.id))
    assert json.loads(live) == json.loads(again)
    assert live == again
    return live


def test_a_reloaded_conversation_sends_the_bytes_the_live_one_sends(aish_env):
    live = scratch("c")
    for i in range(12):
        ask(live, f"question {i}: why does port {8000 + i} stay busy? " + ("x " * i), f"answer {i}.\nCMD: ss -ltnp")
    ask(live, f"the deploy fails with token {TOKEN} in the env", "rotate it")
    same_as_scratch(live)
    live.compact()  # the log rewritten as a snapshot
    ask(live, "and now?", "now it works")
    same_as_scratch(live)


def test_after_a_fold_a_failed_ask_and_tool_turns(aish_env):
    live = scratch("c")
    for i in range(8):
        ask(live, f"q{i} " + "words " * i, f"a{i}")
    evicted, _ = live.conversation.plan_eviction(max_turns=4, budget_tokens=10**6, count=len)
    assert evicted
    assert live.conversation.apply_eviction(evicted, "they asked about ports")
    ask(live, "q8", None)  # failed: no answer; the next ask drops it
    ask(live, "q9", "")
    conv = live.conversation
    conv.add_assistant("", tool_calls=[{"id": "t1", "type": "function",
                                        "function": {"name": "read", "arguments": '{"p": "x"}'}}])
    conv.add_tool("t1", "contents")
    conv.add_assistant("it reads x")
    data = same_as_scratch(live)
    assert "they asked about ports" in json.loads(data)["messages"][0]["content"]


def test_a_question_cut_to_fit_is_sent_cut_after_a_restart(aish_env):
    live = scratch("c")
    ask(live, "first", "one")
    ask(live, "a big paste " + "line of log output\n" * 400, None)
    assert fold._cut_newest_question(live.conversation, over=500, count=lambda text: len(text) // 4)
    data = same_as_scratch(live)
    assert fold.CUT_MARK.split("{")[0] in json.loads(data)["messages"][-1]["content"]


def test_a_secret_learned_late_is_redacted_in_older_turns_after_a_restart(aish_env):
    live = scratch("c")
    ask(live, f"is {VALUE} a good one?", "it is long")  # alone, it is not recognised
    ask(live, f"export DB_PASSWORD='{VALUE}'", "set")  # learned here
    data = same_as_scratch(live)
    assert VALUE not in data.decode()


def test_a_new_secret_after_a_restart_gets_the_number_the_live_daemon_gives_it(aish_env):
    live = scratch("c")
    ask(live, f"the deploy fails with token {TOKEN} in the env", "rotate it")
    other = "glpat-" + "Xy7Qw3Er9Ty2Ui5Op1As"
    restarted = scratch("c")  # a daemon started now: its redactor has seen nothing yet
    for session in (live, restarted):
        ask(session, f"and this one, {other}?", None)
    assert body_of(live) == body_of(restarted)
    assert b"<secret:2>" in body_of(live) and other not in body_of(live).decode()
