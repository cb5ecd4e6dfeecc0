"""Token counting: the char/4 fallback, the tokenize probe (both server shapes), caching,
timeouts and failures.  HTTP shapes with ``responses``; timeouts and the stub server on
real loopback sockets."""
from __future__ import annotations

import json
import socket
import time

import pytest
import requests
import responses

from aish.llm import tokenizer as tokenizer_mod
from aish.net import loopback
from aish.config.schema import ModelConfig, TokenizeConfig
from aish.llm.tokens import TokenCounter, heuristic, upper_bound
from tests.helpers import closed_port_url

BASE = "http://127.0.0.1:8080"
MODEL = ModelConfig(name="fast", endpoint=BASE + "/", model="qwen")
ON = TokenizeConfig(use_endpoint=True)


@pytest.fixture(autouse=True)
def _through_requests(monkeypatch):
    """``responses`` mocks requests itself, so calls to loopback go through requests here;
    the cases on real sockets run both ways (``transport``)."""
    monkeypatch.setattr(loopback, "ENABLED", False)


@pytest.fixture(params=["direct", "requests"])
def transport(request, monkeypatch):
    monkeypatch.setattr(loopback, "ENABLED", request.param == "direct")
    return request.param


def tokenize_reply(request):
    body = json.loads(request.body)
    text = body.get("content", body.get("input"))
    return 200, {}, json.dumps({"tokens": list(range(len(text.split())))})


def test_heuristic_is_the_seed_floor_of_bytes_over_four():
    assert heuristic("") == 0 and heuristic("abc") == 0 and heuristic("hello world") == 2
    assert heuristic("é" * 4) == 2  # UTF-8 bytes, like Lua's #text
    assert TokenCounter(None).count(MODEL, "x" * 41) == 10


def test_disabled_means_no_network_at_all():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        counter = TokenCounter(TokenizeConfig(use_endpoint=False))
        assert counter.count(MODEL, "one two three four five six") == 6
        assert counter.count_messages(MODEL, [{"role": "user", "content": "abcdefgh"}]) == 2
        assert len(rsps.calls) == 0 and counter.calls == 0
        assert counter.supported(MODEL) is False


def test_llamacpp_tokenize_is_probed_once_and_counts_are_cached():
    with responses.RequestsMock() as rsps:
        rsps.add_callback(responses.POST, BASE + "/tokenize", callback=tokenize_reply)
        counter = TokenCounter(ON)
        assert counter.supported(MODEL) is None
        assert counter.count(MODEL, "a b c") == 3  # char/4 would say 1
        assert counter.supported(MODEL) is True
        assert counter.count(MODEL, "a b c") == 3 and counter.calls == 1  # cached
        assert counter.count(MODEL, "d e") == 2 and counter.calls == 2  # only new text is sent
        sent = json.loads(rsps.calls[0].request.body)
        assert sent == {"content": "a b c", "model": "qwen"}
        assert rsps.calls[0].request.headers["Content-Type"] == "application/json"


def test_llama_cpp_python_extras_route_is_found_and_remembered():
    with responses.RequestsMock() as rsps:
        rsps.add(responses.POST, BASE + "/tokenize", status=404, json={"detail": "Not Found"})
        rsps.add_callback(responses.POST, BASE + "/extras/tokenize", callback=tokenize_reply)
        counter = TokenCounter(ON)
        assert counter.count(MODEL, "one two three four") == 4
        assert counter.count(MODEL, "five six") == 2
        paths = [c.request.url.replace(BASE, "") for c in rsps.calls]
        assert paths == ["/tokenize", "/extras/tokenize", "/extras/tokenize"]
        assert json.loads(rsps.calls[1].request.body) == {"input": "one two three four", "model": "qwen"}


def test_no_tokenizer_falls_back_silently_and_never_probes_again():
    with responses.RequestsMock() as rsps:
        rsps.add(responses.POST, BASE + "/tokenize", status=404)
        rsps.add(responses.POST, BASE + "/extras/tokenize", body="<html>nope</html>", status=200)
        counter = TokenCounter(ON)
        assert counter.count(MODEL, "hello world") == 2
        assert counter.count(MODEL, "something else entirely") == heuristic("something else entirely")
        assert counter.supported(MODEL) is False and counter.calls == 2 and len(rsps.calls) == 2


