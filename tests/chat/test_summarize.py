"""summarize.py: the three modes (R-B1), failure means None, usage is counted;
then the real broker against the loopback stub server."""
from __future__ import annotations

import time

import pytest

from aish.llm import broker
from aish.config.schema import Config, ContextConfig, ModelConfig
from aish.chat.conversation import Conversation
from aish.errors import ReadTimeout
from aish.chat.summarize import make_summarize_fn, render_turns_compact
from tests.stub_server import Reply, StubServer

TURNS = [
    {"role": "user", "content": "list big files in ~/logs"},
    {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "fs__list", "arguments": '{"path": "~/logs"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "app.log 3G\nold.log 1G"},
    {"role": "assistant", "content": "app.log is the biggest.\nCMD: du -h ~/logs/app.log"},
]


def config(endpoint="http://127.0.0.1:1", **context) -> Config:
    models = {"fast": ModelConfig(name="fast", endpoint=endpoint, model="small", connect_timeout=3.0),
              "deep": ModelConfig(name="deep", endpoint=endpoint, model="big")}
    return Config(models=models, context=ContextConfig(summarize_on_evict=True, **context))


class FakeComplete:
    """Records every call; answers from a script (a string, an exception, or a (text, usage) pair)."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls = []

    def __call__(self, model, messages, *, max_tokens=None, timeout=None, cancel=None):
        self.calls.append({"model": model, "messages": messages, "max_tokens": max_tokens, "timeout": timeout})
        answer = self.answers.pop(0) if self.answers else "summary"
        if isinstance(answer, BaseException):
            raise answer
        return answer if isinstance(answer, tuple) else (answer, None)

    def prompt(self, i=-1) -> str:
        return self.calls[i]["messages"][0]["content"].lower()

    def body(self, i=-1) -> str:
        return self.calls[i]["messages"][1]["content"]


# ---------------------------------------------------------------- the three modes

def test_first_time_summarizes_the_turns_on_the_summarizer_model():
    complete = FakeComplete("  User looked for big files in ~/logs.  ")
    fn = make_summarize_fn(config(summarizer_timeout=7.0, summarizer_max_tokens=120), complete)
    assert fn(None, TURNS) == "User looked for big files in ~/logs."
    call = complete.calls[0]
    assert call["model"].name == "fast" and call["max_tokens"] == 120 and call["timeout"] == (3.0, 7.0)
    assert "summarize these turns" in complete.prompt()
    assert "extend" not in complete.prompt() and "compress" not in complete.prompt()
    assert [m["role"] for m in call["messages"]] == ["system", "user"]
    assert "list big files in ~/logs" in complete.body() and "app.log 3G" in complete.body()


def test_additive_extends_the_prior_summary_with_the_new_turns():
    complete = FakeComplete("longer summary")
    fn = make_summarize_fn(config(), complete)
    assert fn("Earlier: user set up nginx.", TURNS[:1]) == "longer summary"
    assert "extend the prior summary" in complete.prompt()
    assert "Earlier: user set up nginx." in complete.body() and "list big files" in complete.body()


def test_compress_re_summarizes_the_prior_summary_alone():
    complete = FakeComplete("short")
    fn = make_summarize_fn(config(max_summary_chars=400), complete)
    assert fn("x " * 300, None) == "short"
    assert "compress the prior summary" in complete.prompt() and "200 characters" in complete.prompt()
    assert complete.body().startswith("Prior summary:") and "user:" not in complete.body()


def test_the_three_prompts_are_distinct():
    complete = FakeComplete()
    fn = make_summarize_fn(config(), complete)
    fn(None, TURNS)
    fn("prior", TURNS)
    fn("prior", None)
    prompts = [complete.prompt(i) for i in range(3)]
    assert len(set(prompts)) == 3


def test_a_compress_that_does_not_compress_is_cut_at_the_limit_on_a_word():
    complete = FakeComplete("word " * 100)
    fn = make_summarize_fn(config(max_summary_chars=50), complete)
    out = fn("prior " * 20, None)
    assert 0 < len(out) <= 50 and out.endswith("word")


def test_nothing_evicted_and_nothing_to_compress_make_no_call():
    complete = FakeComplete()
    fn = make_summarize_fn(config(), complete)
    assert fn("kept", []) == "kept"
    assert fn(None, None) is None
    assert complete.calls == []


# ---------------------------------------------------------------- failures

@pytest.mark.parametrize("answer", [
    ReadTimeout("Timeout was reached (read timeout after 30s)"),
    RuntimeError("anything at all"),
    "   ",
])
def test_any_failure_is_none_and_says_why(answer):
    fn = make_summarize_fn(config(), FakeComplete(answer))
    assert fn(None, TURNS) is None
    assert fn.last_error


def test_an_unconfigured_summarizer_model_is_none_not_an_exception():
    complete = FakeComplete()
    fn = make_summarize_fn(config(summarizer_model="nope"), complete)
    assert fn(None, TURNS) is None and "nope" in fn.last_error and complete.calls == []


def test_failure_means_silent_eviction_with_one_status_line():
    conv = Conversation("t")
    for i in range(3):
        conv.add_user(f"question {i}")
        conv.add_assistant(f"answer {i}")
    statuses = []
    fn = make_summarize_fn(config(), FakeComplete(RuntimeError("down")))
    conv.enforce_budget(max_turns=1, budget_tokens=10_000, count=len, summarize=fn, status=statuses.append)
    assert conv.summary is None and len(conv.turns) == 2
    assert len(statuses) == 1 and "failed" in statuses[0]


# ---------------------------------------------------------------- rendering

def test_render_turns_compact_shows_roles_tool_calls_and_results():
    text = render_turns_compact(TURNS)
    assert text.splitlines() == [
        "user: list big files in ~/logs",
        'assistant called tool fs__list({"path": "~/logs"})',
        "tool result: app.log 3G",
        "old.log 1G",
        "assistant: app.log is the biggest.",
        "CMD: du -h ~/logs/app.log",
    ]


def test_render_cuts_long_contents_and_survives_odd_shapes():
    text = render_turns_compact([{"role": "tool", "content": "x" * 5000},
                                 {"role": "assistant", "content": None, "tool_calls": ["junk"]},
                                 {"role": "user", "content": [{"type": "text", "text": "parts"}]}])
    assert "[3800 more characters]" in text and len(text) < 1400
    assert "assistant called tool ?()" in text and "user: parts" in text
    assert render_turns_compact([]) == ""


# ---------------------------------------------------------------- with the conversation

def test_summary_is_stored_on_the_conversation_and_rendered_in_the_system_message():
    conv = Conversation("t")
    for i in range(3):
        conv.add_user(f"question {i}")
        conv.add_assistant(f"answer {i}")
    complete = FakeComplete("first summary", "second summary")
    fn = make_summarize_fn(config(), complete)
    conv.enforce_budget(max_turns=2, budget_tokens=10_000, count=len, summarize=fn)
    assert conv.summary == "first summary" and "summarize these turns" in complete.prompt()
    conv.add_user("question 3")
    conv.enforce_budget(max_turns=2, budget_tokens=10_000, count=len, summarize=fn)
    assert conv.summary == "second summary" and "extend the prior summary" in complete.prompt()
    assert "first summary" in complete.body()
    messages = conv.to_messages("SYSTEM")
    assert [m["role"] for m in messages].count("system") == 1
    assert messages[0]["content"] == "SYSTEM\n\n[earlier conversation summary]\nsecond summary"
    assert all(m["content"] != "second summary" for m in messages[1:])


# ---------------------------------------------------------------- the real broker

def test_real_broker_against_the_stub_server():
    with StubServer() as stub:
        stub.queue(Reply(text="User asked which log is biggest; it is app.log."))
        cfg = config(endpoint=stub.url, summarizer_max_tokens=77)
        fn = make_summarize_fn(cfg, broker.chat_complete)
        assert fn(None, TURNS) == "User asked which log is biggest; it is app.log."
        body = stub.wait_requests(1)[0]["body"]
    assert body["model"] == "small" and body["max_tokens"] == 77
    assert "summarize these turns" in body["messages"][0]["content"].lower()


def test_real_broker_failures_are_none_quickly():
    with StubServer() as stub:
        stub.queue(Reply(status=503), Reply(hang=True))
        # Generous for the 503: a slow CI machine must not turn it into a timeout.
        fn = make_summarize_fn(config(endpoint=stub.url, summarizer_timeout=5.0), broker.chat_complete)
        assert fn(None, TURNS) is None and "503" in fn.last_error
        fn = make_summarize_fn(config(endpoint=stub.url, summarizer_timeout=0.2), broker.chat_complete)
        start = time.monotonic()
        assert fn("prior", TURNS) is None and "Timeout was reached" in fn.last_error
        assert time.monotonic() - start < 4
