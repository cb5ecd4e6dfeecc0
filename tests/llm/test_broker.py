"""broker.py: request shape and error mapping (``responses``), then the real
behaviour on a loopback socket (StubServer): refused, DNS, timeouts, cuts,
cancellation within 200 ms, closing a stream the consumer abandoned."""
from __future__ import annotations

import json
import re
import socket
import threading
import time

import pytest
import responses

from aish.llm import broker
from aish.ipc.cancel import CancelToken
from aish.config.schema import ModelConfig
from aish.errors import (ApiError, BrokerError, Cancelled, ConnectRefused, ConnectTimeout, ContextOverflow, DnsFailure,
                         HttpStatusError, ReadTimeout, StreamCut, TransportError)
from aish.llm.events import Finish, ReasoningDelta, TextDelta, TextWasReasoning, ToolCall, ToolCallDelta, Usage
from tests.helpers import closed_port_url
from tests.safety.forms import each_form
from tests.stub_server import Reply, StubServer

EP = "http://model.test"
URL = EP + "/v1/chat/completions"
MSGS = [{"role": "user", "content": "hi"}]


def model(**kw) -> ModelConfig:
    return ModelConfig(**{"name": "fast", "endpoint": EP, "model": "m", **kw})


def sse(*items, done=True) -> str:
    """An SSE body: dicts become data lines, strings are sent as they are."""
    out = [item if isinstance(item, str) else f"data: {json.dumps(item)}\n\n" for item in items]
    return "".join(out) + ("data: [DONE]\n\n" if done else "")


def delta(finish=None, **d) -> dict:
    return {"object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": d, "finish_reason": finish}]}


def serve(body: str, status: int = 200, ctype: str = "text/event-stream") -> None:
    responses.add(responses.POST, URL, body=body, status=status, content_type=ctype)


def run(cfg=None, **kw) -> list:
    return list(broker.chat_stream(cfg or model(), MSGS, **kw))


def texts(events, kind=TextDelta) -> str:
    return "".join(e.text for e in events if type(e) is kind)


# ---------------------------------------------------------------- request shape

@responses.activate
def test_body_has_no_tools_key_without_tools_and_asks_for_usage():
    serve(sse(delta(content="ok"), delta("stop")))
    run(tools=[])
    body = json.loads(responses.calls[0].request.body)
    assert body == {"model": "m", "messages": MSGS, "stream": True,
                    "stream_options": {"include_usage": True}}
    assert "Authorization" not in responses.calls[0].request.headers


@responses.activate
def test_body_carries_tools_limits_and_temperature():
    serve(sse(delta(content="ok"), delta("stop")))
    tools = [{"type": "function", "function": {"name": "notes__read_note", "parameters": {}}}]
    run(model(max_tokens=100, temperature=0.2, include_usage=False), tools=tools, max_tokens=7)
    body = json.loads(responses.calls[0].request.body)
    assert body["tools"] == tools and body["max_tokens"] == 7 and body["temperature"] == 0.2
    assert "stream_options" not in body


@responses.activate
def test_bearer_key_comes_from_key_env(monkeypatch):
    monkeypatch.setenv("STUB_KEY", "sk-secret-1234")
    serve(sse(delta(content="ok"), delta("stop")))
    run(model(key_env="STUB_KEY"))
    assert responses.calls[0].request.headers["Authorization"] == "Bearer sk-secret-1234"


@responses.activate
def test_missing_key_variable_names_it_and_sends_nothing(monkeypatch):
    monkeypatch.delenv("STUB_KEY", raising=False)
    with pytest.raises(BrokerError) as info:
        run(model(key_env="STUB_KEY"))
    assert str(info.value).startswith("broker: ") and "$STUB_KEY" in str(info.value)
    assert "export STUB_KEY=" in str(info.value)
    assert len(responses.calls) == 0


@pytest.mark.parametrize("field", ["endpoint", "model"])
def test_entry_without_endpoint_or_model_is_a_broker_error(field):
    with pytest.raises(BrokerError) as info:
        run(model(**{field: ""}))
    assert "model_cfg.endpoint and .model required" in str(info.value)
    assert "[models.fast]" in str(info.value) and field in str(info.value)


# ---------------------------------------------------------------- HTTP errors

