"""fallback.py: which failures are retried on the fallback model, and what the user reads.

The eligible failures are produced for real where loopback allows: a closed
port (refused), a socket that accepts and never answers (read timeout), a
listener whose backlog is full (connect timeout), a stub server answering
503/404/408/401..., through ``broker.chat_stream`` (the typed errors every model
call fails with).  Name resolution is the one
shape faked at the resolver (``getaddrinfo`` raising the real ``gaierror``)
because a real lookup would leave loopback.  ``responses`` covers the HTTP
status shapes as a unit test.  The decision is made on the error's class:
an error that carries only text never falls back, whatever it says.
"""
from __future__ import annotations

import contextlib
import json
import socket
import time

import pytest
import responses

from aish.llm import broker
from aish.llm import fallback
from aish.config.schema import Config, ModelConfig, RoutingConfig
from aish.errors import (AishError, ApiError, BrokerError, Cancelled, ConfigError, ConnectFailed,
                         ConnectRefused, ConnectTimeout, Disconnected, DnsFailure, HttpStatusError,
                         ReadTimeout, StreamCut, TlsError, TransportError)
from tests.helpers import closed_port_url
from tests.safety.forms import each_form
from tests.stub_server import Reply, StubServer

ON = Config(routing=RoutingConfig(fallback=True))
OFF = Config(routing=RoutingConfig(fallback=False))
MSGS = [{"role": "user", "content": "hi"}]


def model(endpoint: str, **kw) -> ModelConfig:
    return ModelConfig(**{"name": "fast", "endpoint": endpoint, "model": "m", **kw})


def stream_error(cfg: ModelConfig, **kw) -> AishError:
    with pytest.raises(AishError) as info:
        list(broker.chat_stream(cfg, MSGS, **kw))
    return info.value


# ---------------------------------------------------------------- real sockets

@pytest.fixture
def closed_port():
    return closed_port_url()


@pytest.fixture
def black_hole():
    """Accepts connections (the kernel does, via the backlog) and never says a word."""
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.fixture
def full_backlog():
    """A listener whose accept queue is full: new SYNs are dropped, so connect times out."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = server.getsockname()[1]
    fillers = []
    for _ in range(4):
        client = socket.socket()
        client.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            client.connect(("127.0.0.1", port))
        fillers.append(client)
    time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    for client in fillers:
        client.close()
    server.close()


def test_closed_port_through_the_broker(closed_port):
    err = stream_error(model(closed_port))
    assert isinstance(err, ConnectRefused)
    assert str(err).startswith("transport: Connection refused")
    assert fallback.should_fallback(err, ON, text_arrived=False)
    assert fallback.fallback_reason(err) == "connection refused"
    assert not fallback.should_fallback(err, OFF, text_arrived=False)
    assert fallback.fallback_status("fast", err, "cloud") == \
        "local fast failed (connection refused); retrying via cloud"


def test_black_hole_read_timeout_through_the_broker(black_hole):
    start = time.monotonic()
    typed = stream_error(model(black_hole, connect_timeout=1.0, read_timeout=0.1))
    assert isinstance(typed, ReadTimeout)
    assert str(typed).startswith("transport: Timeout was reached (read timeout")
    assert fallback.should_fallback(typed, ON, text_arrived=False)
    assert fallback.fallback_reason(typed) == "timeout"
    assert time.monotonic() - start < 3


def test_connect_timeout_through_the_broker(full_backlog):
    typed = stream_error(model(full_backlog, connect_timeout=0.1, read_timeout=0.1))
    assert isinstance(typed, ConnectTimeout) and "connect timeout" in str(typed)
    assert fallback.should_fallback(typed, ON, text_arrived=False)
    assert fallback.fallback_reason(typed) == "timeout"


def test_name_resolution_failure(monkeypatch):
    def no_such_host(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    typed = stream_error(model("http://model.invalid"))
    assert isinstance(typed, DnsFailure) and str(typed).startswith("transport: Couldn't resolve host")
    assert fallback.should_fallback(typed, ON, text_arrived=False)
    assert fallback.fallback_reason(typed) == "cannot resolve host"


@each_form("status,body,eligible,reason", [
    (503, None, True, "HTTP 503"),
    (500, None, True, "HTTP 500"),
    (404, {"error": {"code": "model_not_found", "message": "model 'm' not found"}}, True,
     "HTTP 404, model not loaded"),
    (404, {"error": {"message": "no such route"}}, False, "HTTP 404"),
    (408, None, True, "HTTP 408"),
    (400, {"error": {"message": "messages must alternate"}}, False, "HTTP 400"),
    (401, {"error": {"message": "bad key"}}, False, "HTTP 401"),
    (403, {"error": {"message": "forbidden"}}, False, "HTTP 403"),
])
def test_real_http_statuses_from_the_stub_server(status, body, eligible, reason):
    with StubServer() as stub:
        stub.queue(Reply(status=status, error_body=body))
        err = stream_error(model(stub.url))
    assert isinstance(err, HttpStatusError) and err.status == status
    assert fallback.should_fallback(err, ON, text_arrived=False) is eligible
    assert fallback.fallback_reason(err) == reason


@each_form("status,eligible", [(502, True), (504, True), (599, True), (408, True),
                                (400, False), (401, False), (403, False), (429, False)])
@responses.activate
def test_http_status_shapes_with_responses(status, eligible):
    responses.add(responses.POST, "http://model.test/v1/chat/completions",
                  body=json.dumps({"error": {"message": "x"}}), status=status,
                  content_type="application/json")
    err = stream_error(model("http://model.test"))
    assert fallback.should_fallback(err, ON, text_arrived=False) is eligible


# ---------------------------------------------------------------- never

def test_stream_error_envelope_is_api_and_never_falls_back():
    with StubServer() as stub:
        stub.queue(Reply(text="", stream_error_after=0))
        err = stream_error(model(stub.url))
    assert isinstance(err, ApiError)
    assert not fallback.should_fallback(err, ON, text_arrived=False)


def test_missing_key_is_a_broker_error_and_never_falls_back(monkeypatch):
    monkeypatch.delenv("AISH_TEST_KEY", raising=False)
    err = stream_error(model("http://127.0.0.1:9", key_env="AISH_TEST_KEY"))
    assert isinstance(err, BrokerError)
    assert not fallback.should_fallback(err, ON, text_arrived=False)


def test_nothing_after_text_arrived():
    with StubServer() as stub:
        stub.queue(Reply(text="some words here", cut_after=1))
        seen = []
        with pytest.raises(TransportError) as info:
            for event in broker.chat_stream(model(stub.url), MSGS):
                seen.append(event)
    err = info.value
    assert isinstance(err, StreamCut) and err.partial_text
    assert not fallback.should_fallback(err, ON, text_arrived=False)  # partial text says so
    refused = ConnectRefused("Connection refused (x)")
    assert not fallback.should_fallback(refused, ON, text_arrived=True)
    assert fallback.should_fallback(refused, ON, text_arrived=False)


@each_form("err", [
    Cancelled(),
    ConfigError("no model named 'x'"),
    BrokerError("model_cfg.endpoint and .model required"),
    ApiError("HTTP 503 said the upstream"),  # api: even when it mentions a 5xx
    TlsError("TLS error with https://x: bad cert"),
    HttpStatusError("HTTP 404: not found", status=404),
    HttpStatusError("HTTP 404: model 'x' not found (model_not_found)", status=404),  # code, not text
    ValueError("Connection refused"),  # not a network exception
])
def test_never_eligible(err):
    assert not fallback.should_fallback(err, ON, text_arrived=False)


@each_form("text", [
    "transport: HTTP 503: loading model",
    "transport: Couldn't resolve host model.test",
    "transport: Connection refused (http://127.0.0.1:8080)",
    "transport: Timeout was reached (read timeout after 1s)",
    "transport: Operation timed out after 3000 milliseconds",
])
def test_text_alone_never_decides(text):
    """Eligibility is decided by the error's class: text that looks like a failure is not one."""
    for err in (Exception(text), AishError(text), TransportError(text.removeprefix("transport: "))):
        assert not fallback.should_fallback(err, ON, text_arrived=False), err


