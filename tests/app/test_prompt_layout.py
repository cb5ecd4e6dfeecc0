"""The prompt layout keeps every request a byte-identical prefix of the next one.

Local servers (llama.cpp and its kin) reuse the longest unchanged prefix of the
previous request; anything volatile in the system message or in a stored turn
makes them re-process the whole conversation on every ask.
"""
from __future__ import annotations

import copy

from aish.app.ask import AskEnv, run_ask
from aish.app.sessions import Session
from aish.chat import prompts
from aish.config.load import from_dict
from aish.ipc.protocol import HistoryEntry, Request
from tests.doubles import RecordingReply
from aish.llm.events import Finish, TextDelta
from tests.app.test_ask import MODELS, Tokens, side_call, warm_up


class Recorder:
    """A fake broker that answers every call and keeps a deep copy of what it was sent."""

    def __init__(self):
        self.sent: list[list[dict]] = []
        self.warmed: list[list[dict]] = []  # the folded conversation, sent to the local server after a fold

    def stream(self, model, messages, tools=None, cancel=None, **kw):
        if warm_up(messages, kw):
            self.warmed.append(copy.deepcopy(messages))
            yield TextDelta("x")
            yield Finish("length")
            return
        if side_call(messages):  # the summarizer
            yield TextDelta(self.complete(model, messages)[0])
            yield Finish("stop")
            return
        self.sent.append(copy.deepcopy(messages))
        yield TextDelta(f"answer {len(self.sent)}\nCMD: ls -l{len(self.sent)}\n")
        yield Finish("stop")

    def complete(self, model, messages, **_):
        return f"summary after {len(self.sent)} asks", None


def conversation(raw=None):
    recorder = Recorder()
    cfg = from_dict({"models": MODELS, **(raw or {})})
    env = AskEnv(config=cfg, tokens=Tokens(), stream=recorder.stream)
    return env, Session("t"), recorder


def ask(env, session, n: int, history: list[HistoryEntry]):
    req = Request(id=f"r{n}", text=f"question {n}", shell="zsh", cwd=f"/tmp/dir{n % 3}",
                  status=n % 2, history=list(history[-10:]))
    run_ask(env, session, req, RecordingReply())


def twelve_asks(env, session):
    history: list[HistoryEntry] = []
    for n in range(12):
        history.append(HistoryEntry(f"make step{n}", n % 2, 100 + n))
        history.append(HistoryEntry(f"git status # {n}", 0, 5))
        ask(env, session, n, history)


def test_each_request_repeats_the_previous_one_as_its_prefix():
    env, session, recorder = conversation()
    twelve_asks(env, session)
    assert len(recorder.sent) == 12
    for before, after in zip(recorder.sent, recorder.sent[1:]):
        assert after[:len(before)] == before
    system = recorder.sent[-1][0]["content"]
    assert "cwd:" not in system and "make step" not in system


def test_the_newest_turn_carries_only_the_commands_run_since_the_last_ask():
    env, session, recorder = conversation()
    twelve_asks(env, session)
    newest = recorder.sent[5][-1]["content"]
    assert "make step5" in newest and "git status # 5" in newest and "cwd: /tmp/dir2" in newest
    assert "make step4" not in newest and "git status # 4" not in newest
    assert newest.endswith("[question]\nquestion 5")


def test_after_reset_the_whole_recent_history_is_sent_again():
    env, session, recorder = conversation()
    history = [HistoryEntry("false", 1, 3)]
    ask(env, session, 0, history)
    ask(env, session, 1, history)
    assert "false" not in recorder.sent[1][-1]["content"]
    session.reset()
    ask(env, session, 2, history)
    assert "[1 3ms] false" in recorder.sent[2][-1]["content"]


def test_the_prefix_changes_only_when_the_summary_does():
    env, session, recorder = conversation({"context": {"max_turns": 4, "summarize_on_evict": True,
                                                    "summarizer_model": "fast"}})
    twelve_asks(env, session)
    evictions = 0
    for before, after in zip(recorder.sent, recorder.sent[1:]):
        if after[:len(before)] == before:
            continue
        evictions += 1
        assert after[0] != before[0] and "[earlier conversation summary]" in after[0]["content"]
        # the turns kept after an eviction are the very same messages as before
        # (after: system, kept turns, the answer to before's question, the new question)
        kept = after[1:-2]
        assert kept and kept == before[len(before) - len(kept):]
        # and the local server was sent the folded conversation before: its cache holds this prefix
        assert any(after[:len(warm)] == warm and len(warm) == len(after) - 1 for warm in recorder.warmed)
    assert evictions >= 1


def test_history_delta_drops_what_was_already_sent():
    a, b, c, d = (HistoryEntry(x, 0, 1) for x in "abcd")
    assert prompts.history_delta([], [a, b]) == [a, b]
    assert prompts.history_delta([a, b], [a, b, c]) == [c]
    assert prompts.history_delta([a, b, c], [b, c, d]) == [d]
    assert prompts.history_delta([a, b], [a, b]) == []
    assert prompts.history_delta([a], [c, d]) == [c, d]
    # the same command run again with another status is new
    assert prompts.history_delta([a], [HistoryEntry("a", 1, 1)]) == [HistoryEntry("a", 1, 1)]


def test_memory_is_a_background_block_before_the_summary_and_stays_put(tmp_path):
    from aish.context.memory import Memory

    env, session, recorder = conversation()
    env.memory = Memory(tmp_path)
    env.memory.add("I use fd, not find")
    session.conversation.set_summary("we talked about builds")
    twelve_asks(env, session)
    system = recorder.sent[-1][0]["content"]
    assert system.index("[background]") < system.index("- (fact) I use fd, not find") \
        < system.index("[earlier conversation summary]")
    assert all(sent[0]["content"] == system for sent in recorder.sent)
    env.memory.add("prod is eu-west-1")  # a changed memory changes the prefix, once
    ask(env, session, 12, [])
    assert "prod is eu-west-1" in recorder.sent[-1][0]["content"]


def test_an_unreadable_memory_file_costs_a_status_line_not_the_answer(tmp_path):
    from aish.context.memory import Memory

    env, session, recorder = conversation()
    env.memory = Memory(tmp_path)
    (tmp_path / "memory.json").write_text("{broken")
    reply = RecordingReply()
    run_ask(env, session, Request(id="r", text="hi", shell="zsh"), reply)
    assert len(recorder.sent) == 1 and "[background]" not in recorder.sent[0][0]["content"]
    assert any("memory: cannot read" in s for s in reply.statuses)