@each_form("status,body,expected", [
    (400, {"error": {"code": 400, "message": "messages must alternate"}}, "HTTP 400: messages must alternate"),
    (404, {"error": {"code": "model_not_found", "message": "model 'x' not found"}},
     "HTTP 404: model 'x' not found (model_not_found)"),
    (404, {"error": "model \"x\" not found, try pulling it first"}, "HTTP 404: model \"x\" not found"),
    (500, {"error": "boom"}, "HTTP 500: boom"),
    (503, "Service Unavailable\n", "HTTP 503: Service Unavailable"),
    (502, "<html><body><h1>502 Bad Gateway</h1></body></html>", "HTTP 502: 502 Bad Gateway"),
])
@responses.activate
def test_error_envelopes_become_transport_http_errors(status, body, expected):
    text = json.dumps(body) if isinstance(body, dict) else body
    serve(text, status=status, ctype="application/json" if isinstance(body, dict) else "text/html")
    with pytest.raises(TransportError) as info:
        run()
    err = info.value
    assert isinstance(err, HttpStatusError) and err.status == status
    assert str(err).startswith("transport: " + expected)
    if status == 404:  # the seed's fallback pattern, after the prefix is stripped
        assert re.match(r"^HTTP 404.*model_not_found", str(err)[len("transport: "):])


@responses.activate
def test_auth_failure_hints_at_the_key_variable_and_never_shows_the_key(monkeypatch):
    monkeypatch.setenv("STUB_KEY", "sk-secret-1234")
    serve(json.dumps({"error": {"code": 401, "message": "bad key sk-secret-1234"}}), status=401,
          ctype="application/json")
    with pytest.raises(TransportError) as info:
        run(model(key_env="STUB_KEY"))
    assert info.value.status == 401 and "$STUB_KEY" in str(info.value)
    assert "sk-secret-1234" not in str(info.value)


@responses.activate
def test_redirect_is_reported_not_followed():
    responses.add(responses.POST, URL, status=301, headers={"Location": "https://model.test/v1/chat/completions"})
    with pytest.raises(TransportError) as info:
        run()
    assert info.value.status == 301 and "redirected to https://model.test" in str(info.value)
    assert len(responses.calls) == 1


@responses.activate
def test_long_error_body_is_truncated_to_one_line():
    serve("x" * 5000 + "\n" + "y" * 100, status=500, ctype="text/plain")
    with pytest.raises(TransportError) as info:
        run()
    assert len(str(info.value)) < 400 and "\n" not in str(info.value)


# ---------------------------------------------------------------- stream content

@responses.activate
def test_comments_are_ignored_and_finish_is_last():
    serve(sse(": OPENROUTER PROCESSING\n\n", delta(role="assistant", content=""), ": ping\n\n",
              delta(content="Hel"), delta(content="lo"), delta("stop")))
    events = run()
    assert texts(events) == "Hello"
    assert events[-1] == Finish("stop", ())
    assert sum(type(e) is Finish for e in events) == 1


@responses.activate
def test_error_inside_a_200_stream_is_an_api_error_with_partial_text():
    serve(sse(delta(content="half an "), {"error": {"code": 429, "message": "rate limited upstream"}},
              done=False))
    with pytest.raises(ApiError) as info:
        run()
    assert str(info.value) == "api: rate limited upstream"
    assert info.value.code == 429 and info.value.partial_text == "half an "


@responses.activate
def test_reasoning_fields_are_never_text():
    serve(sse(delta(reasoning_content="think "), delta(reasoning="more"),
              delta(content="CMD: ls"), delta("stop")))
    events = run()
    assert texts(events, ReasoningDelta) == "think more" and texts(events) == "CMD: ls"
    serve(sse(delta(reasoning_content="secret"), delta(content="ans"), delta("stop")))
    assert broker.chat_complete(model(), MSGS) == ("ans", None)


CONTENT = "<think>plan: CMD: rm -rf /</think>\n\nUse <b>ls</b>.\nCMD: ls"


@each_form("cut", range(1, len(CONTENT)))
@responses.activate
def test_think_tags_split_at_any_chunk_boundary(cut):
    serve(sse(delta(content=CONTENT[:cut]), delta(content=CONTENT[cut:]), delta("stop")))
    events = run()
    assert texts(events, ReasoningDelta) == "plan: CMD: rm -rf /"
    assert texts(events) == "Use <b>ls</b>.\nCMD: ls"


@responses.activate
def test_think_tags_one_character_at_a_time_and_unfinished_tag_at_end():
    text = "<think>a<b</think>x<thi"
    serve(sse(*[delta(content=ch) for ch in text], delta("stop")))
    events = run()
    assert texts(events, ReasoningDelta) == "a<b" and texts(events) == "x<thi"