@each_form("err,eligible,reason", [
    (HttpStatusError("HTTP 503: loading", status=503), True, "HTTP 503"),
    (HttpStatusError("HTTP 404: no such model", status=404, code="model_not_found"), True,
     "HTTP 404, model not loaded"),
    (HttpStatusError("HTTP 302: redirected to /x", status=302), False, "HTTP 302"),
    (HttpStatusError("HTTP 429: slow down", status=429), False, "HTTP 429"),
    (ConnectRefused("Connection refused (x)"), True, "connection refused"),
    (Disconnected("Server closed the connection before replying (x)"), True, "connection closed"),
    (ConnectFailed("Could not connect to x: Network is unreachable"), True, "cannot connect"),
    (DnsFailure("Couldn't resolve host x"), True, "cannot resolve host"),
    (ConnectTimeout("Timeout was reached (connect timeout after 1s, x)"), True, "timeout"),
    (ReadTimeout("Timeout was reached (read timeout after 1s, x)"), True, "timeout"),
    (StreamCut("stream from x was cut short (no text arrived; ...)"), True, "stream cut short"),
    (StreamCut("stream from x was cut short (3 characters ...)", partial_text="abc"), False,
     "stream cut short"),
    (TlsError("TLS error with https://x: bad cert"), False, "TLS error"),
])
def test_each_transport_class_decides_and_names_itself(err, eligible, reason):
    assert fallback.should_fallback(err, ON, text_arrived=False) is eligible
    assert fallback.fallback_reason(err) == reason


# ---------------------------------------------------------------- messages

def test_both_failures_are_in_one_line_with_their_hints():
    first = HttpStatusError("HTTP 503: loading", status=503)
    second = HttpStatusError("HTTP 401: bad key", status=401, hint="check the key in $CLOUD_KEY")
    line = fallback.both_failed_message("fast", first, "cloud", second)
    assert line == ("fast failed: transport: HTTP 503: loading; fallback cloud failed too: "
                    "transport: HTTP 401: bad key (check the key in $CLOUD_KEY)")
    assert "\n" not in line


def test_both_failed_shows_no_library_internals(closed_port):
    err = stream_error(model(closed_port))
    line = fallback.both_failed_message("fast", err, "cloud", err)
    assert "HTTPConnectionPool" not in line and line.count("Connection refused") == 2
