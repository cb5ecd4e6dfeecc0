"""Streamable HTTP and plain-JSON transports against real servers on loopback:
the official SDK server (SSE answers with sessions, and JSON/stateless) and a
plain-JSON server like lmcp."""
from __future__ import annotations

import pytest
import requests

from aish.errors import ToolError
from aish.mcp import jsonrpc
from aish.mcp.http import HttpTransport, display_url
from aish.mcp.session import McpSession
from tests.mcp_servers import SdkHttpServer
from tests.mcp_servers.plain_json_server import PlainServer


@pytest.fixture(scope="module")
def sse_server():
    server = SdkHttpServer()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def json_server():
    server = SdkHttpServer("--json", "--stateless")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def plain():
    server = PlainServer(token="s3cret-token", page_size=2, extra_tools=5)
    yield server
    server.stop()


def _session(url: str, bearer: str | None = None, timeout: float = 10.0) -> McpSession:
    return McpSession("notes", HttpTransport(url, bearer=bearer), timeout=timeout).open()


def _text(result: dict) -> str:
    return "".join(b.get("text", "") for b in result.get("content", []))


def test_sdk_sse_mode_handshake_session_and_version_headers(sse_server):
    session = _session(sse_server.url)
    try:
        assert session.protocol_version == jsonrpc.LATEST_PROTOCOL_VERSION
        assert session.server_info.get("name") == "notes-test"
        sid = session.transport.session_id
        assert sid, "the SDK server in its default mode hands out a session id"
        seen = _text(session.call_tool("whoami", {}))
        assert seen == f"session={sid} version={session.protocol_version}"
        assert {"read_note", "echo", "fail", "whoami"} <= {t.name for t in session.tools}
    finally:
        session.close()


def test_sdk_sse_mode_answers_arrive_as_event_stream(sse_server):
    # the assertion that the SSE path was taken: a raw POST gets text/event-stream back
    session = _session(sse_server.url)
    try:
        headers = session.transport._headers()
        raw = requests.post(sse_server.url, json=jsonrpc.request("tools/list"), headers=headers, timeout=5)
        assert raw.headers["Content-Type"].startswith("text/event-stream")
        assert _text(session.call_tool("echo", {"text": "über ✓"})) == "über ✓"
    finally:
        session.close()


def test_initialized_notification_is_required_and_sent(sse_server):
    # the handshake posts the notification (the server answers 202, no body)
    transport = HttpTransport(sse_server.url)
    sent = []
    original = transport.notify
    transport.notify = lambda msg, timeout: (sent.append(msg["method"]), original(msg, timeout))[1]
    session = McpSession("notes", transport, timeout=10).open()
    try:
        assert sent == ["notifications/initialized"]
    finally:
        session.close()


def test_delete_on_disconnect_ends_the_session(sse_server):
    session = _session(sse_server.url)
    sid, version = session.transport.session_id, session.protocol_version
    session.close()
    assert session.transport.session_id is None
    raw = requests.post(sse_server.url, json=jsonrpc.request("tools/list"), timeout=5, headers={
        "Accept": "application/json, text/event-stream", "Mcp-Session-Id": sid,
        "MCP-Protocol-Version": version})
    assert raw.status_code == 404


def test_expired_session_is_initialized_again_once(sse_server):
    session = _session(sse_server.url)
    try:
        old = session.transport.session_id
        # the server forgets the session (as after a restart or an idle time-out)
        requests.delete(sse_server.url, timeout=5, headers={
            "Mcp-Session-Id": old, "MCP-Protocol-Version": session.protocol_version})
        result = session.call_tool("echo", {"text": "still here"})
        assert _text(result) == "still here"
        assert session.reinitialized == 1
        assert session.transport.session_id and session.transport.session_id != old
    finally:
        session.close()


def test_sdk_sse_mode_timeout(sse_server):
    session = _session(sse_server.url, timeout=0.5)
    try:
        with pytest.raises(ToolError) as info:
            session.call_tool("slow", {"seconds": 1})
        text = str(info.value)
        assert text.startswith(f"mcp: {sse_server.url}") and "time" in text
    finally:
        session.close()