IMPLICIT = "plan: CMD: rm -rf /</think>\n\nUse ls.\nCMD: ls"


def answer_text(events) -> str:
    """What a consumer keeps: text deltas, minus those a TextWasReasoning took back."""
    kept = ""
    for event in events:
        if type(event) is TextDelta:
            kept += event.text
        elif type(event) is TextWasReasoning:
            assert event.text == kept  # it names exactly what it takes back
            kept = ""
    return kept


@each_form("cut", range(1, len(IMPLICIT)))
@responses.activate
def test_a_thought_opened_by_the_template_is_taken_back_at_its_close(cut):
    """DeepSeek-R1-style templates put <think> in the prompt: only </think> streams."""
    serve(sse(delta(content=IMPLICIT[:cut]), delta(content=IMPLICIT[cut:]), delta("stop")))
    events = run()
    assert answer_text(events) == "Use ls.\nCMD: ls"
    taken_back = [e.text for e in events if type(e) is TextWasReasoning]
    # Text that streamed before the tag arrived whole is taken back; the rest never showed.
    assert len(taken_back) == (1 if cut < IMPLICIT.index("</think>") + len("</think>") else 0)
    assert "".join(taken_back) + texts(events, ReasoningDelta) == "plan: CMD: rm -rf /"
    serve(sse(delta(content=IMPLICIT[:cut]), delta(content=IMPLICIT[cut:]), delta("stop")))
    assert broker.chat_complete(model(), MSGS) == ("Use ls.\nCMD: ls", None)


@responses.activate
def test_a_close_tag_after_a_real_thought_or_alone_at_the_start_is_handled():
    serve(sse(delta(content="<think>a</think>b </think> c"), delta("stop")))
    events = run()
    assert texts(events, ReasoningDelta) == "a" and answer_text(events) == "b </think> c"
    serve(sse(delta(content="</think>\nonly"), delta("stop")))  # an empty implicit thought
    events = run()
    assert answer_text(events) == "only" and not any(type(e) is TextWasReasoning for e in events)
    serve(sse(delta(content="ends with </thi"), delta("stop")))
    assert answer_text(run()) == "ends with </thi"


@responses.activate
def test_tool_calls_are_assembled_by_index_even_interleaved():
    def frag(**f):
        return delta(tool_calls=[f])
    serve(sse(frag(index=0, id="call_a", type="function", function={"name": "notes__read_note", "arguments": ""}),
              frag(index=1, id="call_b", type="function", function={"name": "fs__list", "arguments": '{"p'}),
              frag(index=0, function={"arguments": '{"name":'}),
              frag(index=1, function={"arguments": 'ath":"/"}'}),
              frag(index=0, function={"arguments": '"todo"}'}),
              delta("tool_calls")))
    events = run(tools=[{"type": "function"}])
    assert [e.index for e in events if type(e) is ToolCallDelta] == [0, 1, 0, 1, 0]
    assert events[-1] == Finish("tool_calls", (
        ToolCall("call_a", "notes__read_note", '{"name":"todo"}'),
        ToolCall("call_b", "fs__list", '{"path":"/"}')))


@responses.activate
def test_calls_that_share_index_zero_are_told_apart_by_id():
    serve(sse(delta(tool_calls=[{"index": 0, "id": "c1", "function": {"name": "a__x", "arguments": "{}"}}]),
              delta(tool_calls=[{"index": 0, "id": "c2", "function": {"name": "b__y", "arguments": "{}"}}]),
              delta("tool_calls")))
    finish = run()[-1]
    assert [c.name for c in finish.tool_calls] == ["a__x", "b__y"]


@responses.activate
def test_usage_in_any_chunk_with_cost():
    usage = {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14, "cost": 0.0007}
    serve(sse({**delta(content="a"), "usage": usage}, delta(content="b"), delta("stop"),
              {"choices": [], "model": "vendor/m", "usage": {"prompt_tokens": 11, "completion_tokens": 4}}))
    usages = [e for e in run() if type(e) is Usage]
    assert usages[0] == Usage(11, 3, 14, cost=0.0007, model="m")
    assert usages[1] == Usage(11, 4, 15, cost=None, model="vendor/m")


@responses.activate
def test_stream_ending_without_done_or_finish_is_cut_with_partial_text():
    serve(sse(delta(content="twelve chars"), done=False))
    with pytest.raises(TransportError) as info:
        run()
    err = info.value
    assert isinstance(err, StreamCut) and err.partial_text == "twelve chars"
    assert "cut short" in str(err) and "12 characters" in str(err) and EP in str(err)