def test_capability_is_per_endpoint_and_model():
    other = ModelConfig(name="deep", endpoint=BASE, model="other")
    with responses.RequestsMock() as rsps:
        rsps.add_callback(responses.POST, BASE + "/tokenize", callback=tokenize_reply)
        counter = TokenCounter(ON)
        counter.count(MODEL, "a b")
        counter.count(other, "a b")  # same text, other model: its own probe and count
        assert counter.calls == 2 and counter.supported(other) is True


@pytest.mark.parametrize("failure", [requests.ConnectionError("refused"), requests.Timeout("slow")])
def test_transient_probe_failure_backs_off_then_retries(failure, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(tokenizer_mod, "_clock", lambda: clock[0])
    with responses.RequestsMock() as rsps:
        rsps.add(responses.POST, BASE + "/tokenize", body=failure)
        counter = TokenCounter(ON)
        assert counter.count(MODEL, "a b c d e f g h") == 3
        assert counter.count(MODEL, "a b c d e f g h i") == 4  # no second probe while backing off
        assert counter.calls == 1 and counter.supported(MODEL) is None
        clock[0] += tokenizer_mod.RETRY_AFTER + 1
        rsps.replace(responses.POST, BASE + "/tokenize", status=200, json={"tokens": [1, 2, 3, 4, 5]})
        assert counter.count(MODEL, "a b c d e f g h") == 5 and counter.supported(MODEL) is True


def test_server_error_on_a_known_tokenizer_falls_back_for_a_while(monkeypatch):
    clock = [50.0]
    monkeypatch.setattr(tokenizer_mod, "_clock", lambda: clock[0])
    with responses.RequestsMock() as rsps:
        rsps.add_callback(responses.POST, BASE + "/tokenize", callback=tokenize_reply)
        counter = TokenCounter(ON)
        assert counter.count(MODEL, "a b") == 2
        rsps.replace(responses.POST, BASE + "/tokenize", status=503, json={"error": {"code": 503}})
        assert counter.count(MODEL, "x" * 40) == 10
        assert counter.count(MODEL, "y" * 40) == 10 and counter.calls == 2  # backing off
        assert counter.supported(MODEL) is True  # still known; just down


def test_secrets_are_redacted_and_the_key_is_sent_as_bearer(monkeypatch):
    monkeypatch.setenv("LOCAL_KEY", "k-123")
    model = ModelConfig(name="fast", endpoint=BASE, model="qwen", key_env="LOCAL_KEY")
    with responses.RequestsMock() as rsps:
        rsps.add_callback(responses.POST, BASE + "/tokenize", callback=tokenize_reply)
        TokenCounter(ON).count(model, "export PASSWORD=correcthorsebattery now")
        request = rsps.calls[0].request
        body = request.body.decode() if isinstance(request.body, bytes) else request.body
        assert "correcthorsebattery" not in body and "PASSWORD=<secret:1>" in body
        assert request.headers["Authorization"] == "Bearer k-123"


def test_count_messages_sums_contents_parts_and_tool_calls():
    counter = TokenCounter(None)
    messages = [
        {"role": "system", "content": "s" * 8},
        {"role": "user", "content": [{"type": "text", "text": "t" * 12}, {"type": "image_url"}]},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "1", "type": "function", "function": {"name": "abc", "arguments": "{\"q\": 1}"}}]},
        "not a message",
    ]
    assert counter.count_messages(None, messages) == 2 + 3 + heuristic('abc {"q": 1}')
    assert counter.count(MODEL, "") == 0 and counter.count(None, "abcd") == 1


