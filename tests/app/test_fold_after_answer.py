"""An ask never waits for a summary (issue 26): the fold of old turns runs once the answer is
delivered, looking one exchange ahead, and an ask that comes while a fold runs uses the turns
as they are, within the limits."""
from __future__ import annotations

import threading

from aish.app.ask import AskEnv, run_ask
from aish.app.sessions import Session
from aish.config.load import from_dict
from aish.cost.usage import UsageTotals
from aish.safety.secrets import Redactor
from tests.app.test_ask import MODELS, Script, Tokens, req, side_call, text
from tests.doubles import RecordingReply

FOLDING = {"context": {"max_turns": 4, "summarize_on_evict": True, "summarizer_model": "fast",
                       "evict_slack": 0.25}}


class Ordered(Script):
    """A fake broker that notes, in order, each main request and each summary request."""

    def __init__(self, n: int):
        super().__init__(*[text(f"answer {i}") for i in range(n)])
        self.events: list[str] = []

    def stream(self, model, messages, tools=None, cancel=None, **kw):
        self.events.append("summary" if side_call(messages) else f"ask:{messages[-1]['content'][-12:]}")
        yield from super().stream(model, messages, tools, cancel, **kw)


def make(script, deferred: list | None = None):
    env = AskEnv(config=from_dict({"models": MODELS, **FOLDING}), tokens=Tokens(), stream=script.stream)
    if deferred is not None:  # as the daemon: the fold is run later, by the caller
        env.after_answer = lambda job, status: deferred.append(job)
    return env, Session("t", usage=UsageTotals(), redactor=Redactor())


def test_no_summary_runs_between_a_question_and_its_answer():
    script = Ordered(10)
    env, session = make(script)
    for i in range(10):
        script.events.append("question")
        run_ask(env, session, req(f"question {i:02d}"), RecordingReply())
        script.events.append("answered")
    assert "summary" in script.events
    for i, event in enumerate(script.events):
        if event == "question":  # the ask's own model call comes first, always
            assert script.events[i + 1].startswith("ask:"), script.events
    assert session.conversation.summary == "summary"


def test_a_folded_conversation_is_summarized_before_the_next_ask_is_over_its_limits():
    """Looking one exchange ahead: the ask after a fold sends the summary and at most max_turns."""
    script = Ordered(8)
    env, session = make(script)
    for i in range(8):
        run_ask(env, session, req(f"question {i:02d}"), RecordingReply())
        sent = script.seen[-1][1]
        assert sum(m["role"] == "user" for m in sent) <= 4
    assert "[earlier conversation summary]" in script.seen[-1][1][0]["content"]


def test_an_ask_during_a_fold_uses_the_turns_as_they_are_within_the_limits():
    """A cloud server serves requests side by side: its fold runs on while the ask is answered."""
    script = Ordered(8)
    deferred: list = []
    env, session = make(script, deferred)
    env.config.models["fast"].local = False
    for i in range(5):
        run_ask(env, session, req(f"question {i:02d}"), RecordingReply())
    assert deferred, "a fold was due"
    release, started = threading.Event(), threading.Event()
    real_complete = script.complete

    def slow_summary(*a, **k):
        started.set()
        release.wait(10)
        return real_complete(*a, **k)

    script.complete = slow_summary
    fold = threading.Thread(target=deferred[-1], args=(lambda line: None,))
    fold.start()
    assert started.wait(10)
    run_ask(env, session, req("question 05"), RecordingReply())  # does not wait for the summary
    sent = script.seen[-1][1]
    assert sum(m["role"] == "user" for m in sent) <= 4 and sent[-1]["content"].endswith("question 05")
    assert "[earlier conversation summary]" not in sent[0]["content"]
    release.set()
    fold.join(10)
    conv = session.conversation
    assert conv.summary == "summary" and conv.turns[-2].content.endswith("question 05")
    assert len(conv.exchanges()) <= 4


