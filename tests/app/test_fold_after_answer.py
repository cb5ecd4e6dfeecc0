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
    script = Ordered(8)
    deferred: list = []
    env, session = make(script, deferred)
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
