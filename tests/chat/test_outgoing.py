"""A conversation's request is built from what the last ask made of it (``Outgoing``): its
messages, their redaction, their token count and the request body's JSON, each for the new
turns only (issue 26: at 400 kept turns rebuilding all of it on every ask made the daemon's
work per ask grow with the conversation).  Every step must give what the full path gives:
the same messages, the same redacted texts, the same counts, the same bytes."""
from __future__ import annotations

import json

from aish.chat import fold
from aish.chat.conversation import Conversation
from aish.llm import broker
from aish.llm.events import Outgoing
from aish.llm.tokens import TokenCounter
from aish.safety.secrets import Redactor

VALUE = "Zq8#vLm2$Rt9!wXe4"  # recognised only beside a secret's name


class Model:
    endpoint, model, is_local, temperature, max_tokens, include_usage = "", "m", False, None, None, True


def _full(conv: Conversation, system: str, since=None) -> list:
    """What the full path builds: every message laid out again (a conversation with the
    same turns that never sent any)."""
    twin = Conversation("twin")
    twin.turns, twin.summary = list(conv.turns), conv.summary
    messages = twin.to_messages(system, since)
    assert messages.base is None
    return list(messages)


class Sender:
    """One session's asks: each step's incremental outputs against the full path's."""

    def __init__(self) -> None:
        self.conv = Conversation("c")
        self.redactor = Redactor()
        self.twin = Redactor()  # the full path: plain lists, every ask (what main did)
        self.counter = TokenCounter()
        self.reused = 0

    def ask(self, system: str = "You help in the shell.", since=None) -> bytes:
        messages = self.conv.to_messages(system, since)
        self.reused += messages.grown() is not None
        sent = self.redactor.redact_messages(messages)
        full = _full(self.conv, system, since)
        assert list(messages) == full
        assert list(sent) == self.twin.redact_messages([dict(m) for m in full])
        assert self.counter.count_messages(Model, sent) == self.counter.count_messages(Model, list(sent))
        body = broker._body(Model, sent, None, 64, "max_tokens", stream=True)
        data = broker.encode_body(body)
        self.last_sent = sent
        assert data == json.dumps(dict(body, messages=list(sent)), ensure_ascii=False,
                                  separators=(",", ":")).encode("utf-8")
        return data


def test_asks_that_only_add_turns_reuse_the_last_request_and_send_the_same():
    s = Sender()
    for i in range(6):
        s.conv.add_user(f"question {i}: why does port {8000 + i} stay busy?")
        s.ask()
        s.conv.add_assistant(f"answer {i}: a process holds it.\nCMD: ss -ltnp")
    s.conv.add_user("and the tokens?")
    body = json.loads(s.ask())
    assert [m["role"] for m in body["messages"]] == ["system"] + ["user", "assistant"] * 6 + ["user"]
    assert s.reused >= 6  # the incremental path ran (the comparisons above are not the full path twice)


def test_a_changed_system_message_summary_and_unanswered_question():
    s = Sender()
    s.conv.add_user("first")
    s.ask()
    s.conv.add_assistant("one")
    s.conv.add_user("second, never answered")  # a failed ask leaves it: merged with the next
    s.ask(system="You help in the shell. [memory] uses zsh")
    s.conv.add_user("third")
    data = s.ask(system="You help in the shell. [memory] uses zsh")
    assert json.loads(data)["messages"][-1]["content"] == "second, never answered\n\nthird"
    s.conv.set_summary("they asked about ports")
    s.conv.add_assistant("three")
    assert "[earlier conversation summary]" in json.loads(s.ask())["messages"][0]["content"]