@responses.activate
def test_half_an_event_at_the_end_is_a_cut_not_garbage():
    serve(sse(delta(content="abc"), done=False) + 'data: {"choi')
    with pytest.raises(TransportError) as info:
        run()
    assert isinstance(info.value, StreamCut) and info.value.partial_text == "abc"


@responses.activate
def test_finish_reason_without_done_is_complete_and_done_without_reason_too():
    serve(sse(delta(content="a"), delta("length"), done=False))
    assert run()[-1] == Finish("length", ())
    serve(sse(delta(content="a")))
    assert run()[-1] == Finish(None, ())


@responses.activate
def test_non_json_data_line_is_a_clear_malformed_reply():
    serve("data: <html>oops</html>\n\ndata: [DONE]\n\n")
    with pytest.raises(ApiError) as info:
        run()
    assert str(info.value).startswith(f"api: malformed reply from {EP}")


@responses.activate
def test_server_that_ignores_stream_true_still_yields_events():
    body = {"choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "<think>hm</think>done"}}],
            "usage": {"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": 3}, "model": "m"}
    serve(json.dumps(body), ctype="application/json")
    events = run()
    assert texts(events) == "done" and texts(events, ReasoningDelta) == "hm"
    assert events[-1] == Finish("stop", ())


@responses.activate
def test_list_models_reads_ids_and_maps_errors():
    responses.add(responses.GET, EP + "/v1/models", json={"data": [{"id": "a"}, {"id": "b"}]})
    assert broker.list_models(EP) == ["a", "b"]
    responses.replace(responses.GET, EP + "/v1/models", json={"error": "nope"}, status=401)
    with pytest.raises(TransportError) as info:
        broker.list_models(EP, api_key="sk-x")
    assert info.value.status == 401


# ---------------------------------------------------------------- real loopback

@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


def at(server, **kw) -> ModelConfig:
    return ModelConfig(name="fast", endpoint=server.url, model="m", **kw)


@pytest.mark.parametrize("shape", ["llamacpp", "openrouter"])
def test_real_stream_in_both_shapes(shape):
    with StubServer(shape=shape) as server:
        server.queue(Reply(text="Sure.\nCMD: ls -la", reasoning="look around", chunk_size=3))
        events = list(broker.chat_stream(at(server), MSGS))
        assert texts(events) == "Sure.\nCMD: ls -la" and texts(events, ReasoningDelta) == "look around"
        usage = [e for e in events if type(e) is Usage]
        assert len(usage) == 1 and usage[0].completion_tokens > 0
        assert (usage[0].cost is not None) == (shape == "openrouter")
        assert events[-1] == Finish("stop", ())
        assert server.requests[-1]["body"]["messages"] == MSGS


def test_real_tool_call_and_keep_alive(stub):
    stub.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": '{"name":"todo"}'}]))
    finish = list(broker.chat_stream(at(stub), MSGS, tools=[{"type": "function"}]))[-1]
    assert finish.reason == "tool_calls"
    assert [(c.name, json.loads(c.arguments)) for c in finish.tool_calls] == [("notes__read_note", {"name": "todo"})]
    for _ in range(5):
        broker.chat_complete(at(stub), MSGS)
    assert stub.connections == 1  # the drained stream let the connection be reused


def test_closed_port_is_connection_refused():
    endpoint = closed_port_url()
    with pytest.raises(TransportError) as info:
        run(model(endpoint=endpoint))
    assert isinstance(info.value, ConnectRefused)
    assert str(info.value) == f"transport: Connection refused ({endpoint})"
    with pytest.raises(TransportError):
        broker.list_models(endpoint)


def test_unresolvable_host_is_dns():
    with pytest.raises(TransportError) as info:
        run(model(endpoint="http://nonexistent.invalid"))
    assert isinstance(info.value, DnsFailure)
    assert str(info.value) == "transport: Couldn't resolve host nonexistent.invalid"


def test_black_hole_read_times_out(stub):
    stub.queue(Reply(hang=True))
    start = time.monotonic()
    with pytest.raises(TransportError) as info:
        run(at(stub, read_timeout=0.1))
    assert isinstance(info.value, ReadTimeout)
    assert str(info.value).startswith("transport: Timeout was reached (read timeout after 0.1s")
    assert 0.08 < time.monotonic() - start < 2


