"""Fitting a call to its server (app/fit.py through model_call.Caller): windows, empty
replies, refused tools and parameters, the answer cap, notes while a model is silent."""
from __future__ import annotations

import time

import pytest

from aish.app import fit
from aish.app.ask import run_ask
from aish.app.model_call import Caller
from aish.errors import ContextOverflow, EmptyAnswer, HttpStatusError, ParamRejected, StreamCut, ToolsRejected
from aish.llm.events import Finish, TextDelta
from aish.llm.limits import Limits
from aish.llm.servers import ServerInfo
from tests.app.test_ask import Script, make, req, text
from tests.doubles import CharTokens, RecordingReply
from tests.helpers import wait_until

FALLBACK = {"routing": {"fallback": True, "fallback_model": "cloud"}}
TOOL = [{"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}]




def limited(script, raw=None, *, window=None, why=None):
    """An env whose limits know ``window``; ``why`` answers a plain re-ask (an error or None)."""
    env, conv = make(script, raw)

    def probe(model, messages, **kw):
        if why is not None:
            raise why
        return "x", None

    env.limits = Limits(CharTokens(), identify=lambda *a, **k: ServerInfo(window=window), probe=probe)
    return env, conv


def test_a_prompt_the_window_cannot_hold_is_refused_before_a_byte_is_sent():
    script = Script(text("never"))
    env, conv = limited(script, window=1024)
    with pytest.raises(ContextOverflow) as caught:
        Caller(env, conv).call([{"role": "user", "content": "x" * 5000}], category="main")
    assert script.seen == [] and not caught.value.sent and caught.value.window == 1024
    assert str(caught.value).startswith("context: the prompt (~1,")


def test_an_empty_stream_near_the_window_is_an_overflow_not_a_fallback():
    """llama-cpp-python answers a prompt over n_ctx with 200 and an empty stream; with fallback
    on, every later ask once went quietly to the paid model."""
    cut = StreamCut("stream from x was cut short (no text arrived; no [DONE] or finish_reason)")
    script = Script([cut])
    env, conv = limited(script, FALLBACK, window=1024)
    with pytest.raises(ContextOverflow):
        Caller(env, conv).call([{"role": "user", "content": "x" * 3700}], category="main")
    assert [name for name, _, _ in script.seen] == ["fast"]  # the cloud was never asked


def test_an_empty_stream_far_from_a_known_window_asks_the_server_why():
    told = ContextOverflow("HTTP 400: maximum context length is 512 tokens", window=512)
    script = Script([StreamCut("cut, no text arrived")])
    env, conv = limited(script, FALLBACK, why=told)
    with pytest.raises(ContextOverflow) as caught:
        Caller(env, conv).call([{"role": "user", "content": "q"}], category="main")
    assert caught.value is told and env.limits.of(env.config.model()).window == 512
    assert len(script.seen) == 1


def test_an_empty_stream_that_is_not_an_overflow_stays_a_cut_and_may_fall_back():
    script = Script([StreamCut("cut, no text arrived")], text("from the cloud"))
    env, conv = limited(script, FALLBACK)
    response = Caller(env, conv).call([{"role": "user", "content": "q"}], category="main",
                                      reply=RecordingReply())
    assert response.fell_back == "cloud"


def test_an_empty_answer_is_never_silent():
    """Behind a LiteLLM proxy an overflow came back as an empty answer and exit 0."""
    script = Script([Finish("stop")])
    env, conv = limited(script)
    with pytest.raises(EmptyAnswer) as caught:
        Caller(env, conv).call([{"role": "user", "content": "q"}], category="main")
    assert "fast sent an empty answer" in str(caught.value)
    script = Script([Finish("stop")])
    env, conv = limited(script, why=ContextOverflow("HTTP 400: too long", window=300))
    with pytest.raises(ContextOverflow):  # the proxy, asked plainly, names the overflow
        Caller(env, conv).call([{"role": "user", "content": "q"}], category="main")


def test_an_empty_answer_at_the_cap_says_the_cap_was_spent():
    script = Script([Finish("length")])
    env, conv = limited(script)
    with pytest.raises(EmptyAnswer) as caught:
        Caller(env, conv).call([{"role": "user", "content": "q"}], category="main")
    assert "whole answer cap (1,024 tokens)" in str(caught.value) and "max_tokens" in str(caught.value)


def test_an_answer_stopped_by_the_cap_is_told():
    script = Script([TextDelta("a long answer"), Finish("length")])
    env, conv = limited(script)
    reply = RecordingReply()
    Caller(env, conv).call([{"role": "user", "content": "q"}], category="main", reply=reply)
    assert any("answer stopped at fast's 1,024-token answer cap" in s for s in reply.statuses)


def test_a_local_model_gets_a_default_answer_cap_and_a_cloud_none():
    script = Script(text("a"), text("b"))
    env, conv = limited(script)
    caller = Caller(env, conv)
    seen = []
    real = script.stream
    script.stream = lambda model, messages, **kw: seen.append(kw.get("max_tokens")) or real(model, messages, **kw)
    env.stream = script.stream
    caller.call([{"role": "user", "content": "q"}], category="main")
    caller.call([{"role": "user", "content": "q"}], category="main", model=env.config.models["cloud"])
    assert seen == [1024, None]


def test_refused_tools_are_dropped_once_said_and_remembered():
    refusal = ToolsRejected("HTTP 500: tools param requires --jinja flag", status=500,
                            hint="start the server with tool calling on")
    script = Script([refusal], text("without tools"), text("again"))
    env, conv = limited(script, FALLBACK)
    reply = RecordingReply()
    caller = Caller(env, conv)
    response = caller.call([{"role": "user", "content": "q"}], category="main", reply=reply, tools=TOOL)
    assert response.text == "without tools" and response.fell_back is None
    assert [tools for _, _, tools in script.seen] == [TOOL, None]
    assert any("refused the tools offered" in s and "--jinja" in s for s in reply.statuses)
    again = RecordingReply()
    caller.call([{"role": "user", "content": "q"}], category="main", reply=again, tools=TOOL)
    assert script.seen[-1][2] is None and again.statuses == []  # said once, not on every ask


def test_a_refused_parameter_is_replaced_by_the_one_the_server_names():
    refusal = ParamRejected("HTTP 400: Unsupported parameter: 'max_tokens'... use 'max_completion_tokens'",
                            status=400, param="max_tokens", instead="max_completion_tokens")
    script = Script([refusal], text("ok"))
    env, conv = limited(script)
    params = []
    real = script.stream
    env.stream = lambda model, messages, **kw: params.append(kw.get("answer_param", "max_tokens")) or \
        real(model, messages, **kw)
    assert Caller(env, conv).call([{"role": "user", "content": "q"}], category="main").text == "ok"
    assert params == ["max_tokens", "max_completion_tokens"]


def test_real_refusal_bodies_get_their_types():
    from aish.llm.chunks import http_error

    tools = {"tools": TOOL}
    llama = b'{"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}'
    vllm = b'{"object": "error", "message": "\\"auto\\" tool choice requires --enable-auto-tool-choice ' \
           b'and --tool-call-parser to be set", "type": "BadRequestError", "code": 400}'
    assert isinstance(http_error(500, "x", llama, "http://x", None, None, tools), ToolsRejected)
    assert isinstance(http_error(400, "x", vllm, "http://x", None, None, tools), ToolsRejected)
    assert type(http_error(500, "x", llama, "http://x", None, None, {})) is HttpStatusError  # no tools sent
    openai = (b'{"error": {"message": "Unsupported parameter: \'max_tokens\' is not supported with this model. '
              b'Use \'max_completion_tokens\' instead.", "type": "invalid_request_error", "param": "max_tokens", '
              b'"code": "unsupported_parameter"}}')
    refused = http_error(400, "x", openai, "http://x", None, None, {"max_tokens": 10})
    assert isinstance(refused, ParamRejected) and refused.instead == "max_completion_tokens"
    lcp = (b'{"error": {"message": "This model\'s maximum context length is 1024 tokens. However, you '
           b'requested 1300 tokens (1300 in the messages, None in the completion).", "type": '
           b'"invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}')
    overflow = http_error(400, "x", lcp, "http://x", None)
    assert isinstance(overflow, ContextOverflow) and overflow.window == 1024
    litellm = (b'{"error": {"message": "litellm.ContextWindowExceededError: litellm.BadRequestError: '
               b'ContextWindowExceededError: OpenAIException - This model\'s maximum context length is 1024 tokens. '
               b'However, you requested 4240 tokens (4230 in the messages, 10 in the completion). Please reduce the '
               b'length of the messages or completion.\\nmodel=local.", "type": "invalid_request_error", '
               b'"param": null, "code": "400"}}')
    overflow = http_error(400, "x", litellm, "http://x", None)  # a LiteLLM proxy, as it answered by hand
    assert isinstance(overflow, ContextOverflow) and (overflow.window, overflow.prompt_tokens) == (1024, 4230)
    llama_cpp = (b'{"error": {"code": 400, "message": "request (1300 tokens) exceeds the available context size '
                 b'(1024 tokens), try increasing it", "type": "exceed_context_size_error", '
                 b'"n_prompt_tokens": 1300, "n_ctx": 1024}}')
    overflow = http_error(400, "x", llama_cpp, "http://x", None)
    assert (overflow.window, overflow.prompt_tokens) == (1024, 1300)


def test_a_silent_model_gets_waiting_notes_naming_the_server(monkeypatch):
    monkeypatch.setattr(fit, "FIRST_WAIT_NOTE", 0.05)
    monkeypatch.setattr(fit, "WAIT_NOTE_EVERY", 0.15)
    reply = RecordingReply()

    def notes() -> list[str]:
        return [s for s in reply.statuses if s.startswith("waiting for fast")]

    def slow(model, messages, **kw):
        # silent until the note is said again, then a third of the interval more: the next note
        # is not due yet (a note at every look would be many more by then)
        wait_until(lambda: len(notes()) >= 2, 10, "the waiting note said again")
        time.sleep(0.05)
        yield TextDelta("at last")
        yield Finish("stop")

    env, conv = limited(Script())
    env.stream = slow
    Caller(env, conv).call([{"role": "user", "content": "q"}], category="main", reply=reply)
    said = notes()
    assert 2 <= len(said) <= 4 and "http://127.0.0.1:9" in said[0] and "busy" in said[0]


def test_an_ask_that_outgrows_the_window_folds_and_answers():
    """The conversation fits the window before each ask; an overflow the count missed folds once."""
    script = Script(*[text("answer " * 40) for _ in range(12)])
    env, conv = limited(script, window=1024)
    for n in range(12):
        result = run_ask(env, conv, req(f"question number {n} " + "words " * 60), RecordingReply())
        assert result.text.startswith("answer")
    for _, messages, _ in script.seen:
        assert env.limits.count(env.config.model(), messages) <= 1024 - 64
    overflow = ContextOverflow("HTTP 400: exceeds the available context size (700 tokens)", window=700)
    script.calls[:] = [[overflow], text("after the fold")]
    reply = RecordingReply()
    assert run_ask(env, conv, req("one more"), reply).text == "after the fold"
    assert any(s.startswith("context: the conversation (~") and "700-token window" in s and
               s.endswith("asking again") for s in reply.statuses), reply.statuses