def test_a_tokenizer_that_never_answers_costs_one_timeout(monkeypatch, transport):
    """Real loopback socket that accepts and stays silent: count returns within the timeout."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    try:
        port = listener.getsockname()[1]
        model = ModelConfig(name="fast", endpoint=f"http://127.0.0.1:{port}", model="m")
        counter = TokenCounter(TokenizeConfig(use_endpoint=True, timeout=0.05))
        start = time.monotonic()
        assert counter.count(model, "x" * 80) == 20
        assert counter.count(model, "y" * 80) == 20
        assert time.monotonic() - start < 1.5 and counter.calls == 1
    finally:
        listener.close()


def test_a_refused_port_is_char4_without_raising(transport):
    model = ModelConfig(name="fast", endpoint=closed_port_url(), model="m")
    counter = TokenCounter(ON)
    assert counter.count(model, "hello world") == 2 and counter.calls == 1


# ---------------------------------------------------------------- real loopback server

@pytest.mark.parametrize("flavour", ["llamacpp", "llama-cpp-python"])
def test_real_stub_tokenizer_counts_match_and_each_text_is_sent_once(flavour, transport):
    from tests.stub_server import StubServer, count_tokens

    text = "Hello, world! This isn't char/4."
    with StubServer(tokenize=flavour) as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        counter = TokenCounter(ON)
        assert counter.count(model, text) == len(count_tokens(text)) != heuristic(text)
        messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": text}]
        assert counter.count_messages(model, messages) == len(count_tokens("be brief")) + len(count_tokens(text))
        assert stub.tokenize_calls == 2  # `text` came from the cache the second time
        assert counter.supported(model) is True


def test_real_stub_without_tokenizer_is_probed_once(transport):
    from tests.stub_server import StubServer

    with StubServer(tokenize=None) as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        counter = TokenCounter(ON)
        for i in range(5):
            assert counter.count(model, f"text number {i} " * 4) == heuristic(f"text number {i} " * 4)
        assert counter.calls == 2 and stub.tokenize_calls == 0  # /tokenize + /extras/tokenize, once
        assert counter.supported(model) is False


def test_probe_follows_the_proxy_policy_loopback_never_proxied(monkeypatch, transport):
    """The probe goes through aish.net: a proxy in the environment is not used for loopback."""
    from tests.stub_server import StubServer

    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", closed_port_url())
    monkeypatch.setenv("http_proxy", closed_port_url())
    with StubServer(tokenize="llamacpp") as stub:
        model = ModelConfig(name="fast", endpoint=stub.url, model="m")
        counter = TokenCounter(ON)
        assert counter.count(model, "one two three four five six seven eight nine ten") == 10
        assert stub.tokenize_calls == 1 and counter.supported(model) is True


def test_a_deferred_text_weighs_its_bound_until_settled_and_a_sent_one_is_not_scanned_again(monkeypatch):
    """A question is weighed by an upper bound of its count until settled (``weigh`` says a sum holds
    one); settled from the request as it went out (already redacted, to this same server) it is not
    redacted a second time."""
    scanned: list = []
    monkeypatch.setattr(tokenizer_mod, "_redacted", lambda text: scanned.append(text) or text)
    with responses.RequestsMock() as rsps:
        rsps.add_callback(responses.POST, BASE + "/tokenize", callback=tokenize_reply)
        counter = TokenCounter(ON)
        assert counter.count(MODEL, "probe") == 1  # the route is known
        calls = len(rsps.calls)
        question, other = "free port 8080 now", "and port 9090"
        assert counter.defer(MODEL, question) and counter.defer(MODEL, other)
        assert counter.count(MODEL, question) == upper_bound(question) and len(rsps.calls) == calls
        messages = [{"role": "user", "content": question}]
        assert counter.weigh(MODEL, messages) == (upper_bound(question), True)
        scanned.clear()
        assert counter.settle(MODEL, [question], sent=True) == 1
        assert counter.count(MODEL, question) == 4 and counter.weigh(MODEL, messages) == (4, False)
        assert scanned == [] and len(rsps.calls) == calls + 1
        counter.settle(MODEL, [other])  # from the conversation's turn: scanned as ever
        assert scanned == [other] and counter.count(MODEL, other) == 3
