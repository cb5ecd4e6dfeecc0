"""The one model call: redact, stream, restore, retract, account under a category, one hop."""
from __future__ import annotations

import pytest

from aish.app.model_call import RETRACTED, Caller, Quiet
from aish.chat.summarize import make_summarize_fn
from aish.errors import Cancelled, ConnectRefused, ContextOverflow, HttpStatusError
from aish.llm.events import Finish, ReasoningDelta, TextDelta, TextWasReasoning, Usage
from tests.app.test_ask import Script, make, text
from tests.doubles import RecordingReply

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def caller_for(script, raw=None):
    env, session = make(script, raw)
    return Caller(env, session), session


def test_a_secret_leaves_as_a_placeholder_and_comes_back_restored():
    script = Script([TextDelta("use <sec"), TextDelta("ret:1> there"), Finish("stop")])
    caller, session = caller_for(script)
    reply = RecordingReply()
    session.redactor.redact(f"token {SECRET}")  # the placeholder the model will echo
    response = caller.call([{"role": "user", "content": f"token {SECRET}"}], category="main", reply=reply)
    assert SECRET not in str(script.seen[0][1])
    assert response.text == f"use {SECRET} there" and reply.full_text == response.text


def test_usage_is_counted_under_the_category_and_estimated_when_the_server_sends_none():
    script = Script(text("answer"), text("other", Usage(10, 5, 15)))
    caller, session = caller_for(script)
    first = caller.call([{"role": "user", "content": "q"}], category="summarize", show=False)
    second = caller.call([{"role": "user", "content": "q"}], category="delegate", reply=RecordingReply())
    assert first.usage.estimated and first.usage.completion_tokens > 0
    assert second.usage.prompt_tokens == 10 and not second.usage.estimated
    assert {row["category"] for row in session.usage.rows()} == {"summarize", "delegate"}


def test_quiet_call_streams_nothing_to_the_user():
    script = Script(text("quiet answer"))
    caller, _ = caller_for(script)
    reply = RecordingReply()
    response = caller.call([{"role": "user", "content": "q"}], category="probe", reply=reply, show=False)
    assert response.text == "quiet answer" and reply.texts == []
    assert isinstance(Quiet().cancel.cancelled, bool)  # a background call has its own token


def test_text_that_was_reasoning_is_retracted_and_said_once():
    script = Script([ReasoningDelta("hmm"), TextDelta("thinking aloud"), TextWasReasoning("x"),
                     TextDelta("the answer"), Finish("stop")])
    caller, _ = caller_for(script)
    reply = RecordingReply()
    response = caller.call([{"role": "user", "content": "q"}], category="main", reply=reply)
    assert response.text == "the answer" and RETRACTED in reply.statuses


def test_one_hop_to_the_fallback_model_before_any_text():
    script = Script([ConnectRefused("Connection refused (x)")], text("from the cloud"))
    caller, _ = caller_for(script, {"routing": {"fallback": True, "fallback_model": "cloud"}})
    reply = RecordingReply()
    response = caller.call([{"role": "user", "content": "q"}], category="norris", reply=reply,
                           fallback_note=" (this step only)")
    assert [name for name, _, _ in script.seen] == ["fast", "cloud"]
    assert response.fell_back == "cloud" and response.model.name == "cloud"
    assert any(s.endswith("retrying via cloud (this step only)") for s in reply.statuses)


def test_no_hop_when_the_caller_forbids_it_or_text_arrived():
    script = Script([ConnectRefused("Connection refused (x)")])
    caller, _ = caller_for(script, {"routing": {"fallback": True, "fallback_model": "cloud"}})
    with pytest.raises(ConnectRefused):
        caller.call([{"role": "user", "content": "q"}], category="delegate", fallback=False)
    script = Script([TextDelta("half"), ConnectRefused("cut")])
    caller, _ = caller_for(script, {"routing": {"fallback": True, "fallback_model": "cloud"}})
    with pytest.raises(ConnectRefused) as caught:
        caller.call([{"role": "user", "content": "q"}], category="main", reply=RecordingReply())
    assert caught.value.partial_text == "half" and len(script.seen) == 1


def test_a_context_overflow_goes_to_the_callers_hook_once_then_to_the_caller():
    overflow = ContextOverflow("HTTP 400: too long (context_length_exceeded)", status=400)
    script = Script([overflow], text("fits now"))
    caller, _ = caller_for(script, {"routing": {"fallback": True, "fallback_model": "cloud"}})
    asked = []

    def shorter(err):
        asked.append(err)
        return [{"role": "user", "content": "short"}]

    response = caller.call([{"role": "user", "content": "long " * 50}], category="main",
                           on_overflow=shorter)
    assert response.text == "fits now" and asked == [overflow]
    assert script.seen[1][1] == [{"role": "user", "content": "short"}]
    script = Script([overflow])
    caller, _ = caller_for(script, {"routing": {"fallback": True, "fallback_model": "cloud"}})
    with pytest.raises(ContextOverflow):  # no hook: the caller folds and retries; no fallback
        caller.call([{"role": "user", "content": "q"}], category="main")
    assert len(script.seen) == 1


def test_http_400_context_errors_of_real_servers_are_context_overflow():
    from aish.llm.chunks import http_error

    openai = b'{"error": {"message": "too long", "code": "context_length_exceeded"}}'
    llama = b'{"error": {"code": 400, "message": "exceeds", "type": "exceed_context_size_error"}}'
    assert isinstance(http_error(400, "Bad Request", openai, "http://x", None), ContextOverflow)
    assert isinstance(http_error(400, "Bad Request", llama, "http://x", None), ContextOverflow)
    plain = http_error(400, "Bad Request", b'{"error": {"message": "bad"}}', "http://x", None)
    assert type(plain) is HttpStatusError


def test_a_cancel_keeps_what_arrived_and_counts_it():
    script = Script([TextDelta("partial "), Cancelled()])
    caller, session = caller_for(script)
    with pytest.raises(Cancelled) as caught:
        caller.call([{"role": "user", "content": "q"}], category="main", reply=RecordingReply())
    assert caught.value.partial_text == "partial "
    assert session.usage.rows() and session.usage.rows()[0]["category"] == "main"


def test_the_summarizer_goes_through_the_call_redacted_and_costed():
    script = Script()
    sent = []
    script.complete = lambda model, messages, **kw: sent.append(messages) or ("a summary", None)
    caller, session = caller_for(script, {"context": {"summarize_on_evict": True,
                                                   "summarizer_model": "fast"}})
    summarize = make_summarize_fn(caller.env.config, caller.completer("summarize"))
    assert summarize(None, [{"role": "user", "content": f"my token is {SECRET}"}]) == "a summary"
    assert SECRET not in str(sent) and "<secret:1>" in str(sent)
    assert [row["category"] for row in session.usage.rows()] == ["summarize"]