def test_eviction_a_dropped_question_and_a_cut_question_rebuild_what_changed():
    s = Sender()
    for i in range(4):
        s.conv.add_user(f"q{i}")
        s.conv.add_assistant(f"a{i}")
        s.ask()
    evicted, _ = s.conv.plan_eviction(max_turns=2, budget_tokens=10**6, count=len)
    s.conv.apply_eviction(evicted, "summary")
    s.conv.add_user("q4")
    s.ask()
    s.conv.drop_unanswered("failed")
    s.conv.add_user("q4 again " + "long " * 200)
    s.ask()
    fold._cut_newest_question(s.conv, over=100, count=lambda text: len(text) // 4)
    body = json.loads(s.ask())
    assert fold.CUT_MARK.split("{")[0] in body["messages"][-1]["content"]
    s.conv.add_assistant("a4")
    since = s.conv.turns[2]  # a fold still running: this request leaves the oldest out
    assert json.loads(s.ask(since=since))["messages"][1]["content"] == since.content


def test_tool_turns_and_secrets_learned_late_are_redacted_in_every_older_turn():
    s = Sender()
    s.conv.add_user(f"is {VALUE} a good one?")
    assert VALUE in json.loads(s.ask())["messages"][1]["content"]  # alone, it is not recognised
    s.conv.add_assistant("", tool_calls=[{"id": "t1", "type": "function",
                                          "function": {"name": "read", "arguments": '{"p": "x"}'}}])
    s.conv.add_tool("t1", "contents")
    s.conv.add_assistant("it is long")
    s.conv.add_user(f"export DB_PASSWORD='{VALUE}'")
    s.ask()  # learned here, after the older turns were redacted in this very request
    s.conv.add_assistant("set")
    s.conv.add_user("thanks")
    body = json.loads(s.ask())
    assert body["messages"][1]["content"] == "is <secret:1> a good one?"
    assert VALUE not in json.dumps(body)


def test_a_plain_list_and_a_rebuilt_outgoing_take_the_full_path():
    r = Redactor()
    plain = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
    assert not isinstance(r.redact_messages(plain), Outgoing)
    fresh = Outgoing(plain)
    assert fresh.grown() is None and fresh.new == plain[1:]
    assert broker.encode_body({"model": "m", "messages": fresh}) == b'{"model":"m","messages":[' \
        b'{"role":"system","content":"s"},{"role":"user","content":"u"}]}'


def test_weighing_only_the_new_turns_plans_the_same_evictions():
    """plan_eviction adds up only the turns added since it last weighed (each counted once)."""
    conv, counted = Conversation("c"), []

    def count(text: str) -> int:
        counted.append(text)
        return len(text) // 4 + 1

    for i in range(30):
        conv.add_user(f"question {i} " + "words " * (i % 5))
        if i % 4 != 3:  # now and then a question left unanswered
            conv.add_assistant(f"answer {i} " + "more " * (i % 7))
        if i == 20:
            evicted, _ = conv.plan_eviction(max_turns=8, budget_tokens=10**6, count=count)
            conv.apply_eviction(evicted, None)
        counted.clear()
        for max_turns, budget, ahead in ((100, 10**6, False), (6, 10**6, True), (100, 120, False),
                                         (3, 60, True)):
            twin = Conversation("twin")
            twin.turns = [type(t)(t.role, t.content) for t in conv.turns]
            kwargs = dict(max_turns=max_turns, budget_tokens=budget, system_prompt="sys", ahead=ahead,
                          slack=0.25)
            mine, why = conv.plan_eviction(count=count, **kwargs)
            theirs, their_why = twin.plan_eviction(count=lambda text: len(text) // 4 + 1, **kwargs)
            assert [(t.role, t.content) for t in mine] == [(t.role, t.content) for t in theirs]
            assert why == their_why
        # the system prompt each time, and each new turn once
        assert len([t for t in counted if t != "sys"]) <= 2, counted


def test_the_typical_exchange_is_the_median_of_all_of_them():
    """plan_eviction's typical exchange (``ahead``) is the median of every exchange's size, kept
    sorted as exchanges close instead of sorted again on every ask."""
    import random

    from aish.chat.conversation import _median_with

    rng = random.Random(26)
    for _ in range(2000):
        closed = sorted(rng.randint(0, 30) for _ in range(rng.randint(0, 15)))
        newest = rng.randint(0, 30)
        everything = sorted(closed + [newest])
        assert _median_with(closed, newest) == everything[len(everything) // 2], (closed, newest)


def test_the_kept_json_stays_a_few_pieces_over_many_asks():
    """The JSON kept for a conversation's turns grows by one piece per ask and is merged as it
    goes (each piece at least twice the next): a join of a few pieces, not one per ask so far."""
    s = Sender()
    for i in range(64):
        s.conv.add_user(f"question {i}")
        s.ask()  # the bytes checked against the full path at every ask
        s.conv.add_assistant(f"answer {i}")
    pieces = s.last_sent.memo["json"]
    assert 1 <= len(pieces) <= 8, len(pieces)


def test_a_question_weighed_again_keeps_what_was_weighed_before_it():
    """``reweigh`` (a question weighed by a bound, then counted) drops only the exchange it
    starts from the kept weighing, not the whole conversation's (which was weighed again, turn
    by turn, on every ask); the plans stay those of a conversation weighed from scratch."""
    conv = Conversation("c")
    for i in range(40):
        conv.add_user(f"question {i} " + "words " * (i % 5))
        conv.add_assistant(f"answer {i} " + "more " * (i % 7))
    kwargs = dict(max_turns=100, budget_tokens=10**6, system_prompt="sys", ahead=True, slack=0.25)
    conv.plan_eviction(count=lambda text: len(text) // 4 + 1, **kwargs)
    question = conv.add_user("and the newest one " + "long " * 50)
    conv.plan_eviction(count=lambda text: 3, **kwargs)  # weighed by a stand-in (a bound)
    conv.reweigh(question)
    assert conv._weighed is not None and len(conv._weighed[0]) == len(conv.turns) - 1
    mine = conv.plan_eviction(count=lambda text: len(text) // 4 + 1, **kwargs)
    twin = Conversation("twin")
    twin.turns = [type(t)(t.role, t.content) for t in conv.turns]
    assert twin.plan_eviction(count=lambda text: len(text) // 4 + 1, **kwargs) == (
        [type(t)(t.role, t.content) for t in mine[0]], mine[1])
    assert conv._weighed[1] == twin._weighed[1] and conv._weighed[3] == twin._weighed[3]
