"""The loopback stub itself: wire shapes others rely on, and a stop that never hangs."""
from __future__ import annotations

import json
import threading
import time

import pytest
import requests

from tests.stub_server import Reply, StubServer, _Gone

MSGS = [{"role": "user", "content": "hello there"}]


def chat(server, body=None, timeout=5):
    body = {"model": "m", "stream": True, "messages": MSGS, **(body or {})}
    resp = requests.post(server.url + "/v1/chat/completions", json=body, timeout=timeout)
    lines = resp.text.split("\n")
    comments = [line for line in lines if line.startswith(":")]
    data = [line[6:] for line in lines if line.startswith("data: ")]
    assert data[-1] == "[DONE]"
    return comments, [json.loads(d) for d in data[:-1]]


def test_llamacpp_usage_only_when_asked_and_valid_chunks():
    with StubServer() as server:
        server.queue(Reply(text="abcdef", chunk_size=2))
        _, chunks = chat(server)
        assert all("usage" not in c for c in chunks)
        assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks) == "abcdef"
        assert all(c["object"] == "chat.completion.chunk" and c["model"] == "m" for c in chunks)
        assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
        _, chunks = chat(server, {"stream_options": {"include_usage": True}})
        assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["prompt_tokens"] > 0
        server.queue(Reply(usage=None))
        _, chunks = chat(server, {"stream_options": {"include_usage": True}})
        assert all("usage" not in c for c in chunks)
        assert len(server.wait_requests(3)) == 3


def test_openrouter_comments_first_and_usage_with_cost_last():
    with StubServer(shape="openrouter") as server:
        comments, chunks = chat(server)
        assert comments[0] == ": OPENROUTER PROCESSING"
        last = chunks[-1]
        assert last["choices"] == [] and last["usage"]["cost"] == pytest.approx(
            last["usage"]["total_tokens"] * 0.000001)


def test_tool_calls_stream_by_index():
    with StubServer() as server:
        server.queue(Reply(tool_calls=[{"name": "notes__read_note", "arguments": '{"name":"todo"}'},
                                       {"name": "fs__ls", "arguments": {"path": "/"}}]))
        _, chunks = chat(server)
        frags = [tc for c in chunks for tc in c["choices"][0]["delta"].get("tool_calls", [])]
        assert frags[0]["id"] and frags[0]["function"]["name"] == "notes__read_note"
        args = {i: "".join(f["function"]["arguments"] for f in frags if f["index"] == i) for i in (0, 1)}
        assert json.loads(args[0]) == {"name": "todo"} and json.loads(args[1]) == {"path": "/"}
        assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"
        assert not any(c["choices"][0]["delta"].get("content") for c in chunks)


def test_errors_models_health_and_tokenize():
    with StubServer(models=["m1"], tokenize="llama-cpp-python") as server:
        assert requests.get(server.url + "/health").json() == {"status": "ok"}
        assert requests.get(server.url + "/v1/models").json()["data"][0]["id"] == "m1"
        resp = requests.post(server.url + "/v1/chat/completions", json={"model": "x", "messages": MSGS})
        assert resp.status_code == 404 and resp.json()["error"]["code"] == "model_not_found"
        server.queue(Reply(status=503))
        resp = requests.post(server.url + "/v1/chat/completions", json={"model": "m1", "messages": MSGS})
        assert resp.status_code == 503 and resp.json()["error"]["message"] == "Service Unavailable"
        assert requests.post(server.url + "/tokenize", json={"content": "a b"}).status_code == 404
        tokens = requests.post(server.url + "/extras/tokenize", json={"input": "a b, c"}).json()["tokens"]
        assert len(tokens) == 4 and server.tokenize_calls == 1
    with StubServer(tokenize="llamacpp") as server:
        assert len(requests.post(server.url + "/tokenize", json={"content": "x y"}).json()["tokens"]) == 2


def test_stop_does_not_hang_with_a_hanging_reply_in_flight():
    server = StubServer(default=Reply(hang=True)).start()
    errors = []

    def client():
        try:
            _ = requests.post(server.url + "/v1/chat/completions", json={"model": "m", "messages": MSGS},
                              timeout=10).content
        except requests.RequestException as exc:
            errors.append(exc)

    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    server.wait_requests(1)
    start = time.monotonic()
    server.stop()
    assert time.monotonic() - start < 1
    thread.join(2)
    assert not thread.is_alive() and errors  # the client saw its stream end, not a 10 s wait


def test_a_client_gone_or_a_stop_is_quiet_and_a_stub_bug_is_not(capsys):
    """A handler ends a response with ``_Gone`` when its client hung up or the stub is stopping
    (``/v1/models`` held by ``models_delay`` when a test is done with the stub): nothing to print.
    Any other exception in a handler is a stub bug, printed with its traceback."""
    printed = {}
    with StubServer() as stub:
        for error in (_Gone(), ConnectionResetError("peer"), BrokenPipeError(), ValueError("stub bug")):
            try:
                raise error
            except Exception:
                stub._httpd.handle_error(None, ("127.0.0.1", 1))
            printed[type(error).__name__] = capsys.readouterr().err
    assert {name: "Traceback" in err for name, err in printed.items()} == {
        "_Gone": False, "ConnectionResetError": False, "BrokenPipeError": False, "ValueError": True}
    assert "ValueError: stub bug" in printed["ValueError"]