def test_an_ask_stops_a_fold_on_a_local_server_and_the_fold_keeps_the_turns_for_later():
    """A local server serves one request at a time; llama-cpp-python's even cuts the stream in
    flight when another request comes (the summary, or the ask itself, ended short or empty).
    So an ask stops the fold first (its summary call is cancelled), the fold changes nothing
    (no eviction without a summary), and the fold after this answer does the work."""
    script = Ordered(8)
    deferred: list = []
    env, session = make(script, deferred)
    for i in range(5):
        run_ask(env, session, req(f"question {i:02d}"), RecordingReply())
    assert deferred, "a fold was due"
    started, stopped = threading.Event(), threading.Event()
    real_complete = script.complete

    def summary_until_cancelled(*a, cancel=None, **k):
        started.set()
        if cancel is not None and cancel.wait(3):
            stopped.set()
            from aish.errors import Cancelled
            raise Cancelled("cancelled")
        return real_complete(*a, **k)

    script.complete = summary_until_cancelled
    said: list = []
    fold = threading.Thread(target=deferred[-1], args=(said.append,))
    fold.start()
    assert started.wait(10)
    kept = len(session.conversation.turns)
    run_ask(env, session, req("question 05"), RecordingReply())
    fold.join(10)
    assert stopped.is_set(), "the fold's summary call was not stopped by the ask"
    conv = session.conversation
    assert conv.summary is None and len(conv.turns) == kept + 2, "the fold gave way: nothing evicted"
    assert not any("evicted" in line for line in said), said
    script.complete = real_complete
    deferred[-1](said.append)  # the fold after this answer
    assert conv.summary == "summary" and len(conv.exchanges()) <= 4


def test_after_a_fold_a_local_server_is_sent_the_folded_conversation_so_its_cache_holds_it():
    """A local server keeps the last prompt it evaluated; a fold changes the conversation's start,
    so the next ask would wait for the whole prompt again.  Sent once after the fold (one token),
    the folded conversation is what the next ask's request starts with."""
    script = Ordered(10)
    env, session = make(script)
    for i in range(6):
        run_ask(env, session, req(f"question {i:02d}"), RecordingReply())
        if script.warmed:
            break
    assert script.warmed, "no request warmed the server after the fold"
    messages = script.warmed[0]
    assert "[earlier conversation summary]" in messages[0]["content"] and messages[-1]["role"] == "assistant"
    run_ask(env, session, req("the next question"), RecordingReply())
    following = script.seen[-1][1]
    assert following[:len(messages)] == messages and following[-1]["role"] == "user"


def test_a_cloud_server_is_not_sent_the_folded_conversation_again():
    script = Ordered(10)
    env, session = make(script)
    env.config.models["fast"].local = False
    for i in range(6):
        run_ask(env, session, req(f"question {i:02d}"), RecordingReply())
    assert session.conversation.summary == "summary" and not script.warmed


def test_a_fold_put_off_twice_in_a_row_is_waited_for():
    """A quick typist's conversation still folds: the third fold in a row is not stopped."""
    script = Ordered(8)
    deferred: list = []
    env, session = make(script, deferred)
    for i in range(5):
        run_ask(env, session, req(f"question {i:02d}"), RecordingReply())
    session.folds_put_off = 2
    started, ask_waits = threading.Event(), threading.Event()
    real_complete = script.complete

    class Done(threading.Event):
        """The fold's end, noting when the ask waits for it: it has chosen to stop it or not."""

        def wait(self, timeout=None):
            ask_waits.set()
            return super().wait(timeout)

    def slow_summary(*a, cancel=None, **k):
        started.set()
        assert ask_waits.wait(10), "the ask never waited for the fold"
        assert cancel is not None and not cancel.cancelled
        return real_complete(*a, **k)

    script.complete = slow_summary
    fold = threading.Thread(target=deferred[-1], args=(lambda line: None,))
    fold.start()
    assert started.wait(10)
    session.fold.done = Done()
    run_ask(env, session, req("question 05"), RecordingReply())
    fold.join(10)
    assert session.conversation.summary == "summary" and session.folds_put_off == 0
    assert "[earlier conversation summary]" in script.seen[-1][1][0]["content"]  # it waited for it