def test_sdk_json_stateless_mode(json_server):
    session = _session(json_server.url)
    try:
        assert session.transport.session_id is None
        raw = requests.post(json_server.url, json=jsonrpc.request("tools/list"),
                            headers=session.transport._headers(), timeout=5)
        assert raw.headers["Content-Type"].startswith("application/json")
        assert _text(session.call_tool("read_note", {"name": "todo"})) == "buy milk"
        result = session.call_tool("fail", {"reason": "no disk"})
        assert result["isError"] is True and "no disk" in _text(result)
    finally:
        session.close()


def test_sdk_protocol_error_raises_jsonrpc_error(json_server):
    session = _session(json_server.url)
    try:
        with pytest.raises(jsonrpc.JsonRpcError) as info:
            session.call_tool("protocol_error", {})
        assert "locked" in str(info.value) and info.value.code == -32602
    finally:
        session.close()


def test_sdk_read_timeout(json_server):
    session = _session(json_server.url, timeout=0.5)
    try:
        with pytest.raises(ToolError) as info:
            session.call_tool("slow", {"seconds": 3})
        assert "did not answer" in str(info.value) and "timeout" in str(info.value)
    finally:
        session.close()


def test_plain_json_bearer_pagination_and_no_session(plain):
    plain.requests.clear()
    session = _session(plain.url, bearer="s3cret-token")
    assert [t.name for t in session.tools][:3] == ["echo", "sleep", "fail"]
    assert len(session.tools) == 8  # 3 + 5, fetched 2 per page
    assert plain.methods() == ["initialize", "notifications/initialized"] + ["tools/list"] * 4
    for _, headers in plain.requests:
        assert headers["Authorization"] == "Bearer s3cret-token"
        assert headers["Accept"] == "application/json, text/event-stream"
        assert "Mcp-Session-Id" not in headers
    assert "MCP-Protocol-Version" not in plain.requests[0][1]
    assert plain.requests[1][1]["MCP-Protocol-Version"] == "2025-03-26"
    assert session.protocol_version == "2025-03-26"
    session.close()
    assert "DELETE" not in plain.methods(), "no session id, so nothing to delete"


def test_plain_json_wrong_token_is_an_actionable_error_without_the_token(plain):
    with pytest.raises(ToolError) as info:
        _session(plain.url, bearer="wrong-token")
    text = str(info.value)
    assert "HTTP 401" in text and "auth_token" in text and "wrong-token" not in text


def test_plain_json_unknown_tool_is_a_jsonrpc_error(plain):
    session = _session(plain.url, bearer="s3cret-token")
    with pytest.raises(jsonrpc.JsonRpcError) as info:
        session.call_tool("nope", {})
    assert str(info.value) == "mcp: Unknown tool: nope"


def test_plain_json_timeout(plain):
    session = _session(plain.url, bearer="s3cret-token", timeout=0.3)
    with pytest.raises(ToolError) as info:
        session.call_tool("sleep", {"seconds": 2})
    assert "did not answer tools/call within 0.3s" in str(info.value)


def test_connection_refused_names_the_url_without_secrets():
    from tests.mcp_servers import free_port

    url = f"http://user:pw@127.0.0.1:{free_port()}/mcp?token=abc"
    with pytest.raises(ToolError) as info:
        _session(url, timeout=2)
    text = str(info.value)
    assert "cannot connect" in text and "127.0.0.1" in text
    assert "pw" not in text and "abc" not in text


def test_display_url_drops_credentials():
    assert display_url("https://u:p@example.test:8443/mcp?key=1") == "https://example.test:8443/mcp"


def test_not_an_http_url():
    with pytest.raises(ToolError):
        HttpTransport("ftp://127.0.0.1/mcp")


def test_http_goes_through_aish_net_loopback_never_proxied(plain, monkeypatch):
    """A proxy in the environment is not used for a loopback server (aish.net's policy)."""
    from tests.helpers import closed_port_url

    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", closed_port_url())
    monkeypatch.setenv("http_proxy", closed_port_url())
    session = _session(plain.url, bearer="s3cret-token")
    assert "echo" in [t.name for t in session.tools]
    session.close()