def test_keep_alive_comments_alone_time_out_on_content_and_close_the_stream(stub):
    """A server that only pings (busy with another client) does not hold the answer open:
    the read timeout counts silence on content, the error names the server, and the stream is
    closed so the server stops working for a client that left."""
    stub.queue(Reply(hang=True, ping_every=0.05))
    start = time.monotonic()
    with pytest.raises(ReadTimeout) as info:
        run(at(stub, read_timeout=0.2))
    assert 0.15 < time.monotonic() - start < 3
    assert "sent only keep-alive comments" in str(info.value) and stub.url in str(info.value)
    assert stub.wait_disconnects(1, timeout=3) == 1


def test_timeout_argument_overrides_the_model(stub):
    stub.queue(Reply(first_byte_delay=1.0))
    with pytest.raises(TransportError) as info:
        run(at(stub), timeout=(1.0, 0.1))
    assert isinstance(info.value, ReadTimeout) and "after 0.1s" in str(info.value)


def test_real_cut_keeps_partial_text(stub):
    stub.queue(Reply(text="abcdefghijkl", chunk_size=4, cut_after=2))
    with pytest.raises(TransportError) as info:
        run(at(stub))
    assert isinstance(info.value, StreamCut) and info.value.partial_text == "abcdefgh"


def test_real_error_mid_stream_and_unknown_model():
    with StubServer(models=["m1"]) as server:
        with pytest.raises(TransportError) as info:
            run(at(server))
        assert info.value.status == 404 and "model_not_found" in str(info.value)
        server.queue(Reply(text="abcdefgh", chunk_size=4, stream_error_after=1))
        with pytest.raises(ApiError) as info:
            run(ModelConfig(name="x", endpoint=server.url, model="m1"))
        assert info.value.partial_text == "abcd"


def cancel_after(token: CancelToken, seconds: float, fired: list) -> threading.Thread:
    def go():
        time.sleep(seconds)
        fired.append(time.monotonic())
        token.cancel()
    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("reply", [Reply(hang=True), Reply(first_byte_delay=5),
                                   Reply(text="x" * 200, chunk_size=1, delay=0.5)],
                         ids=["hang", "before-headers", "slow-stream"])
def test_cancel_stops_a_blocking_read_within_200ms(stub, reply):
    stub.queue(reply)
    token, fired = CancelToken(), []
    cancel_after(token, 0.1, fired)
    got = []
    with pytest.raises(Cancelled):
        for event in broker.chat_stream(at(stub), MSGS, cancel=token):
            got.append(event)
    assert time.monotonic() - fired[0] < 0.2
    assert all(type(e) is not Finish for e in got)
    stub.queue(Reply(text="after"))  # the pool is still usable after a cut socket
    assert broker.chat_complete(at(stub), MSGS)[0] == "after"


def test_cancelled_before_the_call_sends_nothing(stub):
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        run(at(stub), cancel=token)
    assert stub.requests == []


def test_consumer_that_stops_iterating_closes_the_stream(stub):
    stub.queue(Reply(text="y" * 400, chunk_size=1, delay=0.01))
    for event in broker.chat_stream(at(stub), MSGS):
        if type(event) is TextDelta:
            break
    assert stub.wait_disconnects(1, timeout=2) == 1


def test_chat_once_is_a_plain_request_with_its_usage(stub):
    text, usage = broker.chat_once(at(stub), MSGS, max_tokens=1)
    body = stub.plain_requests[-1]["body"]
    assert body["stream"] is False and body["max_tokens"] == 1 and "stream_options" not in body
    assert usage is not None and usage.prompt_tokens > 0 and text


def test_a_connection_the_server_drops_after_an_empty_stream_is_not_reused(stub):
    """llama-cpp-python ends an over-long prompt's stream empty, then drops the connection: the
    next request on the pooled connection failed 'Server closed the connection before replying'."""
    stub.n_ctx, stub.overflow = 50, "llama-cpp-python"
    long = [{"role": "user", "content": "word " * 80}]
    with pytest.raises(StreamCut):
        list(broker.chat_stream(at(stub), long))
    with pytest.raises(ContextOverflow) as caught:
        broker.chat_once(at(stub), long)
    assert caught.value.window == 50


def test_black_hole_connect_times_out():
    """A listener whose accept queue is full drops SYNs: a real connect timeout on loopback."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port = server.getsockname()[1]
        fillers = []
        try:
            for _ in range(8):
                client = socket.socket()
                fillers.append(client)
                client.settimeout(0.1)
                try:
                    client.connect(("127.0.0.1", port))
                except OSError:
                    break
            endpoint = f"http://127.0.0.1:{port}"
            with pytest.raises(TransportError) as info:
                run(model(endpoint=endpoint, connect_timeout=0.1))
        finally:
            for client in fillers:
                client.close()
    assert isinstance(info.value, ConnectTimeout)
    assert str(info.value) == f"transport: Timeout was reached (connect timeout after 0.1s, {endpoint})"


def test_text_events_that_arrived_together_are_one_delta(stub):
    """Events already received are handed on with their text as one delta per run of text (the
    daemon writes one frame for them, not one per event: issue 26, many shells): the same text,
    in the same order with what is not text."""
    stub.queue(Reply(text="Use lsof to find it.\nCMD: lsof -ti tcp:8080", chunk_size=4,
                     reasoning="the port's owner", together=True))
    events = list(broker.chat_stream(at(stub), MSGS))
    assert [e.text for e in events if type(e) is TextDelta] == ["Use lsof to find it.\nCMD: lsof -ti tcp:8080"]
    assert texts(events, ReasoningDelta) == "the port's owner"
    kinds = [type(e) for e in events]
    assert kinds.index(TextDelta) > max(i for i, k in enumerate(kinds) if k is ReasoningDelta)
    assert events[-1] == Finish("stop", ())
    stub.queue(Reply(text="Use lsof to find it.", chunk_size=4))  # one write per event: as before
    assert texts(list(broker.chat_stream(at(stub), MSGS))) == "Use lsof to find it."


def test_plain_answer_text_takes_the_splitters_short_way(monkeypatch):
    """Every token passed through a generator per chunk and the splitter's three nested in it:
    plain text (no tag, none held back, no thought open) now takes one call, with the same events
    (the cases above hold the tags' ways to the same events)."""
    from aish.llm.chunks import ChunkDecoder
    from aish.llm.reasoning import ThinkSplitter

    fed: list = []
    real = ThinkSplitter.feed
    monkeypatch.setattr(ThinkSplitter, "feed", lambda self, text: fed.append(text) or real(self, text))
    decoder = ChunkDecoder()
    events = [e for piece in ("Use ", "lsof", " <b>", "ok</b>", ".") for e in decoder.feed(
        {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})]
    assert [(type(e), e.text) for e in events] == [(TextDelta, t) for t in ("Use ", "lsof", " <b>", "ok</b>", ".")]
    assert fed == [" <b>", "ok</b>"]  # only the pieces with a possible tag
    assert decoder.partial_text == "Use lsof <b>ok</b>."


@each_form("payload", [
    '{"choices":[{"delta":{"content":"hi"}}]}', ' {"a": 1}', '{"a": 1} ', '{"a": 1}{"b": 2}', '{"a": 1', '[1, 2]',
    '"text"', "12", "nul", "", '{"a": "\\ud83d\\ude00 é"}', '{"a": 1}\n', "\ufeff{}", "[DONE]", '{"a": NaN}'])
def test_an_events_data_reads_as_json_loads_has_it(payload):
    """The C scanner reads an event's data at once (json.loads spent two Python calls and two
    regular-expression matches on every token); what it does not read whole goes json.loads' way."""
    import json

    try:
        expected: object = json.loads(payload)
    except ValueError as err:
        expected = type(err)
    try:
        got: object = broker._json(payload)
    except ValueError as err:
        got = type(err)
    assert got == expected or (got != got and expected != expected)  # (NaN)


def test_a_body_s_kept_pieces_are_json_dumps_of_it_byte_for_byte():
    """encode_parts keeps the JSON of a request's keys, scalars and system message across
    requests: what it keeps by must tell apart what JSON tells apart (True from 1, a system
    message's keys in another order, another system text)."""
    import json

    from aish.llm.broker import encode_parts
    from aish.llm.events import Outgoing

    def dumped(body: dict) -> bytes:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    bodies = []
    for limit in (1, True, 512, None, 1.0):
        for head in ({"role": "system", "content": "You help."}, {"content": "You help.", "role": "system"},
                     {"role": "system", "content": "You help é."}, {"role": "user", "content": "hi"}):
            messages = Outgoing([head])  # a conversation's messages, as an ask sends them
            messages.append({"role": "user", "content": "q"})
            bodies.append({"model": "m", "messages": messages, "stream": True,
                           "max_tokens": limit, "stream_options": {"include_usage": True}})
    for _ in range(2):  # the second time from what was kept
        for body in bodies:
            assert b"".join(encode_parts(body)) == dumped(body)
